// Broadcasting: numpy's broadcasting of operand shapes, and the strided views a (g)ufunc call
// hands its kernel.
#include "module/Broadcasting.h"

#include <algorithm>

#include "memory/ArrayAccess.h"
#include "pyk/error.hpp"

namespace pyk::detail {

std::string describeShape(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::vector<std::int64_t> broadcastShape(const std::vector<std::vector<std::int64_t>>& shapes,
                                         const std::string& what) {
  size_t rank = 0;
  for (const auto& s : shapes)
    rank = std::max(rank, s.size());
  std::vector<std::int64_t> out(rank, 1);
  for (const auto& s : shapes)
    for (size_t i = 0; i < s.size(); ++i) {
      std::int64_t& o = out[rank - s.size() + i];
      const std::int64_t e = s[i];
      if (e == o || e == 1)
        continue;
      if (o == 1) {
        o = e;
        continue;
      }
      std::string all;
      for (const auto& t : shapes)
        all += (all.empty() ? "" : " ") + describeShape(t);
      throw Error(ErrorKind::InvalidArgument,
                  what + ": operands could not be broadcast together with shapes " + all);
    }
  return out;
}

AnyDeviceArray broadcastTo(const AnyDeviceArray& a, const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> strides(shape.size(), 0);
  const size_t offset = shape.size() - static_cast<size_t>(a.ndim());
  for (int d = 0; d < a.ndim(); ++d)
    strides[offset + d] = a.shape()[d] == shape[offset + d] ? a.strides()[d] : 0;
  return ArrayAccess::restride(a, shape, strides);
}

std::optional<std::int64_t> collapsedStride(const AnyDeviceArray& a, int first, int count) {
  std::optional<std::int64_t> stride;
  std::int64_t inner = 0; // the elements one step of the previous (outer) dimension covers
  for (int d = first + count - 1; d >= first; --d) {
    const std::int64_t e = a.shape()[d];
    if (e == 1)
      continue;
    if (!stride) {
      stride = a.strides()[d];
      inner = e;
      continue;
    }
    if (a.strides()[d] != *stride * inner)
      return std::nullopt;
    inner *= e;
  }
  return stride.value_or(static_cast<std::int64_t>(a.itemsize()));
}

} // namespace pyk::detail
