// LaunchArguments: the pyk::Array slot layout, written once for both backends.
#include "module/LaunchArguments.h"

#include <cstring>

#include "base/ParameterLayout.h"
#include "module/ScalarConversion.h"

namespace pyk::detail {

namespace {

// Argument `a` for a parameter of type `param`, written at `out` as the entry point reads it.
void writeArgument(const KernelArgument& a, const types::NumbaType& param, unsigned char* out) {
  if (param.isArray()) {
    const AnyDeviceArray& array = *a.array;
    void* data = array.device_data();
    std::memcpy(out, &data, sizeof data);
    const auto n = static_cast<std::size_t>(array.ndim());
    if (n > 0) { // a 0-d array is its pointer alone (and its empty shape may have no storage)
      std::memcpy(out + 8, array.shape().data(), 8 * n);
      std::memcpy(out + 8 + 8 * n, array.strides().data(), 8 * n);
    }
  } else if (param.isRecord() || param.isPointer()) {
    void* data = a.array->device_data(); // the record where it lies; a CPointer's first item
    std::memcpy(out, &data, sizeof data);
  } else if (param.isTuple()) {
    const types::ParameterLayout layout = types::parameterLayout(param);
    for (std::size_t i = 0; i < param.elements().size(); ++i)
      writeArgument(a.tuple->elements[i], param.elements()[i], out + layout.elementOffsets[i]);
  } else if (param.isEnumMember() && param.enumValue().isTuple()) {
    KernelArgument value = a; // its tuple value
    value.kind = KernelArgument::Kind::Tuple;
    writeArgument(value, param.enumValue(), out);
  } else if (param.isEnumMember()) {
    convertScalar(a, param.enumValue().scalarKind(), out); // its value
  } else {
    convertScalar(a, param.scalarKind(), out);
  }
}

} // namespace

LaunchArguments::LaunchArguments(std::size_t count) {
  if (count > kInline) {
    heapSlots_.resize(count);
    heapPointers_.resize(count);
    slots_ = heapSlots_.data();
    pointers_ = heapPointers_.data();
  }
}

void LaunchArguments::set(std::size_t i, const KernelArgument& argument,
                          const types::NumbaType& param) {
  unsigned char* out = slots_[i].bytes;
  if (param.isTuple() || (param.isEnumMember() && param.enumValue().isTuple())) {
    // A tuple larger than a slot (several arrays, say) gets storage of its own.
    const types::ParameterLayout layout = types::parameterLayout(param);
    if (layout.size > static_cast<std::int64_t>(sizeof(Slot))) {
      large_.push_back(
          std::make_unique<Slot[]>(static_cast<std::size_t>(layout.size) / sizeof(Slot) + 1));
      out = large_.back()[0].bytes;
    }
    std::memset(out, 0, static_cast<std::size_t>(layout.size));
  }
  writeArgument(argument, param, out);
  pointers_[i] = out;
}

} // namespace pyk::detail
