// array_assignment.h: assignment to a view of an array (`a[1:3] = x`, `a[:] = b`, `m[i] = row`),
// as numba's setitem lowers it: a scalar into every item, or an array broadcast onto the view by
// numpy's rules (missing leading dimensions, extents of 1), each item converted.
#pragma once

#include "arrays.h"

namespace pyk {

namespace detail {
// Calls f(index) for every index of `shape` in C order (nothing when an extent is 0).
template <int N, typename F>
PYK_HD void for_each_index(const int64 (&shape)[N], F&& f) {
  for (int d = 0; d < N; ++d)
    if (shape[d] <= 0)
      return;
  int64 index[N] = {};
  while (true) {
    f(index);
    int d = N - 1;
    for (; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

template <typename T, int N, Layout L>
PYK_HD T* item_at(const Array<T, N, L>& a, const int64 (&index)[N]) {
  int64 offset = 0;
  for (int d = 0; d < N; ++d)
    offset += index[d] * a.strides[d];
  return reinterpret_cast<T*>(reinterpret_cast<char*>(a.data) + offset);
}

// The bytes [first, last) an array's items span.
template <typename T, int N, Layout L>
PYK_HD void extent_of(const Array<T, N, L>& a, const char*& first, const char*& last) {
  first = last = reinterpret_cast<const char*>(a.data);
  for (int d = 0; d < N; ++d) {
    if (a.shape[d] == 0) {
      last = first;
      return;
    }
    const int64 reach = (a.shape[d] - 1) * a.strides[d];
    if (reach < 0)
      first += reach;
    else
      last += reach;
  }
  last += sizeof(T);
}
} // namespace detail

// `view[...] = value`: every item of the view.
template <typename T, int N, Layout L, typename V>
PYK_HD void fill_items(const Array<T, N, L>& view, V value) {
  detail::for_each_index(
      view.shape, [&](const int64(&i)[N]) { *detail::item_at(view, i) = static_cast<T>(value); });
}

// What assign_items found: the assignment done, shapes that do not broadcast (numba's
// ValueError), or memory the source and the view share (numba copies the source to a temporary
// first; kernels cannot allocate one).
enum class AssignResult { Done, ShapeMismatch, Overlap };

// `view[...] = source`, the source broadcast onto the view: its dimensions align with the view's
// last ones, each of its extents equal to the view's or 1.
template <typename T, int N, Layout L, typename S, int M, Layout LS>
PYK_HD AssignResult assign_items(const Array<T, N, L>& view, const Array<S, M, LS>& source) {
  static_assert(M <= N, "typing allows a source of at most the view's rank");
  for (int d = 0; d < M; ++d) {
    const int64 extent = source.shape[d];
    if (extent != 1 && extent != view.shape[N - M + d])
      return AssignResult::ShapeMismatch;
  }
  const char *viewFirst, *viewLast, *sourceFirst, *sourceLast;
  detail::extent_of(view, viewFirst, viewLast);
  detail::extent_of(source, sourceFirst, sourceLast);
  if (viewFirst < viewLast && sourceFirst < sourceLast && viewFirst < sourceLast &&
      sourceFirst < viewLast) {
    // Sharing memory is harmless only when each item is read from where it is written.
    bool same =
        reinterpret_cast<const void*>(view.data) == reinterpret_cast<const void*>(source.data) &&
        M == N && sizeof(S) == sizeof(T);
    for (int d = 0; same && d < M; ++d)
      same = source.shape[d] == view.shape[d] && source.strides[d] == view.strides[d];
    if (!same)
      return AssignResult::Overlap;
  }
  detail::for_each_index(view.shape, [&](const int64(&i)[N]) {
    int64 from[M > 0 ? M : 1] = {};
    for (int d = 0; d < M; ++d)
      from[d] = source.shape[d] == 1 ? 0 : i[N - M + d];
    int64 offset = 0;
    for (int d = 0; d < M; ++d)
      offset += from[d] * source.strides[d];
    const S value =
        *reinterpret_cast<const S*>(reinterpret_cast<const char*>(source.data) + offset);
    *detail::item_at(view, i) = static_cast<T>(value);
  });
  return AssignResult::Done;
}

} // namespace pyk
