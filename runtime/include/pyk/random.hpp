// random: numba.cuda.random's host side: arrays of xoroshiro128+ generator states, one per
// thread, for the device functions kernels import from `numba.cuda.random`
// (`xoroshiro128p_uniform_float32(states, i)`...; stdlib/numba/cuda/random.pyk).
#pragma once

#include <cstdint>

#include "pyk/device_array.hpp"
#include "pyk/record.hpp"
#include "pyk/stream.hpp"

namespace pyk::random {

// numba's xoroshiro128p_dtype: np.dtype([('s0', np.uint64), ('s1', np.uint64)], align=True).
const RecordDtype& xoroshiro128p_dtype();

// One state as the host sees it in the bytes of copy_to_host.
struct Xoroshiro128pState {
  std::uint64_t s0 = 0;
  std::uint64_t s1 = 0;
  bool operator==(const Xoroshiro128pState&) const = default;
};
static_assert(sizeof(Xoroshiro128pState) == 16, "a state is two 64-bit words");

// A new 1-D array of n states (of xoroshiro128p_dtype) on the current backend, initialised as
// numba's create_xoroshiro128p_states: state 0 is splitmix64(seed) jumped subsequence_start times
// (2**64 steps each), state i is state i-1 jumped once, so no two threads' sequences overlap for
// 2**64 draws. Throws pyk::Error (InvalidArgument) for a negative n.
AnyDeviceArray create_xoroshiro128p_states(std::int64_t n, std::uint64_t seed,
                                           std::uint64_t subsequence_start = 0,
                                           const Stream& stream = Stream());

// Fills an existing 1-D array of states the same way (numba's init_xoroshiro128p_states). As in
// numba, the states are computed on the host (here by the stdlib's pyk kernel
// `init_xoroshiro128p_states_serial` on the CPU backend, one thread) and copied into `states`; a
// copy on `stream` is waited for before returning. Throws pyk::Error (InvalidArgument) when
// `states` is not a 1-D array of two uint64 fields `s0` and `s1` at offsets 0 and 8.
void init_xoroshiro128p_states(const AnyDeviceArray& states, std::uint64_t seed,
                               std::uint64_t subsequence_start = 0,
                               const Stream& stream = Stream());

} // namespace pyk::random
