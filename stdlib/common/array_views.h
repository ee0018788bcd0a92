// array_views.h: new views of an array's data: another layout parameter, a complex array's
// parts, the transpose, a slice (Python's slice.indices), another item type (`a.view(T)`), a
// gufunc's core view a[i].
#pragma once

#include "arrays.h"
#include "complex.h"

namespace pyk {

// `out` takes `a`'s shape and strides (a 0-d array has neither).
template <typename Out, typename In>
PYK_HD void copy_dims(Out& out, const In& a) {
  if constexpr (In::ndim > 0)
    for (int d = 0; d < In::ndim; ++d) {
      out.shape[d] = a.shape[d];
      out.strides[d] = a.strides[d];
    }
}

// The same array seen with another layout parameter (a C or F array is also an A array: numba
// unifies such variables to A). Shape and strides are kept; strides are always filled in.
template <Layout To, typename T, int N, Layout From>
PYK_HD Array<T, N, To> as_layout(const Array<T, N, From>& a) {
  Array<T, N, To> out{};
  out.data = a.data;
  copy_dims(out, a);
  return out;
}

// `a.real`, `a.imag` of a complex array: every element's real (part 0) or imaginary (part 1)
// float, a strided view of the same memory, as numba's array_complex_attr makes it.
template <typename F, int N, Layout L>
PYK_HD Array<F, N, Layout::A> complex_part(const Array<Complex<F>, N, L>& a, int part) {
  Array<F, N, Layout::A> out{};
  out.data = reinterpret_cast<F*>(a.data) + part;
  copy_dims(out, a);
  return out;
}

// `a.T`: the dimensions reversed (shape and strides); a C array becomes an F array and back.
template <Layout To, typename T, int N, Layout From>
PYK_HD Array<T, N, To> transpose(const Array<T, N, From>& a) {
  Array<T, N, To> out{};
  out.data = a.data;
  if constexpr (N > 0)
    for (int d = 0; d < N; ++d) {
      out.shape[d] = a.shape[N - 1 - d];
      out.strides[d] = a.strides[N - 1 - d];
    }
  return out;
}

// Python's slice.indices(length) for a[start:stop:step], as numba slices arrays: missing parts
// default by the step's sign, negative ones count from the end, all clamp to the array. A zero
// step is a ValueError in numba (only observable with debug=True); here it gives an empty view.
struct SliceRange {
  int64 start;
  int64 length;
  int64 step;
};
PYK_HD inline SliceRange slice_range(int64 length, bool hasStart, int64 start, bool hasStop,
                                     int64 stop, bool hasStep, int64 step) {
  if (!hasStep)
    step = 1;
  if (step == 0)
    return {0, 0, 1};
  const int64 lower = step < 0 ? -1 : 0;
  const int64 upper = step < 0 ? length - 1 : length;
  auto clamp = [&](int64 v) {
    if (v < 0) {
      v += length;
      return v < lower ? lower : v;
    }
    return v > upper ? upper : v;
  };
  start = hasStart ? clamp(start) : (step < 0 ? upper : lower);
  stop = hasStop ? clamp(stop) : (step < 0 ? lower : upper);
  int64 count = 0;
  if (step > 0 && start < stop)
    count = (stop - start + step - 1) / step;
  else if (step < 0 && stop < start)
    count = (start - stop - step - 1) / (-step);
  return {start, count, step};
}

// `a.view(To)`: the same bytes seen as items of another type, as numba computes it (numpy 1.23's
// rules): with another item size the last dimension (the first, for an F array) is rescaled and
// its stride becomes the new item size; that dimension must be contiguous, and its bytes a whole
// number of new items (a smaller item a divisor of the old). `ok` is false where numpy raises
// "new type not compatible with array"; the view is then empty.
template <typename To, Layout Out, typename T, int N, Layout L>
PYK_HD Array<To, N, Out> view_as(const Array<T, N, L>& a, bool& ok) {
  Array<To, N, Out> out{};
  out.data = reinterpret_cast<To*>(a.data);
  copy_dims(out, a);
  ok = true;
  constexpr int64 oldSize = sizeof(T), newSize = sizeof(To);
  if constexpr (oldSize != newSize && N == 0) {
    ok = false; // numpy changes a 0-d array's dtype only to one of the same item size
  } else if constexpr (oldSize != newSize) {
    // numpy 1.23: only the last axis changes, and it must be contiguous.
    if (a.shape[N - 1] != 1 && a.size() != 0 && a.strides[N - 1] != oldSize)
      ok = false;
    if (newSize < oldSize && oldSize % newSize != 0)
      ok = false;
    if (newSize > oldSize && (a.shape[N - 1] * oldSize) % newSize != 0)
      ok = false;
    // numba's _change_dtype: which end of the array changes (an A array by its strides).
    Layout layout = L;
    if (layout == Layout::A) {
      if (a.strides[N - 1] == oldSize)
        layout = Layout::C;
      else if (a.strides[0] == oldSize)
        layout = Layout::F;
      else
        ok = false;
    }
    const int i = layout == Layout::C ? N - 1 : 0;
    if (newSize < oldSize) {
      if (oldSize % newSize != 0)
        ok = false;
      out.shape[i] = a.shape[i] * (oldSize / newSize);
    } else {
      const int64 bytes = a.shape[i] * oldSize;
      if (bytes % newSize != 0)
        ok = false;
      out.shape[i] = bytes / newSize;
    }
    out.strides[i] = newSize;
    if (!ok)
      for (int d = 0; d < N; ++d)
        out.shape[d] = 0;
  }
  return out;
}

// a[i] of an N-dimensional array as an (N-1)-dimensional strided view: the core arguments a
// gufunc kernel hands its function, one loop index per thread.
template <typename T, int N, Layout L>
PYK_HD Array<T, N - 1, Layout::A> first_index_view(const Array<T, N, L>& a, int64 i) {
  Array<T, N - 1, Layout::A> out{};
  out.data = reinterpret_cast<T*>(reinterpret_cast<char*>(a.data) + i * a.strides[0]);
  if constexpr (N > 1)
    for (int d = 1; d < N; ++d) {
      out.shape[d - 1] = a.shape[d];
      out.strides[d - 1] = a.strides[d];
    }
  return out;
}

// `a.reshape(shape)` of a C- or F-contiguous array (numba's array_reshape): the same items seen
// with N dimensions, one of them -1 (inferred); the view is contiguous in the array's own order.
// `ok` is false where numba raises ValueError (the sizes differ, a negative extent, two -1s); the
// view is then empty.
template <int N, Layout Out, typename T, int M, Layout L>
PYK_HD Array<T, N, Out> reshape(const Array<T, M, L>& a, const int64 (&shape)[N], bool& ok) {
  static_assert(L != Layout::A && Out == L, "numba reshapes contiguous arrays, keeping the order");
  Array<T, N, Out> out{a.data, {}, {}};
  const int64 total = a.size();
  int64 known = 1;
  int inferred = -1;
  ok = true;
  for (int d = 0; d < N; ++d) {
    out.shape[d] = shape[d];
    if (shape[d] == -1 && inferred < 0)
      inferred = d;
    else if (shape[d] < 0)
      ok = false;
    else
      known *= shape[d];
  }
  if (ok && inferred >= 0) {
    if (known == 0 || total % known != 0)
      ok = false;
    else
      out.shape[inferred] = total / known;
  } else if (ok && known != total) {
    ok = false;
  }
  if (!ok)
    for (int d = 0; d < N; ++d)
      out.shape[d] = 0;
  int64 stride = sizeof(T);
  for (int k = 0; k < N; ++k) {
    const int d = Out == Layout::C ? N - 1 - k : k;
    out.strides[d] = stride;
    stride *= out.shape[d];
  }
  return out;
}

} // namespace pyk
