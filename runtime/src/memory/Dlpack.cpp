// Dlpack: DLManagedTensor <-> AnyDeviceArray, sharing memory. An imported tensor's deleter runs
// with the last reference to its memory; an exported tensor owns its shape and strides arrays
// and a reference that keeps the array's memory alive.
#include "pyk/dlpack.hpp"

#include <memory>

#include "memory/ArrayAccess.h"
#include "memory/DeviceBuffer.h"
#include "pyk/error.hpp"

namespace pyk {

namespace {

// DLPack 0.8 on names booleans kDLBool (6); the 0.6 header Debian ships does not.
constexpr std::uint8_t kDLBoolCode = 6;

Dtype dtypeFromDlpack(DLDataType t) {
  if (t.lanes != 1)
    throw Error(ErrorKind::InvalidArgument, "from_dlpack: vector types (" +
                                                std::to_string(t.lanes) +
                                                " lanes) have no pyk dtype");
  const unsigned bits = t.bits;
  switch (t.code) {
  case kDLInt:
    if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
      return bits == 8    ? Dtype::Int8
             : bits == 16 ? Dtype::Int16
             : bits == 32 ? Dtype::Int32
                          : Dtype::Int64;
    break;
  case kDLUInt:
    if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
      return bits == 8    ? Dtype::UInt8
             : bits == 16 ? Dtype::UInt16
             : bits == 32 ? Dtype::UInt32
                          : Dtype::UInt64;
    break;
  case kDLFloat:
    if (bits == 16 || bits == 32 || bits == 64)
      return bits == 16 ? Dtype::Float16 : bits == 32 ? Dtype::Float32 : Dtype::Float64;
    break;
  case kDLComplex:
    if (bits == 64 || bits == 128)
      return bits == 64 ? Dtype::Complex64 : Dtype::Complex128;
    break;
  case kDLBoolCode:
    if (bits == 8)
      return Dtype::Bool;
    break;
  default:
    break;
  }
  throw Error(ErrorKind::InvalidArgument, "from_dlpack: DLPack type code " +
                                              std::to_string(t.code) + " of " +
                                              std::to_string(bits) + " bits has no pyk dtype");
}

DLDataType dtypeToDlpack(Dtype d) {
  const auto bits = static_cast<std::uint8_t>(dtype_itemsize(d) * 8);
  switch (d) {
  case Dtype::Bool:
    return {kDLBoolCode, 8, 1};
  case Dtype::Int8:
  case Dtype::Int16:
  case Dtype::Int32:
  case Dtype::Int64:
    return {kDLInt, bits, 1};
  case Dtype::UInt8:
  case Dtype::UInt16:
  case Dtype::UInt32:
  case Dtype::UInt64:
    return {kDLUInt, bits, 1};
  case Dtype::Float16:
  case Dtype::Float32:
  case Dtype::Float64:
    return {kDLFloat, bits, 1};
  case Dtype::Complex64:
  case Dtype::Complex128:
    return {kDLComplex, bits, 1};
  case Dtype::Record:
    throw Error(ErrorKind::InvalidArgument,
                "to_dlpack: DLPack has no structured dtypes; an array of records cannot be shared");
  default: // datetime64, timedelta64: numpy refuses to export them too
    throw Error(ErrorKind::InvalidArgument, "to_dlpack: DLPack has no " +
                                                std::string(dtype_name(d)) +
                                                " dtype; view the array as int64 to share it");
  }
}

// What an exported tensor owns.
struct Exported {
  DLManagedTensor tensor{};
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides; // elements
  std::shared_ptr<void> memory;
};

} // namespace

AnyDeviceArray from_dlpack(DLManagedTensor* tensor) {
  if (tensor == nullptr)
    throw Error(ErrorKind::InvalidArgument, "from_dlpack: a null tensor");
  // From here the tensor is ours: its deleter runs when nothing views its memory any more.
  std::shared_ptr<void> owner(tensor, [](void* p) {
    auto* t = static_cast<DLManagedTensor*>(p);
    if (t->deleter != nullptr)
      t->deleter(t);
  });
  const DLTensor& t = tensor->dl_tensor;
  if (t.ndim < 0 || t.ndim > 8)
    throw Error(ErrorKind::InvalidArgument, "from_dlpack: tensors of " + std::to_string(t.ndim) +
                                                " dimensions (pyk arrays have 0 to 8)");
  const Dtype dtype = dtypeFromDlpack(t.dtype);
  const std::size_t item = dtype_itemsize(dtype);
  if (t.byte_offset % item != 0)
    throw Error(ErrorKind::InvalidArgument, "from_dlpack: a byte offset of " +
                                                std::to_string(t.byte_offset) +
                                                " is not a multiple of the element size");
  std::vector<std::int64_t> shape(t.shape, t.shape + t.ndim);
  std::vector<std::int64_t> strides;
  if (t.strides != nullptr)
    for (int d = 0; d < t.ndim; ++d)
      strides.push_back(t.strides[d] * static_cast<std::int64_t>(item));
  void* data = static_cast<char*>(t.data) + t.byte_offset;
  switch (t.device.device_type) {
  case kDLCPU:
  case kDLCUDAHost:
    return detail::ArrayAccess::wrap(Backend::Cpu, -1, data, dtype, std::move(shape),
                                     std::move(strides), std::move(owner), "from_dlpack");
  case kDLCUDA:
  case kDLCUDAManaged:
    if (const std::string why = cuda_unavailable(); !why.empty())
      throw Error(ErrorKind::Device, "from_dlpack: a CUDA tensor, but " + why);
    return detail::ArrayAccess::wrap(Backend::Cuda, t.device.device_id, data, dtype,
                                     std::move(shape), std::move(strides), std::move(owner),
                                     "from_dlpack");
  default:
    throw Error(ErrorKind::InvalidArgument,
                "from_dlpack: tensors on DLPack device type " +
                    std::to_string(static_cast<int>(t.device.device_type)) +
                    " (pyk takes CPU and CUDA tensors)");
  }
}

DLManagedTensor* to_dlpack(const AnyDeviceArray& array) {
  if (array.empty())
    throw Error(ErrorKind::InvalidArgument, "to_dlpack: an empty (default-constructed) array");
  auto exported = std::make_unique<Exported>();
  exported->shape = array.shape();
  const auto item = static_cast<std::int64_t>(array.itemsize());
  for (std::int64_t s : array.strides()) {
    if (s % item != 0)
      throw Error(ErrorKind::InvalidArgument,
                  "to_dlpack: a stride of " + std::to_string(s) +
                      " bytes is not a whole number of elements, which DLPack cannot express");
    exported->strides.push_back(s / item);
  }
  exported->memory = detail::ArrayAccess::keepAlive(array);
  const detail::DeviceBuffer* buffer = detail::ArrayAccess::buffer(array);
  DLTensor& t = exported->tensor.dl_tensor;
  t.data = array.device_data();
  t.byte_offset = 0;
  t.ndim = array.ndim();
  t.dtype = dtypeToDlpack(array.dtype());
  t.shape = exported->shape.data();
  t.strides = exported->strides.data();
  if (buffer->backend == Backend::Cpu)
    t.device = {kDLCPU, 0};
  else
    t.device = {array.memory_kind() == MemoryKind::Managed ? kDLCUDAManaged : kDLCUDA,
                array.device_id()};
  exported->tensor.manager_ctx = exported.get();
  exported->tensor.deleter = [](DLManagedTensor* self) {
    delete static_cast<Exported*>(self->manager_ctx);
  };
  return &exported.release()->tensor;
}

} // namespace pyk
