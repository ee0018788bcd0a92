// HostArray: an array in host memory, in C order and native byte order.
#include "pyk/npy.hpp"

namespace pyk {

std::int64_t HostArray::elementCount() const {
  std::int64_t count = 1;
  for (std::int64_t extent : shape)
    if (extent < 0 || __builtin_mul_overflow(count, extent, &count))
      return -1;
  return count;
}

bool HostArray::isConsistent() const {
  std::int64_t bytesNeeded = static_cast<std::int64_t>(dtypeItemsize(dtype));
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

} // namespace pyk
