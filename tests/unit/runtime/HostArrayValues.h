// HostArrayValues: host arrays built from and read back as std::vectors, for the tests of ufunc
// and gufunc calls.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "pyk/pyk.hpp"

template <typename T>
pyk::HostArray host(std::vector<std::int64_t> shape, const std::vector<T>& values) {
  pyk::HostArray h;
  h.dtype = pyk::dtypeOf<T>();
  h.shape = std::move(shape);
  h.bytes.resize(values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(h.bytes.data(), values.data(), h.bytes.size());
  return h;
}

template <typename T>
std::vector<T> valuesOf(const pyk::HostArray& h) {
  std::vector<T> v(h.bytes.size() / sizeof(T));
  if (!v.empty())
    std::memcpy(v.data(), h.bytes.data(), h.bytes.size());
  return v;
}
