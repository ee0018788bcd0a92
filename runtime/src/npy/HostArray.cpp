// HostArray: an array in host memory, in C order and native byte order.
#include "pyk/npy.hpp"

namespace pyk {

std::size_t HostArray::itemsize() const {
  if (is_character_dtype(dtype))
    return character_itemsize(dtype, chars);
  return record != nullptr ? static_cast<std::size_t>(record->itemsize()) : dtype_itemsize(dtype);
}

std::int64_t HostArray::element_count() const {
  std::int64_t count = 1;
  for (std::int64_t extent : shape)
    if (extent < 0 || __builtin_mul_overflow(count, extent, &count))
      return -1;
  return count;
}

bool HostArray::is_consistent() const {
  if ((dtype == Dtype::Record) != (record != nullptr) || is_character_dtype(dtype) != (chars > 0) ||
      chars < 0)
    return false;
  std::int64_t bytesNeeded = static_cast<std::int64_t>(itemsize());
  bool empty = false;
  for (std::int64_t extent : shape) {
    if (extent < 0)
      return false;
    if (extent == 0)
      empty = true;
    else if (__builtin_mul_overflow(bytesNeeded, extent, &bytesNeeded))
      return false;
  }
  return bytes.size() == (empty ? 0 : static_cast<std::uint64_t>(bytesNeeded));
}

bool HostArray::operator==(const HostArray& other) const {
  const bool sameRecord = record == nullptr || other.record == nullptr ? record == other.record
                                                                       : *record == *other.record;
  return dtype == other.dtype && sameRecord && chars == other.chars && shape == other.shape &&
         bytes == other.bytes;
}

} // namespace pyk
