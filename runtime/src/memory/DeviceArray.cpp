// DeviceArray: AnyDeviceArray over the CPU backend's memory (64-byte aligned host allocations,
// large ones in huge pages).
#include <cstdlib>
#include <cstring>
#include <new>

#include <sys/mman.h>

#include "pyk/device_array.hpp"

namespace pyk {

namespace detail {

namespace {
// Buffers from this size up sit in 2 MiB-aligned memory the kernel is asked to back with
// transparent huge pages (as numpy does for large arrays): kernels streaming through them take
// fewer TLB misses (measured on bench/cpu's vector add: 8-10 % on two threads).
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
constexpr std::size_t kHugePageThreshold = std::size_t{4} << 20;

std::size_t alignmentFor(std::size_t bytes) {
  return bytes >= kHugePageThreshold ? kHugePageBytes : 64;
}
} // namespace

struct DeviceBuffer {
  explicit DeviceBuffer(std::size_t bytes)
      : alignment(alignmentFor(bytes)),
        data(::operator new[](bytes == 0 ? 64 : bytes, std::align_val_t(alignment))) {
    if (alignment == kHugePageBytes)
      // Advice only: where transparent huge pages are off, the memory stays in small pages.
      (void)::madvise(data, bytes / kHugePageBytes * kHugePageBytes, MADV_HUGEPAGE);
  }
  ~DeviceBuffer() { ::operator delete[](data, std::align_val_t(alignment)); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  std::size_t alignment;
  void* data;
};
} // namespace detail

AnyDeviceArray AnyDeviceArray::allocate(Dtype dtype, std::vector<std::int64_t> shape) {
  if (shape.empty() || shape.size() > 8)
    throw Error(ErrorKind::InvalidArgument,
                "device arrays have 1 to 8 dimensions, not " + std::to_string(shape.size()));
  std::int64_t count = 1;
  for (std::int64_t extent : shape) {
    if (extent < 0)
      throw Error(ErrorKind::InvalidArgument,
                  "a device array extent is negative (" + std::to_string(extent) + ")");
    if (extent != 0 && count > (std::int64_t{1} << 56) / extent)
      throw Error(ErrorKind::InvalidArgument, "a device array of that shape is too large");
    count *= extent;
  }
  AnyDeviceArray a;
  a.dtype_ = dtype;
  a.shape_ = std::move(shape);
  a.strides_.assign(a.shape_.size(), 0);
  std::int64_t stride = static_cast<std::int64_t>(dtypeItemsize(dtype));
  for (size_t d = a.shape_.size(); d-- > 0;) {
    a.strides_[d] = stride;
    stride *= a.shape_[d];
  }
  a.buffer_ = std::make_shared<detail::DeviceBuffer>(static_cast<std::size_t>(count) *
                                                     dtypeItemsize(dtype));
  a.data_ = a.buffer_->data;
  return a;
}

std::int64_t AnyDeviceArray::size() const {
  std::int64_t n = 1;
  for (std::int64_t e : shape_)
    n *= e;
  return shape_.empty() ? 0 : n;
}

HostArray AnyDeviceArray::copy_to_host() const {
  HostArray host;
  host.dtype = dtype_;
  host.shape = shape_;
  host.bytes.resize(static_cast<std::size_t>(nbytes()));
  copy_to_host(host.bytes.data(), host.bytes.size());
  return host;
}

void AnyDeviceArray::copy_to_host(void* bytes, std::size_t count) const {
  if (count != static_cast<std::size_t>(nbytes()))
    throw Error(ErrorKind::InvalidArgument, "copy_to_host: " + std::to_string(count) +
                                                " bytes asked of an array of " +
                                                std::to_string(nbytes()));
  if (count != 0)
    std::memcpy(bytes, data_, count);
}

void AnyDeviceArray::copy_from_host(const void* bytes, std::size_t count) {
  if (count != static_cast<std::size_t>(nbytes()))
    throw Error(ErrorKind::InvalidArgument, "copy_from_host: " + std::to_string(count) +
                                                " bytes given for an array of " +
                                                std::to_string(nbytes()));
  if (count != 0)
    std::memcpy(data_, bytes, count);
}

void AnyDeviceArray::copy_from_host(const HostArray& host) {
  if (host.dtype != dtype_ || host.shape != shape_)
    throw Error(ErrorKind::InvalidArgument,
                "copy_from_host: the host array's dtype or shape differs from the device array's");
  copy_from_host(host.bytes.data(), host.bytes.size());
}

AnyDeviceArray to_device(const HostArray& host) {
  if (!host.isConsistent())
    throw Error(ErrorKind::InvalidArgument, "to_device: the host array's size does not match "
                                            "its dtype and shape");
  std::vector<std::int64_t> shape = host.shape;
  if (shape.empty())
    shape.push_back(1); // a 0-d array travels as one element
  AnyDeviceArray a = AnyDeviceArray::allocate(host.dtype, shape);
  a.copy_from_host(host.bytes.data(), host.bytes.size());
  return a;
}

} // namespace pyk
