// ArgumentTypes: numba's typeof of a launch's C++ arguments (an array as array(dtype, ndim,
// layout), an array of records as array(Record(...), ndim, layout), a scalar by its C++ type), and
// the packed ArgumentSignature that finds a loaded CUDA specialization without building a string.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/NumbaType.h"
#include "pyk/kernel.hpp"

namespace pyk::detail {

// numba's typeof layout: C when C-contiguous (1-D arrays included), F when only F-contiguous,
// else A.
types::ArrayLayout layoutOf(const AnyDeviceArray& a);
// The same, the common ranks (0 and 1) answered inline.
inline types::ArrayLayout layoutOfArgument(const AnyDeviceArray& a) {
  if (a.ndim() == 0)
    return types::ArrayLayout::C;
  if (a.ndim() == 1)
    return a.shape()[0] == 1 || a.strides()[0] == static_cast<std::int64_t>(a.itemsize())
               ? types::ArrayLayout::C
               : types::ArrayLayout::A;
  return layoutOf(a);
}

// numba's Record type of a structured dtype (nested records, sub-array and character fields
// included).
types::NumbaType recordTypeOf(const RecordDtype& record);

// numba's typeof of one argument, and of a launch's.
types::NumbaType typeOf(const KernelArgument& a);
std::vector<types::NumbaType> typesOf(std::span<const KernelArgument> args);

// Every array argument `a` holds: itself (an array, a record, a pointer's array), or a tuple's,
// depth first.
template <typename F>
void forEachArrayOf(const KernelArgument& a, F&& f) {
  if (a.kind == KernelArgument::Kind::Array || a.kind == KernelArgument::Kind::Record ||
      a.kind == KernelArgument::Kind::Pointer)
    f(*a.array);
  else if (a.kind == KernelArgument::Kind::Tuple)
    for (const KernelArgument& e : a.tuple->elements)
      forEachArrayOf(e, f);
}

// "(float32[::1], int64)"
std::string describeTypes(const std::vector<types::NumbaType>& types);
// `saxpy(float32, float32[::1], float32[::1])`: a kernel with its parameters' spellings.
std::string describeCall(const std::string& kernel, const std::vector<types::NumbaType>& params);

// The argument types of a launch, packed: one 16-bit code per argument, the first kInline in the
// object (numba-cuda's benchmark of launch cost goes to 256 arguments), any others in `more`.
struct ArgumentSignature {
  static constexpr int kInline = 256;
  int count = 0;
  std::uint16_t codes[kInline]{};
  std::vector<std::uint16_t> more;
  bool operator==(const ArgumentSignature& o) const {
    return count == o.count && std::equal(codes, codes + std::min(count, kInline), o.codes) &&
           more == o.more;
  }
};

// Sizes `s` for `count` arguments (the codes past kInline in `more`).
inline void sizeSignature(ArgumentSignature& s, std::size_t count) {
  s.count = static_cast<int>(count);
  s.more.resize(count > ArgumentSignature::kInline ? count - ArgumentSignature::kInline : 0);
}

// Packs `args` into `out`; false for an argument whose type the code cannot hold (a record, a
// tuple, an enum member, a pointer, an array of records or characters). Allocates only past
// kInline arguments.
bool packSignature(std::span<const KernelArgument> args, ArgumentSignature& out);

// Whether `a` allows the 32-bit index variant (PYK_INDEX32): fewer than 2**31 elements (the
// product of its non-zero extents), so that its size, and the element offset of any item of it or
// of a view of it, fit in 32 bits.
inline constexpr std::int64_t kIndex32Limit = 0x7fffffff; // 2**31 - 1

inline bool arrayFitsIndex32(const AnyDeviceArray& a) {
  std::int64_t elements = 1;
  for (const std::int64_t extent : a.shape())
    if (extent > 0) {
      elements *= extent; // both at most 2**31 here: no overflow before the test
      if (elements > kIndex32Limit)
        return false;
    }
  return true;
}

// What a launch needs from its arguments, found in one pass over them (the launch path's; each
// array's memory read inline, nothing allocated up to ArgumentSignature::kInline arguments).
struct ArgumentScan {
  Backend backend = Backend::Cpu; // where its arrays are (all on one), else the current backend
  bool fitsIndex32 = true; // every array allows the 32-bit index variant (see CudaLauncher.h)
  int arraysDevice = -1;   // the device of every array not in managed memory; -1: none, -2: several
  bool packed = false;     // the signature holds the argument types (packSignature's answer)
  bool hasArrays = false;  // an argument is or holds an array
};
// Throws pyk::Error (InvalidArgument), naming `kernel` and the argument, for an empty
// (default-constructed) array or arrays on two backends.
ArgumentScan scanArguments(const std::string& kernel, std::span<const KernelArgument> args,
                           ArgumentSignature& signature);

} // namespace pyk::detail
