// DeviceArray: AnyDeviceArray over DeviceBuffer: allocation on the current backend, views that
// share a buffer, and copies (contiguous ones as one transfer; a strided view's through a host
// copy of the span of memory it covers).
#include <algorithm>
#include <cstring>
#include <new>

#include "cuda/CudaContext.h"
#include "memory/ArrayAccess.h"
#include "memory/DeviceBuffer.h"
#include "module/GraphState.h"
#include "module/StreamState.h"
#include "pyk/device_array.hpp"

namespace pyk {

namespace {

// A copy queued on a stream that is being captured (pyk/graph.hpp): recorded in the graph, which
// keeps the arrays alive. True when it must not be done now (the CPU backend replays it); on CUDA
// the driver captures the copy that follows.
bool capturedCopy(const Stream& stream, void* to, const void* from, std::size_t bytes,
                  const AnyDeviceArray& array, const AnyDeviceArray* other = nullptr) {
  detail::GraphState* graph = detail::capturingGraph(stream);
  if (graph == nullptr)
    return false;
  if (graph->backend != array.backend())
    throw Error(ErrorKind::InvalidArgument,
                std::string("a copy of an array of the ") + backend_name(array.backend()) +
                    " backend queued on a stream of the " + backend_name(graph->backend) +
                    " backend that is being captured");
  detail::recordCopy(*graph, to, from, bytes, array, other);
  return graph->backend == Backend::Cpu;
}

std::int64_t checkedCount(const std::vector<std::int64_t>& shape) {
  if (shape.size() > 8) // an empty shape is a 0-d array: one element
    throw Error(ErrorKind::InvalidArgument,
                "device arrays have 0 to 8 dimensions, not " + std::to_string(shape.size()));
  std::int64_t count = 1;
  for (std::int64_t extent : shape) {
    if (extent < 0)
      throw Error(ErrorKind::InvalidArgument,
                  "a device array extent is negative (" + std::to_string(extent) + ")");
    if (extent != 0 && count > (std::int64_t{1} << 56) / extent)
      throw Error(ErrorKind::InvalidArgument, "a device array of that shape is too large");
    count *= extent;
  }
  return count;
}

std::vector<std::int64_t> cStrides(const std::vector<std::int64_t>& shape, std::size_t itemsize) {
  std::vector<std::int64_t> strides(shape.size(), 0);
  std::int64_t stride = static_cast<std::int64_t>(itemsize);
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

// The byte range [low, high) relative to the first element that the array's elements cover.
struct Span {
  std::int64_t low = 0;
  std::int64_t high = 0;
};
Span spanOf(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
            std::size_t itemsize) {
  Span s{0, static_cast<std::int64_t>(itemsize)};
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0)
      return {0, 0};
    const std::int64_t reach = (shape[d] - 1) * strides[d];
    (reach < 0 ? s.low : s.high) += reach;
  }
  return s;
}

// Calls f(byte offset of the element from the first) for every element, in C order.
template <typename F>
void forEachElement(const std::vector<std::int64_t>& shape,
                    const std::vector<std::int64_t>& strides, F&& f) {
  const int n = static_cast<int>(shape.size());
  for (std::int64_t e : shape)
    if (e == 0)
      return;
  std::vector<std::int64_t> index(shape.size(), 0);
  std::int64_t offset = 0;
  while (true) {
    f(offset);
    int d = n - 1;
    for (; d >= 0; --d) {
      if (++index[d] < shape[d]) {
        offset += strides[d];
        break;
      }
      offset -= (shape[d] - 1) * strides[d];
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

std::int64_t normalizedIndex(std::int64_t i, std::int64_t extent, const char* what) {
  const std::int64_t j = i < 0 ? i + extent : i;
  if (j < 0 || j >= extent)
    throw Error(ErrorKind::InvalidArgument, std::string(what) + ": index " + std::to_string(i) +
                                                " is out of bounds for an extent of " +
                                                std::to_string(extent));
  return j;
}

} // namespace

AnyDeviceArray AnyDeviceArray::allocate(Dtype dtype, std::vector<std::int64_t> shape) {
  return detail::ArrayAccess::allocate(current_backend(), dtype, std::move(shape));
}

AnyDeviceArray AnyDeviceArray::allocate(const RecordDtype& record,
                                        std::vector<std::int64_t> shape) {
  return detail::ArrayAccess::allocate(current_backend(), Dtype::Record, std::move(shape),
                                       std::make_shared<const RecordDtype>(record));
}

AnyDeviceArray detail::ArrayAccess::allocate(Backend backend, Dtype dtype,
                                             std::vector<std::int64_t> shape,
                                             std::shared_ptr<const RecordDtype> record,
                                             std::int64_t chars) {
  if ((dtype == Dtype::Record) != (record != nullptr))
    throw Error(ErrorKind::InvalidArgument,
                dtype == Dtype::Record ? "an array of records needs the record's fields (allocate "
                                         "it with a RecordDtype)"
                                       : "a record layout was given for a scalar dtype");
  if (is_character_dtype(dtype) != (chars > 0))
    throw Error(ErrorKind::InvalidArgument,
                is_character_dtype(dtype)
                    ? "an array of " + std::string(dtype_name(dtype)) +
                          " items needs their length (make it from a HostArray with to_device)"
                    : "a character length was given for another dtype");
  const std::int64_t count = checkedCount(shape);
  const std::size_t itemsize = record != nullptr ? static_cast<std::size_t>(record->itemsize())
                               : is_character_dtype(dtype) ? character_itemsize(dtype, chars)
                                                           : dtype_itemsize(dtype);
  AnyDeviceArray a;
  a.dtype_ = dtype;
  a.record_ = std::move(record);
  a.chars_ = chars;
  a.strides_ = cStrides(shape, itemsize);
  a.shape_ = std::move(shape);
  a.adopt(detail::DeviceBuffer::allocate(backend, MemoryKind::Device,
                                         static_cast<std::size_t>(count) * itemsize));
  a.data_ = a.buffer_->data;
  return a;
}

AnyDeviceArray AnyDeviceArray::allocate_managed(Dtype dtype, std::vector<std::int64_t> shape) {
  if (dtype == Dtype::Record || is_character_dtype(dtype))
    throw Error(ErrorKind::InvalidArgument, "allocate_managed: records and character items are "
                                            "not supported in managed arrays yet");
  const std::int64_t count = checkedCount(shape);
  AnyDeviceArray a;
  a.dtype_ = dtype;
  a.strides_ = cStrides(shape, dtype_itemsize(dtype));
  a.shape_ = std::move(shape);
  a.adopt(detail::DeviceBuffer::allocate(current_backend(), MemoryKind::Managed,
                                         static_cast<std::size_t>(count) * dtype_itemsize(dtype)));
  a.data_ = a.buffer_->data;
  return a;
}

AnyDeviceArray AnyDeviceArray::from_pointer(void* data, Dtype dtype,
                                            std::vector<std::int64_t> shape,
                                            std::vector<std::int64_t> strides,
                                            std::shared_ptr<void> owner) {
  const Backend backend = current_backend();
  return detail::ArrayAccess::wrap(
      backend, backend == Backend::Cuda ? cuda::currentDevice().id : -1, data, dtype,
      std::move(shape), std::move(strides), std::move(owner), "from_pointer");
}

namespace detail {

AnyDeviceArray ArrayAccess::wrap(Backend backend, int deviceId, void* data, Dtype dtype,
                                 std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
                                 std::shared_ptr<void> owner, const char* caller) {
  if (dtype == Dtype::Record || is_character_dtype(dtype))
    throw Error(ErrorKind::InvalidArgument,
                std::string(caller) +
                    ": arrays of records or character items cannot wrap outside memory yet");
  checkedCount(shape);
  if (strides.empty())
    strides = cStrides(shape, dtype_itemsize(dtype));
  if (strides.size() != shape.size())
    throw Error(ErrorKind::InvalidArgument, std::string(caller) + ": " +
                                                std::to_string(strides.size()) + " strides for " +
                                                std::to_string(shape.size()) + " dimensions");
  if (data == nullptr && spanOf(shape, strides, dtype_itemsize(dtype)).high > 0)
    throw Error(ErrorKind::InvalidArgument, std::string(caller) + ": a null pointer");
  auto buffer = std::make_shared<DeviceBuffer>();
  buffer->backend = backend;
  buffer->kind = MemoryKind::External;
  buffer->data = data;
  buffer->owner = std::move(owner);
  if (backend == Backend::Cuda) {
    const cuda::DeviceContext& device = cuda::deviceContext(deviceId);
    buffer->device = &device;
    if (data != nullptr) {
      const cuda::CudaDriver& driver = *cuda::CudaDriver::shared();
      unsigned memoryType = 0;
      const cuda::CUresult r = driver.cuPointerGetAttribute(
          &memoryType, cuda::kPointerMemoryType, reinterpret_cast<cuda::CUdeviceptr>(data));
      if (r != cuda::kCudaSuccess || memoryType == cuda::kMemoryTypeHost)
        throw Error(
            ErrorKind::InvalidArgument,
            std::string(caller) + ": the pointer is not device memory the CUDA driver knows (" +
                (r != cuda::kCudaSuccess ? driver.describe(r) : std::string("it is host memory")) +
                ")");
      int ordinal = device.id;
      if (driver.cuPointerGetAttribute(&ordinal, cuda::kPointerDeviceOrdinal,
                                       reinterpret_cast<cuda::CUdeviceptr>(data)) ==
              cuda::kCudaSuccess &&
          ordinal != device.id)
        buffer->device = &cuda::deviceContext(ordinal);
    }
  }
  AnyDeviceArray a;
  a.dtype_ = dtype;
  a.shape_ = std::move(shape);
  a.strides_ = std::move(strides);
  a.adopt(std::move(buffer));
  a.data_ = data;
  return a;
}

AnyDeviceArray ArrayAccess::restride(const AnyDeviceArray& a, std::vector<std::int64_t> shape,
                                     std::vector<std::int64_t> strides) {
  AnyDeviceArray v = a;
  v.shape_ = std::move(shape);
  v.strides_ = std::move(strides);
  return v;
}

std::shared_ptr<void> ArrayAccess::keepAlive(const AnyDeviceArray& a) {
  return a.buffer_;
}

} // namespace detail

std::int64_t AnyDeviceArray::size() const {
  std::int64_t n = 1;
  for (std::int64_t e : shape_)
    n *= e;
  return shape_.empty() && empty() ? 0 : n; // a 0-d array holds one element; no array, none
}

void AnyDeviceArray::adopt(std::shared_ptr<detail::DeviceBuffer> buffer) {
  buffer_ = std::move(buffer);
  backend_ = buffer_->backend;
  memory_kind_ = buffer_->kind;
  // CPU backend: the device it was made on (0 unless PYK_CPU_DEVICES made several).
  device_id_ = buffer_->device != nullptr ? buffer_->device->id : buffer_->cpuDevice;
}

bool AnyDeviceArray::is_c_contiguous() const {
  std::int64_t expected = static_cast<std::int64_t>(itemsize());
  for (int d = ndim(); d-- > 0;) {
    if (shape_[d] != 1 && strides_[d] != expected)
      return false;
    expected *= shape_[d];
  }
  return true;
}

bool AnyDeviceArray::is_f_contiguous() const {
  std::int64_t expected = static_cast<std::int64_t>(itemsize());
  for (int d = 0; d < ndim(); ++d) {
    if (shape_[d] != 1 && strides_[d] != expected)
      return false;
    expected *= shape_[d];
  }
  return true;
}

void* AnyDeviceArray::host_data() const {
  if (buffer_ == nullptr)
    return nullptr;
  const bool reachable = buffer_->backend == Backend::Cpu || buffer_->kind == MemoryKind::Managed;
  return reachable ? data_ : nullptr;
}

AnyDeviceArray AnyDeviceArray::slice(int dim, std::int64_t start, std::int64_t stop,
                                     std::int64_t step) const {
  if (dim < 0 || dim >= ndim())
    throw Error(ErrorKind::InvalidArgument, "slice: dimension " + std::to_string(dim) +
                                                " of an array of " + std::to_string(ndim()));
  if (step == 0)
    throw Error(ErrorKind::InvalidArgument, "slice: the step is 0");
  const std::int64_t n = shape_[dim];
  // Python's slice.indices.
  auto clip = [&](std::int64_t v) {
    if (v < 0)
      v += n;
    if (step > 0)
      return std::clamp<std::int64_t>(v, 0, n);
    return std::clamp<std::int64_t>(v, -1, n - 1);
  };
  const std::int64_t first = clip(start);
  const std::int64_t last = clip(stop);
  std::int64_t count = 0;
  if (step > 0 && last > first)
    count = (last - first + step - 1) / step;
  else if (step < 0 && first > last)
    count = (first - last + (-step) - 1) / (-step);
  AnyDeviceArray v = *this;
  v.shape_[dim] = count;
  if (count > 0)
    v.data_ = static_cast<char*>(data_) + first * strides_[dim];
  v.strides_[dim] = strides_[dim] * step;
  return v;
}

AnyDeviceArray AnyDeviceArray::operator[](std::int64_t i) const {
  if (ndim() < 2)
    throw Error(ErrorKind::InvalidArgument,
                "operator[]: a " + std::to_string(ndim()) +
                    "-d array has no sub-arrays (copy it to the host to read elements)");
  const std::int64_t j = normalizedIndex(i, shape_[0], "operator[]");
  AnyDeviceArray v = *this;
  v.data_ = static_cast<char*>(data_) + j * strides_[0];
  v.shape_.erase(v.shape_.begin());
  v.strides_.erase(v.strides_.begin());
  return v;
}

AnyDeviceArray AnyDeviceArray::transpose() const {
  AnyDeviceArray v = *this;
  std::reverse(v.shape_.begin(), v.shape_.end());
  std::reverse(v.strides_.begin(), v.strides_.end());
  return v;
}

AnyDeviceArray AnyDeviceArray::reshape(std::vector<std::int64_t> shape) const {
  const std::int64_t count = checkedCount(shape);
  if (count != size())
    throw Error(ErrorKind::InvalidArgument, "reshape: " + std::to_string(size()) +
                                                " elements cannot take a shape of " +
                                                std::to_string(count));
  if (!is_c_contiguous())
    throw Error(ErrorKind::InvalidArgument,
                "reshape: only a C-contiguous array can be reshaped without a copy");
  AnyDeviceArray v = *this;
  v.strides_ = cStrides(shape, itemsize());
  v.shape_ = std::move(shape);
  return v;
}

HostArray AnyDeviceArray::copy_to_host() const {
  HostArray host;
  host.dtype = dtype_;
  host.record = record_;
  host.chars = chars_;
  host.shape = shape_;
  host.bytes.resize(static_cast<std::size_t>(nbytes()));
  copy_to_host(host.bytes.data(), host.bytes.size());
  return host;
}

void AnyDeviceArray::copy_to_host(void* bytes, std::size_t count) const {
  copy_to_host(bytes, count, Stream());
}

void AnyDeviceArray::copy_from_host(const void* bytes, std::size_t count) {
  copy_from_host(bytes, count, Stream());
}

void AnyDeviceArray::copy_to_host(void* bytes, std::size_t count, const Stream& stream) const {
  if (count != static_cast<std::size_t>(nbytes()))
    throw Error(ErrorKind::InvalidArgument, "copy_to_host: " + std::to_string(count) +
                                                " bytes asked of an array of " +
                                                std::to_string(nbytes()));
  if (count == 0)
    return;
  if (is_c_contiguous()) {
    if (!capturedCopy(stream, bytes, data_, count, *this))
      detail::copyFromBuffer(*buffer_, bytes, data_, count, stream);
    return;
  }
  // A strided view: the memory it spans, then its elements in C order.
  const Span s = spanOf(shape_, strides_, itemsize());
  std::vector<unsigned char> staging(static_cast<std::size_t>(s.high - s.low));
  detail::copyFromBuffer(*buffer_, staging.data(), static_cast<char*>(data_) + s.low,
                         staging.size(), stream);
  stream.synchronize();
  unsigned char* out = static_cast<unsigned char*>(bytes);
  const std::size_t item = itemsize();
  forEachElement(shape_, strides_, [&](std::int64_t offset) {
    std::memcpy(out, staging.data() + (offset - s.low), item);
    out += item;
  });
}

void AnyDeviceArray::copy_from_host(const void* bytes, std::size_t count, const Stream& stream) {
  if (count != static_cast<std::size_t>(nbytes()))
    throw Error(ErrorKind::InvalidArgument, "copy_from_host: " + std::to_string(count) +
                                                " bytes given for an array of " +
                                                std::to_string(nbytes()));
  if (count == 0)
    return;
  if (is_c_contiguous()) {
    if (!capturedCopy(stream, data_, bytes, count, *this))
      detail::copyToBuffer(*buffer_, data_, bytes, count, stream);
    return;
  }
  // A strided view: read the span it covers, place its elements, write the span back (the bytes
  // between its elements are written with what they held).
  const Span s = spanOf(shape_, strides_, itemsize());
  std::vector<unsigned char> staging(static_cast<std::size_t>(s.high - s.low));
  char* low = static_cast<char*>(data_) + s.low;
  detail::copyFromBuffer(*buffer_, staging.data(), low, staging.size(), stream);
  stream.synchronize();
  const unsigned char* in = static_cast<const unsigned char*>(bytes);
  const std::size_t item = itemsize();
  forEachElement(shape_, strides_, [&](std::int64_t offset) {
    std::memcpy(staging.data() + (offset - s.low), in, item);
    in += item;
  });
  detail::copyToBuffer(*buffer_, low, staging.data(), staging.size(), stream);
  stream.synchronize(); // the staging copy dies here
}

void AnyDeviceArray::copy_from_host(const HostArray& host) {
  if (host.dtype != dtype_ || host.shape != shape_ || host.chars != chars_ ||
      (record_ != nullptr && (host.record == nullptr || !(*host.record == *record_))))
    throw Error(ErrorKind::InvalidArgument,
                "copy_from_host: the host array's dtype or shape differs from the device array's");
  copy_from_host(host.bytes.data(), host.bytes.size());
}

void AnyDeviceArray::copy_from_device(const AnyDeviceArray& from, const Stream& stream) {
  if (from.dtype_ != dtype_ || from.shape_ != shape_ || from.chars_ != chars_ ||
      (record_ != nullptr && !(*from.record_ == *record_)))
    throw Error(ErrorKind::InvalidArgument,
                "copy_from_device: the arrays differ in dtype or shape");
  if (nbytes() == 0)
    return;
  if (is_c_contiguous() && from.is_c_contiguous()) {
    if (from.backend() == backend() &&
        capturedCopy(stream, data_, from.data_, static_cast<std::size_t>(nbytes()), *this, &from))
      return;
    detail::copyBetweenBuffers(*buffer_, data_, *from.buffer_, from.data_,
                               static_cast<std::size_t>(nbytes()), stream);
    return;
  }
  // Strided: through the host.
  std::vector<unsigned char> staging(static_cast<std::size_t>(nbytes()));
  from.copy_to_host(staging.data(), staging.size(), stream);
  copy_from_host(staging.data(), staging.size(), stream);
}

AnyDeviceArray to_device(const HostArray& host) {
  if (!host.is_consistent())
    throw Error(ErrorKind::InvalidArgument, "to_device: the host array's size does not match "
                                            "its dtype and shape");
  AnyDeviceArray a = detail::ArrayAccess::allocate(current_backend(), host.dtype, host.shape,
                                                   host.record, host.chars);
  a.copy_from_host(host.bytes.data(), host.bytes.size());
  return a;
}

namespace detail {

std::shared_ptr<void> allocate_pinned(std::size_t bytes) {
  const std::size_t request = bytes == 0 ? 1 : bytes;
  if (current_backend() == Backend::Cpu) {
    void* p = ::operator new[](request, std::align_val_t(64));
    return std::shared_ptr<void>(p, [](void* q) { ::operator delete[](q, std::align_val_t(64)); });
  }
  const cuda::DeviceContext& device = cuda::currentDevice();
  const cuda::CudaDriver& driver = *cuda::CudaDriver::shared();
  void* p = nullptr;
  driver.check(driver.cuMemAllocHost(&p, request), "cuMemAllocHost",
               std::to_string(bytes) + " bytes of pinned host memory");
  return std::shared_ptr<void>(p, [context = device.context](void* q) {
    cuda::releaseInContext(context,
                           [&](const cuda::CudaDriver& driver) { (void)driver.cuMemFreeHost(q); });
  });
}

} // namespace detail

} // namespace pyk
