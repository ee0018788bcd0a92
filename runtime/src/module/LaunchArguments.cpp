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
    writeArrayParameter(*a.array, out);
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

struct LaunchArguments::Storage {
  std::vector<Slot> slots;
  std::vector<void*> pointers;
  bool inUse = false;
};

// The calling thread's storage for launches of many arguments, kept from one to the next (it
// grows to the most arguments a launch had; a launch of as many allocates nothing).
LaunchArguments::Storage& LaunchArguments::threadStorage() {
  static thread_local Storage storage;
  return storage;
}

LaunchArguments::LaunchArguments(std::size_t count) {
  if (count <= kInline)
    return;
  Storage& kept = threadStorage();
  if (kept.inUse)
    owned_ = std::make_unique<Storage>();
  storage_ = owned_ != nullptr ? owned_.get() : &kept;
  storage_->inUse = true;
  if (storage_->slots.size() < count) {
    storage_->slots.resize(count);
    storage_->pointers.resize(count);
  }
  next_ = storage_->slots.data()[0].bytes;
  pointers_ = storage_->pointers.data();
}

LaunchArguments::~LaunchArguments() {
  if (storage_ != nullptr)
    storage_->inUse = false;
}

void LaunchArguments::set(std::size_t i, const KernelArgument& argument,
                          const types::NumbaType& param) {
  unsigned char* out = next_;
  next_ += sizeof(Slot);
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
