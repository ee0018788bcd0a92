// bounds_check.h: array accesses that check every index (PYK_BOUNDSCHECK=1) and stop the kernel
// with a message naming the array, the index and the thread.
#pragma once

#include "../common/arrays.h"
#include "thread_context.h"

#include <cstdio>

namespace pyk::cpu {

// An array access that checks each index (after Python's wrap of negative signed ones) against
// the extent, and stops the kernel with a message naming the array, the index and the thread.
template <typename T, int N, Layout L>
struct CheckedArray {
  const Array<T, N, L>& array;
  Context& context;
  const char* name;
  const char* where;

  template <typename... I>
  T& operator()(I... indices) const {
    const int64 index[N] = {static_cast<int64>(indices)...};
    const bool isSigned[N] = {detail::IntTraits<I>::isSigned...};
    for (int d = 0; d < N; ++d) {
      const int64 wrapped = isSigned[d] && index[d] < 0 ? index[d] + array.shape[d] : index[d];
      const bool negative = !isSigned[d] ? false : wrapped < 0;
      if (negative || static_cast<uint64>(wrapped) >= static_cast<uint64>(array.shape[d])) {
        char message[400];
        const Context& c = context;
        std::snprintf(message, sizeof message,
                      "%s: index %lld is out of bounds for axis %d of `%s` with size %lld "
                      "(thread (%u, %u, %u) of block (%u, %u, %u))",
                      where, static_cast<long long>(index[d]), d, name,
                      static_cast<long long>(array.shape[d]), c.threadIdx.x, c.threadIdx.y,
                      c.threadIdx.z, c.blockIdx.x, c.blockIdx.y, c.blockIdx.z);
        trapWith(context, message);
      }
    }
    return array(indices...);
  }
};
template <typename T, int N, Layout L>
CheckedArray<T, N, L> checked(Context& c, const char* name, const char* where,
                              const Array<T, N, L>& array) {
  return {array, c, name, where};
}

} // namespace pyk::cpu
