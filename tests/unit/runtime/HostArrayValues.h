// HostArrayValues: host arrays built from and read back as std::vectors, for the tests of ufunc
// and gufunc calls.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "pyk/pyk.hpp"

// The tests' short names for pyk::host_array and pyk::host_values.
template <typename T>
pyk::HostArray host(std::vector<std::int64_t> shape, const std::vector<T>& values) {
  return pyk::host_array(std::move(shape), values);
}

template <typename T>
std::vector<T> valuesOf(const pyk::HostArray& h) {
  return pyk::host_values<T>(h);
}
