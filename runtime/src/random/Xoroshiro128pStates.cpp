// Xoroshiro128pStates: pyk::random's host API, arrays of xoroshiro128+ states initialised by the
// stdlib's own pyk kernel (stdlib/numba/cuda/random.pyk) on the CPU backend.
#include "jit/CompilerService.h"
#include "memory/ArrayAccess.h"
#include "pyk/error.hpp"
#include "pyk/kernel.hpp"
#include "pyk/random.hpp"

namespace pyk::random {

namespace {

// The stdlib module, loaded once per process as an ordinary module (its kernels launch).
const Module& randomModule() {
  static const jit::StdlibSource source = jit::numbaCudaRandomSource();
  static const Module module = loads(std::string(source.text), source.path);
  return module;
}

// Whether `record` holds states: uint64 `s0` at 0 and `s1` at 8 in 16 bytes (aligned or not, as
// numba's kernels accept both).
bool isStateRecord(const RecordDtype* record) {
  if (record == nullptr || record->itemsize() != 16 || record->fields().size() != 2)
    return false;
  const RecordField* s0 = record->field("s0");
  const RecordField* s1 = record->field("s1");
  return s0 != nullptr && s1 != nullptr && s0->dtype == Dtype::UInt64 && s0->offset == 0 &&
         s1->dtype == Dtype::UInt64 && s1->offset == 8;
}

} // namespace

const RecordDtype& xoroshiro128p_dtype() {
  static const RecordDtype dtype =
      RecordDtype::sequential({{"s0", Dtype::UInt64}, {"s1", Dtype::UInt64}}, true);
  return dtype;
}

AnyDeviceArray create_xoroshiro128p_states(std::int64_t n, std::uint64_t seed,
                                           std::uint64_t subsequence_start, const Stream& stream) {
  if (n < 0)
    throw Error(ErrorKind::InvalidArgument,
                "create_xoroshiro128p_states: n is " + std::to_string(n) + ", not a count");
  AnyDeviceArray states = AnyDeviceArray::allocate(xoroshiro128p_dtype(), {n});
  init_xoroshiro128p_states(states, seed, subsequence_start, stream);
  return states;
}

void init_xoroshiro128p_states(const AnyDeviceArray& states, std::uint64_t seed,
                               std::uint64_t subsequence_start, const Stream& stream) {
  if (states.ndim() != 1 || !isStateRecord(states.record()))
    throw Error(ErrorKind::InvalidArgument,
                "init_xoroshiro128p_states: the states must be a 1-D array of " +
                    xoroshiro128p_dtype().str() + ", not a " + std::to_string(states.ndim()) +
                    "-D array of " +
                    (states.record() != nullptr ? states.record()->str()
                                                : std::string(dtype_name(states.dtype()))));
  if (states.size() == 0)
    return;
  const Kernel init = randomModule()["init_xoroshiro128p_states_serial"];
  // On the CPU backend a C-contiguous array of numba's own dtype is filled in place; anything
  // else is filled from a CPU-backend array, as numba fills a host array and copies it over.
  if (states.backend() == Backend::Cpu && states.is_c_contiguous() &&
      *states.record() == xoroshiro128p_dtype()) {
    init.launch(1, 1, stream)(states, seed, subsequence_start);
    stream.synchronize();
    return;
  }
  AnyDeviceArray host =
      detail::ArrayAccess::allocate(Backend::Cpu, Dtype::Record, {states.size()},
                                    std::make_shared<const RecordDtype>(xoroshiro128p_dtype()));
  init.launch(1, 1)(host, seed, subsequence_start);
  AnyDeviceArray target = states; // a handle on the same memory
  target.copy_from_host(host.host_data(), static_cast<std::size_t>(host.nbytes()), stream);
  stream.synchronize(); // `host` dies here
}

} // namespace pyk::random
