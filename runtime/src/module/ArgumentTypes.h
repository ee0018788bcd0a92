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

// The argument types of a launch, packed. Launches with more arguments than it holds take the
// slower, string-keyed path.
struct ArgumentSignature {
  static constexpr int kMaxArguments = 32;
  int count = 0;
  std::uint16_t codes[kMaxArguments]{};
  bool operator==(const ArgumentSignature& o) const {
    return count == o.count && std::equal(codes, codes + count, o.codes);
  }
};

// Packs `args` into `out`; false when there are too many to pack, or an array of records (whose
// layout the code cannot hold). Allocates nothing.
bool packSignature(std::span<const KernelArgument> args, ArgumentSignature& out);

} // namespace pyk::detail
