// LaunchArguments: the pyk::Array slot layout, written once for both backends.
#include "module/LaunchArguments.h"

#include <cstring>

#include "module/ScalarConversion.h"

namespace pyk::detail {

LaunchArguments::LaunchArguments(std::size_t count) {
  if (count > kInline) {
    heapSlots_.resize(count);
    heapPointers_.resize(count);
    slots_ = heapSlots_.data();
    pointers_ = heapPointers_.data();
  }
}

void LaunchArguments::set(std::size_t i, const KernelArgument& argument,
                          const sema::NumbaType& param) {
  unsigned char* out = slots_[i].bytes;
  if (param.isArray()) {
    const AnyDeviceArray& a = *argument.array;
    void* data = a.device_data();
    std::memcpy(out, &data, sizeof data);
    const auto n = static_cast<std::size_t>(a.ndim());
    std::memcpy(out + 8, a.shape().data(), 8 * n);
    std::memcpy(out + 8 + 8 * n, a.strides().data(), 8 * n);
  } else {
    convertScalar(argument, param.scalarKind(), out);
  }
  pointers_[i] = out;
}

} // namespace pyk::detail
