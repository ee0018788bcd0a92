// FakeCuda: what the CUDA backend's scenario files share: the fakes' own functions (launch
// counts, the last launch's function, configuration and parameter bytes), reading a value out of
// parameter bytes, an error's message, and the kernels most scenarios launch.
#pragma once

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <stdlib.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pyk/pyk.hpp"

namespace pyk_fake_cuda {

// The fakes' own functions.
struct Fakes {
  Fakes() {
    driver = ::dlopen(std::getenv("PYK_LIBCUDA"), RTLD_NOW | RTLD_NOLOAD);
    nvrtc = ::dlopen(std::getenv("PYK_LIBNVRTC"), RTLD_NOW);
  }
  template <typename F>
  F* get(void* library, const char* name) const {
    void* f = library != nullptr ? ::dlsym(library, name) : nullptr;
    if (f == nullptr)
      throw std::runtime_error(std::string("the fake has no ") + name);
    return reinterpret_cast<F*>(f);
  }
  int moduleLoads() const { return get<int()>(driver, "pykFakeModuleLoads")(); }
  int launches() const { return get<int()>(driver, "pykFakeLaunches")(); }
  int compiles() const { return get<int()>(nvrtc, "pykFakeNvrtcCompiles")(); }
  std::size_t liveAllocations() const {
    return get<std::size_t()>(driver, "pykFakeLiveAllocations")();
  }
  std::string lastFunction() const { return get<const char*()>(driver, "pykFakeLastFunction")(); }
  std::vector<unsigned char> parameter(int i) const {
    std::size_t n = 0;
    const unsigned char* p =
        get<const unsigned char*(int, std::size_t*)>(driver, "pykFakeLastParameter")(i, &n);
    return p == nullptr ? std::vector<unsigned char>{} : std::vector<unsigned char>(p, p + n);
  }
  struct Configuration {
    unsigned grid[3], block[3], shared;
    void* stream;
    int cooperative, device;
  };
  Configuration configuration() const {
    Configuration c{};
    get<void(unsigned*, unsigned*, unsigned*, void**, int*, int*)>(
        driver, "pykFakeLastConfiguration")(c.grid, c.block, &c.shared, &c.stream, &c.cooperative,
                                            &c.device);
    return c;
  }
  void* driver = nullptr;
  void* nvrtc = nullptr;
};

inline const Fakes& fakes() {
  static Fakes f;
  return f;
}

template <typename T>
T read(const std::vector<unsigned char>& bytes, std::size_t offset) {
  T v{};
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

inline std::string errorOf(const std::function<void()>& f, pyk::ErrorKind kind) {
  try {
    f();
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

inline const char* const kVectorAdd = R"(from numba import cuda


@cuda.jit
def vector_add(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


@cuda.jit
def scale(x, s):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        x[i, j] *= s


@cuda.jit
def whole_grid(x):
    g = cuda.cg.this_grid()
    x[cuda.grid(1)] = 1.0
    g.sync()
)";

} // namespace pyk_fake_cuda
