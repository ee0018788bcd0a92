// arrays.h: numba's arrays as kernels receive them: the layouts, pyk::Array (data pointer, shape,
// strides) and Python's index rules (negative indices wrap, for tuples too).
#pragma once

#include "scalar_types.h"

namespace pyk {

// numba's array layouts: C-contiguous ([::1] last), F-contiguous ([::1] first), any (strided).
enum class Layout { C, F, A };

// An array argument as numba passes it: data pointer, shape, strides in bytes. Indexing takes one
// integer per dimension; negative signed indices wrap (a[-1] is the last element), unsigned ones
// do not, as numba's fix_integer_index. Contiguous layouts index from the shape, ignoring strides.
template <typename T, int N, Layout L = Layout::A>
struct Array {
  static constexpr int ndim = N;
  static constexpr Layout layout = L;
  using value_type = T;

  T* data;
  int64 shape[N];
  int64 strides[N]; // bytes

  // a.size. In the CUDA variant the runtime launches when every array argument has fewer than
  // 2**31 elements (PYK_INDEX32, checked at launch) the product is computed in 32 bits, so that
  // a bounds test against it (`if i < a.size`) is a 32-bit compare; so is the element offset of
  // a contiguous argument (element_pointer). The shape, strided offsets and shared and local
  // arrays' offsets stay 64-bit there: narrowing them too cost the tiled matmul 13 to 36
  // instructions (bench/results/sass-2026-11-26-sm90.md).
  PYK_HD int64 size() const {
#ifdef PYK_INDEX32
    int32 count = 1;
    for (int d = 0; d < N; ++d)
      count *= static_cast<int32>(shape[d]);
#else
    int64 count = 1;
    for (int d = 0; d < N; ++d)
      count *= shape[d];
#endif
    return count;
  }

  template <typename... I>
  PYK_HD T* element_pointer(I... indices) const {
    static_assert(sizeof...(I) == N, "one index per dimension");
    int64 index[N] = {static_cast<int64>(indices)...};
    const bool isSigned[N] = {detail::IntTraits<I>::isSigned...};
    for (int d = 0; d < N; ++d)
      if (isSigned[d] && index[d] < 0)
        index[d] += shape[d];
    if constexpr (L == Layout::C || L == Layout::F) {
#if defined(PYK_INDEX32) && defined(__CUDA_ARCH__)
      // An argument's memory (or a view of it): fewer than 2**31 elements, so the offset fits
      // in 32 bits. Not for shared and local arrays, whose constant shapes the compiler already
      // folds into merged loads that a 32-bit offset would lose; the test folds at compile time.
      if (!__isShared(data) && !__isLocal(data)) {
        int32 offset32 = 0;
        for (int k = 0; k < N; ++k) {
          const int d = L == Layout::C ? k : N - 1 - k;
          offset32 = offset32 * static_cast<int32>(shape[d]) + static_cast<int32>(index[d]);
        }
        return data + offset32;
      }
#endif
      int64 offset = 0;
      if constexpr (L == Layout::C)
        for (int d = 0; d < N; ++d)
          offset = offset * shape[d] + index[d];
      else
        for (int d = N - 1; d >= 0; --d)
          offset = offset * shape[d] + index[d];
      return data + offset;
    } else {
      int64 byteOffset = 0;
      for (int d = 0; d < N; ++d)
        byteOffset += index[d] * strides[d];
      return reinterpret_cast<T*>(reinterpret_cast<char*>(data) + byteOffset);
    }
  }

  template <typename... I>
  PYK_HD T& operator()(I... indices) const {
    return *element_pointer(indices...);
  }
};

// A 0-d array (numba's Array(T, 0, L), numpy's np.array(1.0)): one element, no shape or strides;
// the runtime passes only its data pointer. `a[()]` is `a()`.
template <typename T, Layout L>
struct Array<T, 0, L> {
  static constexpr int ndim = 0;
  static constexpr Layout layout = L;
  using value_type = T;

  T* data;

  PYK_HD int64 size() const { return 1; }

  PYK_HD T* element_pointer() const { return data; }

  PYK_HD T& operator()() const { return *data; }
};

// A signed index the compiler proved non-negative (a thread index, a shape, a `range` counter
// from 0...), as an unsigned one: the access skips Python's wrap of negative indices, which keeps
// it affine in the thread index (the CPU backend's loops vectorise) and saves a compare on GPUs.
template <typename T>
PYK_HD uint64 nonneg(T index) {
  return static_cast<uint64>(static_cast<int64>(index));
}

// sum(a, start) of a 1-d array as numba's overload runs it: each item converted to the
// accumulator's type Acc (the type typing found for every partial sum) and added in order.
template <typename Acc, typename T, Layout L>
PYK_HD Acc sum_array(const Array<T, 1, L>& a, Acc acc) {
  for (int64 i = 0; i < a.shape[0]; ++i)
    acc = acc + static_cast<Acc>(a(i));
  return acc;
}

// A negative tuple index counts from the end, as in Python.
PYK_HD inline int64 tuple_index(int64 i, int64 n) {
  return i < 0 ? i + n : i;
}

} // namespace pyk
