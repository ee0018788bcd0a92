// device_array: arrays in the memory of the current backend (host memory on the CPU backend), as
// numba.cuda's DeviceNDArray: to_device, device_array, device_array_like, copy_to_host.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "pyk/dtype.hpp"
#include "pyk/error.hpp"
#include "pyk/npy.hpp"

namespace pyk {

namespace detail {
struct DeviceBuffer; // one allocation; shared by the arrays that view it
} // namespace detail

// An array of any dtype and rank (what .npy files and `pykc run` carry). C-contiguous when made
// here; strides are in bytes, as numpy's.
class AnyDeviceArray {
public:
  AnyDeviceArray() = default;
  // A new, uninitialised C-contiguous array. Throws pyk::Error (InvalidArgument) for a negative
  // extent, a size that overflows, or more than 8 dimensions.
  static AnyDeviceArray allocate(Dtype dtype, std::vector<std::int64_t> shape);

  Dtype dtype() const { return dtype_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  const std::vector<std::int64_t>& shape() const { return shape_; }
  const std::vector<std::int64_t>& strides() const { return strides_; }
  std::int64_t size() const;
  std::int64_t nbytes() const { return size() * static_cast<std::int64_t>(dtypeItemsize(dtype_)); }
  // Where the first element lives in device memory (host memory on the CPU backend).
  void* device_data() const { return data_; }
  bool empty() const { return buffer_ == nullptr; }

  // The contents, C order.
  HostArray copy_to_host() const;
  // Replaces the contents with `host` (same dtype and shape, else pyk::Error InvalidArgument).
  void copy_from_host(const HostArray& host);
  void copy_from_host(const void* bytes, std::size_t count);
  void copy_to_host(void* bytes, std::size_t count) const;

private:
  std::shared_ptr<detail::DeviceBuffer> buffer_;
  void* data_ = nullptr;
  Dtype dtype_ = Dtype::Float64;
  std::vector<std::int64_t> shape_;
  std::vector<std::int64_t> strides_;
};

AnyDeviceArray to_device(const HostArray& host);

// The dtype of a C++ element type: float -> float32, std::int64_t -> int64, bool -> bool,
// std::complex<float> -> complex64.
template <typename T>
constexpr Dtype dtypeOf() {
  if constexpr (std::is_same_v<T, bool>)
    return Dtype::Bool;
  else if constexpr (std::is_same_v<T, float>)
    return Dtype::Float32;
  else if constexpr (std::is_same_v<T, double>)
    return Dtype::Float64;
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return Dtype::Complex64;
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return Dtype::Complex128;
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
    static_assert(sizeof(T) == 0, "pyk arrays hold bool, integers, float, double or std::complex");
}

// An array of T with N dimensions, C-contiguous: a kernel sees it as numba's `T[:, ::1]` (N = 2).
template <typename T, int N = 1>
class DeviceArray {
  static_assert(N >= 1 && N <= 8, "pyk arrays have 1 to 8 dimensions");

public:
  DeviceArray() = default;
  explicit DeviceArray(AnyDeviceArray array) : array_(std::move(array)) {
    if (array_.dtype() != dtypeOf<T>() || array_.ndim() != N)
      throw Error(ErrorKind::InvalidArgument,
                  "a " + std::string(dtypeName(array_.dtype())) + " array of " +
                      std::to_string(array_.ndim()) + " dimensions is not a DeviceArray of " +
                      std::string(dtypeName(dtypeOf<T>())) + " with " + std::to_string(N));
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

  const AnyDeviceArray& untyped() const { return array_; }

private:
  AnyDeviceArray array_;
};

template <typename T, int N>
DeviceArray<T, N> device_array(const std::array<std::int64_t, N>& shape) {
  return DeviceArray<T, N>(AnyDeviceArray::allocate(
      dtypeOf<T>(), std::vector<std::int64_t>(shape.begin(), shape.end())));
}
template <typename T>
DeviceArray<T, 1> device_array(std::int64_t n) {
  return device_array<T, 1>(std::array<std::int64_t, 1>{n});
}
template <typename T, int N>
DeviceArray<T, N> device_array_like(const DeviceArray<T, N>& like) {
  return device_array<T, N>(like.shape());
}
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
template <typename T>
DeviceArray<T, 1> to_device(const std::vector<T>& data) {
  static_assert(!std::is_same_v<T, bool>, "std::vector<bool> has no contiguous storage");
  return to_device<T, 1>(data, std::array<std::int64_t, 1>{static_cast<std::int64_t>(data.size())});
}

} // namespace pyk
