// device_array: arrays in the memory of the current backend (host memory on the CPU backend), as
// numba.cuda's DeviceNDArray: to_device, device_array, device_array_like, copy_to_host, views,
// managed arrays, pinned host arrays and arrays over memory other libraries own.
#pragma once

#include <array>
#include <complex>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pyk/datetime.hpp"
#include "pyk/device.hpp"
#include "pyk/dtype.hpp"
#include "pyk/error.hpp"
#include "pyk/float16.hpp"
#include "pyk/npy.hpp"
#include "pyk/record.hpp"
#include "pyk/stream.hpp"

namespace pyk {

namespace detail {
struct DeviceBuffer; // one allocation; shared by the arrays that view it
struct ArrayAccess;  // the runtime's own way in (DLPack import)
} // namespace detail

// Where an array's elements live.
enum class MemoryKind {
  Host,    // host memory of the CPU backend
  Device,  // CUDA device memory pyk allocated (cuMemAlloc)
  Managed, // CUDA managed memory (cuMemAllocManaged): the host may read and write it too
  External // memory pyk did not allocate (from_pointer), on whichever backend wrapped it
};

// An array of any dtype and rank, 0 to 8 (what .npy files and `pykc run` carry; an empty shape is a
// 0-d array of one element, numpy's np.array(1.0)), on the backend that was
// current when it was made (pyk::current_backend()). Strides are in bytes, as numpy's; arrays made
// here are C-contiguous, views (slice, operator[], transpose) need not be. Copies without a stream
// are synchronous; with one they are queued on it (asynchronous on CUDA: the host memory must
// stay valid until the stream is synchronized, and only pinned memory overlaps with kernels).
class AnyDeviceArray {
public:
  AnyDeviceArray() = default;
  // A new, uninitialised C-contiguous array. Throws pyk::Error (InvalidArgument) for a negative
  // extent, a size that overflows, or more than 8 dimensions; (Device) when the device is out of
  // memory or absent.
  static AnyDeviceArray allocate(Dtype dtype, std::vector<std::int64_t> shape);
  // A new, uninitialised C-contiguous array of records (numba's device_array(n, dtype=record)).
  // The Dtype overloads refuse Dtype::Record (InvalidArgument): a record array needs its fields;
  // and Bytes and Unicode, whose length comes with a HostArray (to_device).
  static AnyDeviceArray allocate(const RecordDtype& record, std::vector<std::int64_t> shape);
  // The same in CUDA managed memory (numba.cuda.managed_array); host memory on the CPU backend.
  static AnyDeviceArray allocate_managed(Dtype dtype, std::vector<std::int64_t> shape);
  // An array over memory pyk did not allocate: a device pointer (cudaMalloc, cuBLAS, libtorch) or
  // managed memory on CUDA, host memory on the CPU backend. `strides` in bytes, C-contiguous when
  // empty. `owner` is kept alive as long as any view of the array (pass the memory's owner, or
  // nothing when the caller keeps the memory alive). On CUDA the pointer is checked with the
  // driver: host memory is refused (pyk::Error InvalidArgument).
  static AnyDeviceArray from_pointer(void* data, Dtype dtype, std::vector<std::int64_t> shape,
                                     std::vector<std::int64_t> strides = {},
                                     std::shared_ptr<void> owner = {});

  Dtype dtype() const { return dtype_; }
  // Dtype::Record: the fields and item size; nullptr for scalar dtypes.
  const RecordDtype* record() const { return record_.get(); }
  // Dtype::Bytes, Dtype::Unicode (numpy's 'S12', 'U12'): characters per item; else 0.
  std::int64_t chars() const { return chars_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  const std::vector<std::int64_t>& shape() const { return shape_; }
  const std::vector<std::int64_t>& strides() const { return strides_; }
  std::int64_t size() const;
  std::int64_t nbytes() const { return size() * static_cast<std::int64_t>(itemsize()); }
  std::size_t itemsize() const {
    if (is_character_dtype(dtype_))
      return character_itemsize(dtype_, chars_);
    return record_ != nullptr ? static_cast<std::size_t>(record_->itemsize())
                              : dtype_itemsize(dtype_);
  }
  // Where the first element lives in device memory (host memory on the CPU backend).
  void* device_data() const { return data_; }
  bool empty() const { return buffer_ == nullptr; }
  Backend backend() const { return backend_; }
  MemoryKind memory_kind() const { return memory_kind_; }
  // The device the memory belongs to: a CUDA device, or on the CPU backend the device it was made
  // on (0, unless PYK_CPU_DEVICES made several); -1 for an empty array.
  int device_id() const { return device_id_; }
  bool is_c_contiguous() const;
  bool is_f_contiguous() const;

  // Views sharing this array's memory (numpy's basic indexing). slice: elements start, start +
  // step, ... before stop along `dim`, with Python's rules (negative values count from the end,
  // out-of-range bounds are clipped, step may be negative, not 0). operator[]: the sub-array at
  // index i of the first dimension (negative counts from the end), one dimension fewer (a 1-D
  // array has no sub-arrays: InvalidArgument). transpose: the dimensions reversed (numpy's .T).
  // reshape: the same elements in another shape; C-contiguous arrays only.
  AnyDeviceArray slice(int dim, std::int64_t start, std::int64_t stop, std::int64_t step = 1) const;
  AnyDeviceArray operator[](std::int64_t i) const;
  AnyDeviceArray transpose() const;
  AnyDeviceArray reshape(std::vector<std::int64_t> shape) const;

  // The contents, C order.
  HostArray copy_to_host() const;
  // Replaces the contents with `host` (same dtype and shape, else pyk::Error InvalidArgument).
  void copy_from_host(const HostArray& host);
  // `count` bytes, the elements in C order.
  void copy_from_host(const void* bytes, std::size_t count);
  void copy_to_host(void* bytes, std::size_t count) const;
  void copy_from_host(const void* bytes, std::size_t count, const Stream& stream);
  void copy_to_host(void* bytes, std::size_t count, const Stream& stream) const;
  // Copies another array's contents (same dtype and shape) into this one, device to device; from
  // another CUDA device's memory, a peer copy (cuMemcpyPeer: direct where the devices reach each
  // other, pyk::can_access_peer, else staged by the driver).
  void copy_from_device(const AnyDeviceArray& from, const Stream& stream = Stream());
  // The elements' address for the host: managed and CPU-backend memory; null for device memory.
  // For managed memory, read or write it only while no kernel that uses it is running (after
  // pyk::synchronize()), as numba's managed arrays.
  void* host_data() const;

private:
  friend struct detail::ArrayAccess;
  // Views `buffer`'s memory (from data_ on); its backend, kind and device kept here, so that a
  // launch reads them without reaching the buffer.
  void adopt(std::shared_ptr<detail::DeviceBuffer> buffer);
  // What a launch reads first (the first 64 bytes on x86-64 with libstdc++), the rest after.
  void* data_ = nullptr;
  std::vector<std::int64_t> shape_;
  std::vector<std::int64_t> strides_;
  Dtype dtype_ = Dtype::Float64;
  int device_id_ = -1;
  std::shared_ptr<detail::DeviceBuffer> buffer_;
  std::shared_ptr<const RecordDtype> record_; // Dtype::Record
  std::int64_t chars_ = 0;                    // Dtype::Bytes, Dtype::Unicode
  Backend backend_ = Backend::Cpu;
  MemoryKind memory_kind_ = MemoryKind::Host;
};

AnyDeviceArray to_device(const HostArray& host);

// The dtype of a C++ element type: float -> float32, std::int64_t -> int64, bool -> bool,
// std::complex<float> -> complex64, pyk::float16 -> float16.
template <typename T>
constexpr Dtype dtype_of() {
  if constexpr (std::is_same_v<T, bool>)
    return Dtype::Bool;
  else if constexpr (std::is_same_v<T, float16>)
    return Dtype::Float16;
  else if constexpr (std::is_same_v<T, float>)
    return Dtype::Float32;
  else if constexpr (std::is_same_v<T, double>)
    return Dtype::Float64;
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return Dtype::Complex64;
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return Dtype::Complex128;
  else if constexpr (is_datetime_value_v<T>)
    return datetime_dtype_of<T>();
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
    return sizeof(T) == 1   ? Dtype::Int8
           : sizeof(T) == 2 ? Dtype::Int16
           : sizeof(T) == 4 ? Dtype::Int32
                            : Dtype::Int64;
  else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>)
    return sizeof(T) == 1   ? Dtype::UInt8
           : sizeof(T) == 2 ? Dtype::UInt16
           : sizeof(T) == 4 ? Dtype::UInt32
                            : Dtype::UInt64;
  else
    static_assert(sizeof(T) == 0,
                  "pyk arrays hold bool, integers, pyk::float16, float, double, std::complex, "
                  "pyk::datetime64 or pyk::timedelta64");
}

// A host array (numpy's ndarray) of `shape` holding `values` in C order, and the values of one
// as a std::vector<T>. Throw pyk::Error (InvalidArgument) when the shape does not fit the values
// or the array holds another dtype than T's.
template <typename T>
HostArray host_array(std::vector<std::int64_t> shape, const std::vector<T>& values) {
  HostArray h;
  h.dtype = dtype_of<T>();
  h.shape = std::move(shape);
  h.bytes.resize(values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(h.bytes.data(), values.data(), h.bytes.size());
  if (!h.is_consistent())
    throw Error(ErrorKind::InvalidArgument,
                "host_array: " + std::to_string(values.size()) + " values do not fill the shape");
  return h;
}
template <typename T>
std::vector<T> host_values(const HostArray& h) {
  if (h.dtype != dtype_of<T>())
    throw Error(ErrorKind::InvalidArgument, "host_values: the array holds " +
                                                std::string(dtype_name(h.dtype)) + ", not " +
                                                std::string(dtype_name(dtype_of<T>())));
  std::vector<T> values(h.bytes.size() / sizeof(T));
  if (!values.empty())
    std::memcpy(values.data(), h.bytes.data(), values.size() * sizeof(T));
  return values;
}

// An array of T with N dimensions: a kernel sees it as numba types it, `T[:, ::1]` (N = 2) when
// C-contiguous as arrays made here are, `T[:, :]` for a strided view.
template <typename T, int N = 1>
class DeviceArray {
  static_assert(N >= 0 && N <= 8, "pyk arrays have 0 to 8 dimensions");

public:
  DeviceArray() = default;
  explicit DeviceArray(AnyDeviceArray array) : array_(std::move(array)) {
    if (array_.dtype() != dtype_of<T>() || array_.ndim() != N)
      throw Error(ErrorKind::InvalidArgument,
                  "a " + std::string(dtype_name(array_.dtype())) + " array of " +
                      std::to_string(array_.ndim()) + " dimensions is not a DeviceArray of " +
                      std::string(dtype_name(dtype_of<T>())) + " with " + std::to_string(N));
  }

  std::array<std::int64_t, N> shape() const {
    std::array<std::int64_t, N> s{};
    for (int d = 0; d < N; ++d)
      s[d] = array_.shape()[d];
    return s;
  }
  std::int64_t size() const { return array_.size(); }
  T* device_data() const { return static_cast<T*>(array_.device_data()); }

  std::vector<T> copy_to_host() const {
    std::vector<T> out(static_cast<std::size_t>(size()));
    array_.copy_to_host(out.data(), out.size() * sizeof(T));
    return out;
  }
  void copy_to_host(T* out) const { array_.copy_to_host(out, size() * sizeof(T)); }
  void copy_to_host(std::vector<T>& out) const {
    out.resize(static_cast<std::size_t>(size()));
    copy_to_host(out.data());
  }
  void copy_from_host(const T* in) { array_.copy_from_host(in, size() * sizeof(T)); }
  // Queued on `stream` (see AnyDeviceArray).
  void copy_to_host(T* out, const Stream& stream) const {
    array_.copy_to_host(out, size() * sizeof(T), stream);
  }
  void copy_from_host(const T* in, const Stream& stream) {
    array_.copy_from_host(in, size() * sizeof(T), stream);
  }
  void copy_from_device(const DeviceArray& from, const Stream& stream = Stream()) {
    array_.copy_from_device(from.array_, stream);
  }
  // Managed and CPU-backend memory only (else null).
  T* host_data() const { return static_cast<T*>(array_.host_data()); }

  // Views (see AnyDeviceArray).
  DeviceArray slice(int dim, std::int64_t start, std::int64_t stop, std::int64_t step = 1) const {
    return DeviceArray(array_.slice(dim, start, stop, step));
  }
  auto operator[](std::int64_t i) const {
    static_assert(N >= 2, "a 1-D array has no sub-arrays");
    return DeviceArray<T, N - 1>(array_[i]);
  }
  DeviceArray transpose() const { return DeviceArray(array_.transpose()); }
  std::array<std::int64_t, N> strides() const {
    std::array<std::int64_t, N> s{};
    for (int d = 0; d < N; ++d)
      s[d] = array_.strides()[d];
    return s;
  }

  const AnyDeviceArray& untyped() const { return array_; }

private:
  AnyDeviceArray array_;
};

template <typename T, int N>
DeviceArray<T, N> device_array(const std::array<std::int64_t, N>& shape) {
  return DeviceArray<T, N>(AnyDeviceArray::allocate(
      dtype_of<T>(), std::vector<std::int64_t>(shape.begin(), shape.end())));
}
template <typename T>
DeviceArray<T, 1> device_array(std::int64_t n) {
  return device_array<T, 1>(std::array<std::int64_t, 1>{n});
}
template <typename T, int N>
DeviceArray<T, N> device_array_like(const DeviceArray<T, N>& like) {
  return device_array<T, N>(like.shape());
}
namespace detail {
// Extents given as other integers, as numba's int64 (device_array checks them); an unsigned one
// beyond int64 throws, naming it.
template <std::size_t N, typename Extents>
std::array<std::int64_t, N> extents(const Extents& shape) {
  std::array<std::int64_t, N> out{};
  for (std::size_t d = 0; d < N; ++d) {
    if (!std::in_range<std::int64_t>(shape[d]))
      throw Error(ErrorKind::InvalidArgument, "to_device: extent " + std::to_string(d) +
                                                  " of the shape, " + std::to_string(shape[d]) +
                                                  ", is not a size");
    out[d] = static_cast<std::int64_t>(shape[d]);
  }
  return out;
}
} // namespace detail

template <typename T, int N>
DeviceArray<T, N> to_device(const T* data, const std::array<std::int64_t, N>& shape) {
  DeviceArray<T, N> out = device_array<T, N>(shape);
  out.copy_from_host(data);
  return out;
}
template <typename T, int N>
DeviceArray<T, N> to_device(const std::vector<T>& data, const std::array<std::int64_t, N>& shape) {
  DeviceArray<T, N> out = device_array<T, N>(shape);
  if (static_cast<std::int64_t>(data.size()) != out.size())
    throw Error(ErrorKind::InvalidArgument, "to_device: " + std::to_string(data.size()) +
                                                " values for a shape of " +
                                                std::to_string(out.size()) + " elements");
  out.copy_from_host(data.data());
  return out;
}
// The shape as any integers, its rank deduced: `to_device(values, {rows, cols})` with int, size_t
// or int64 extents, or a std::array of them (the overloads above need <T, N> spelt out).
template <typename T, std::integral I, std::size_t N>
DeviceArray<T, static_cast<int>(N)> to_device(const std::vector<T>& data, const I (&shape)[N]) {
  return to_device<T, static_cast<int>(N)>(data, detail::extents<N>(shape));
}
template <typename T, std::integral I, std::size_t N>
DeviceArray<T, static_cast<int>(N)> to_device(const std::vector<T>& data,
                                              const std::array<I, N>& shape) {
  return to_device<T, static_cast<int>(N)>(data, detail::extents<N>(shape));
}
template <typename T, std::integral I, std::size_t N>
DeviceArray<T, static_cast<int>(N)> to_device(const T* data, const I (&shape)[N]) {
  return to_device<T, static_cast<int>(N)>(data, detail::extents<N>(shape));
}
template <typename T>
DeviceArray<T, 1> to_device(const std::vector<T>& data) {
  static_assert(!std::is_same_v<T, bool>, "std::vector<bool> has no contiguous storage");
  return to_device<T, 1>(data, std::array<std::int64_t, 1>{static_cast<std::int64_t>(data.size())});
}
// Queued on `stream` (numba's to_device(ary, stream)).
template <typename T>
DeviceArray<T, 1> to_device(const std::vector<T>& data, const Stream& stream) {
  static_assert(!std::is_same_v<T, bool>, "std::vector<bool> has no contiguous storage");
  DeviceArray<T, 1> out = device_array<T>(static_cast<std::int64_t>(data.size()));
  out.copy_from_host(data.data(), stream);
  return out;
}

// An array in CUDA managed memory (numba.cuda.managed_array): kernels and the host (host_data())
// both reach it. Host memory on the CPU backend.
template <typename T, int N>
DeviceArray<T, N> managed_array(const std::array<std::int64_t, N>& shape) {
  return DeviceArray<T, N>(AnyDeviceArray::allocate_managed(
      dtype_of<T>(), std::vector<std::int64_t>(shape.begin(), shape.end())));
}
template <typename T>
DeviceArray<T, 1> managed_array(std::int64_t n) {
  return managed_array<T, 1>(std::array<std::int64_t, 1>{n});
}

// An array over device memory another library allocated (cudaMalloc, cuBLAS, libtorch), C-order;
// see AnyDeviceArray::from_pointer.
template <typename T, int N>
DeviceArray<T, N> from_device_pointer(T* data, const std::array<std::int64_t, N>& shape,
                                      std::shared_ptr<void> owner = {}) {
  return DeviceArray<T, N>(AnyDeviceArray::from_pointer(
      data, dtype_of<T>(), std::vector<std::int64_t>(shape.begin(), shape.end()), {},
      std::move(owner)));
}

namespace detail {
// Page-locked host memory on CUDA (cuMemAllocHost), 64-byte aligned host memory on the CPU
// backend; freed with the last reference.
std::shared_ptr<void> allocate_pinned(std::size_t bytes);
} // namespace detail

// A host array in page-locked memory (numba.cuda.pinned_array): copies to and from it on a stream
// are asynchronous and overlap with kernels. Elements are uninitialised.
template <typename T>
class PinnedHostArray {
  static_assert(std::is_trivially_copyable_v<T>, "pinned arrays hold plain values");

public:
  PinnedHostArray() = default;
  explicit PinnedHostArray(std::size_t n)
      : memory_(detail::allocate_pinned(n * sizeof(T))), size_(n) {}
  T* data() const { return static_cast<T*>(memory_.get()); }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() const { return data(); }
  T* end() const { return data() + size_; }
  std::span<T> span() const { return {data(), size_}; }

private:
  std::shared_ptr<void> memory_;
  std::size_t size_ = 0;
};

template <typename T>
PinnedHostArray<T> pinned_array(std::size_t n) {
  return PinnedHostArray<T>(n);
}

} // namespace pyk
