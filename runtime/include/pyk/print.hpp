// print: the host API's values written to a std::ostream, for logs and test messages:
//   std::cout << a;   // DeviceArray(float32, shape=(2, 3), strides=(12, 4), cpu)
// Dtypes by numba's name, shapes and Dim3s as Python tuples, a launch shape as numba's
// `[grid, block]`, arrays by what they are (element type, shape, strides, where), not their
// contents.
#pragma once

#include <iosfwd>

#include "pyk/device_array.hpp"
#include "pyk/kernel.hpp"
#include "pyk/npy.hpp"

namespace pyk {

std::ostream& operator<<(std::ostream& out, Dtype dtype);          // float32
std::ostream& operator<<(std::ostream& out, const Dim3& d);        // (4, 1, 1)
std::ostream& operator<<(std::ostream& out, const LaunchShape& s); // [(4, 1, 1), (256, 1, 1)]
// DeviceArray(float32, shape=(2, 3), strides=(12, 4), cuda:0); a record array names its record.
std::ostream& operator<<(std::ostream& out, const AnyDeviceArray& a);
// HostArray(float32, shape=(2, 3))
std::ostream& operator<<(std::ostream& out, const HostArray& h);

template <typename T, int N>
std::ostream& operator<<(std::ostream& out, const DeviceArray<T, N>& a) {
  return out << a.untyped();
}

} // namespace pyk
