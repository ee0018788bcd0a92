// seed_kernels: the main job. Loads each seed example (examples/*.pyk) with the C++ host API,
// launches its kernels with the inputs its Python host code uses, and checks the results against
// plain C++ computations, as the seed's own asserts check them against numpy. Prints one line per
// example; exits 1 if any result is wrong or any launch fails unexpectedly.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "pyk/pyk.hpp"

namespace {

std::string examples;

pyk::Module load(const std::string& name) {
  return pyk::load(examples + "/" + name);
}

bool vectorAdd() {
  pyk::Module m = load("vector_add.pyk");
  const int n = 1000;
  std::mt19937 rng(0);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = uniform(rng);
    b[i] = uniform(rng);
  }
  const int threads = 256, blocks = (n + threads - 1) / threads;
  auto da = pyk::to_device(a), db = pyk::to_device(b);
  auto dc = pyk::device_array_like(da);
  m["vector_add"][{blocks, threads}](da, db, dc);
  std::vector<float> c = dc.copy_to_host();
  for (int i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i])
      return false;
  return true;
}

bool gridIndexAdd() {
  pyk::Module m = load("grid_index_add.pyk");
  const int n = 4096;
  std::vector<std::int32_t> x(n), y(n, 1);
  std::iota(x.begin(), x.end(), 0);
  auto dx = pyk::to_device(x), dy = pyk::to_device(y);
  auto out = pyk::device_array_like(dx);
  m["add_kernel"][{32, 128}](dx, dy, out);
  pyk::synchronize();
  std::vector<std::int32_t> got = out.copy_to_host();
  for (int i = 0; i < n; ++i)
    if (got[i] != i + 1)
      return false;
  return true;
}

bool accumulateArray() {
  pyk::Module m = load("accumulate_array.pyk");
  const std::int64_t n = 100;
  std::vector<double> a(n), b(n, 1.0);
  std::iota(a.begin(), a.end(), 0.0);
  auto db = pyk::to_device(b);
  m["gpu"][{(n + 31) / 32, 32}](pyk::to_device(a), db, n);
  std::vector<double> got = db.copy_to_host();
  for (int i = 0; i < n; ++i)
    if (got[i] != a[i] + 1)
      return false;
  return true;
}

bool diffusion() {
  pyk::Module m = load("diffusion.pyk");
  const std::int64_t nx = 20, ny = 13, tpb = 8;
  std::mt19937 rng(3966789);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<float> field(nx * ny);
  for (float& v : field)
    v = uniform(rng);
  auto src = pyk::to_device<float, 2>(field, {nx, ny});
  auto dst = pyk::device_array_like(src);
  auto lapl = pyk::device_array_like(src);
  for (int step = 0; step < 3; ++step) {
    m["diffusion"][{{(nx + tpb - 1) / tpb, (ny + tpb - 1) / tpb}, {tpb, tpb}}](src, lapl, dst);
    std::swap(src, dst);
  }
  // The same steps in double precision: a missing neighbour equals the cell (zero flux).
  std::vector<double> expected(field.begin(), field.end());
  for (int step = 0; step < 3; ++step) {
    std::vector<double> next(expected.size());
    auto at = [&](std::int64_t x, std::int64_t y) {
      x = std::clamp<std::int64_t>(x, 0, nx - 1);
      y = std::clamp<std::int64_t>(y, 0, ny - 1);
      return expected[x * ny + y];
    };
    for (std::int64_t x = 0; x < nx; ++x)
      for (std::int64_t y = 0; y < ny; ++y) {
        const double lap = 4 * at(x, y) - at(x - 1, y) - at(x + 1, y) - at(x, y - 1) - at(x, y + 1);
        next[x * ny + y] = at(x, y) - lap * 0.25;
      }
    expected = next;
  }
  std::vector<float> got = src.copy_to_host();
  for (size_t i = 0; i < got.size(); ++i)
    if (std::abs(got[i] - expected[i]) > 1e-5)
      return false;
  return true;
}

bool matmulReduce() {
  pyk::Module m = load("matmul_reduce.pyk");
  const std::int64_t rows = 40, inner = 24, cols = 36, tpb = 16;
  std::mt19937 rng(987654321);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<float> a(rows * inner), b(inner * cols);
  for (float& v : a)
    v = uniform(rng);
  for (float& v : b)
    v = uniform(rng);
  auto out = pyk::to_device(std::vector<float>(cols, 0.0f));
  m["matmul_reduce"][{{(rows + tpb - 1) / tpb, (cols + tpb - 1) / tpb}, {tpb, tpb}}](
      pyk::to_device<float, 2>(a, {rows, inner}), pyk::to_device<float, 2>(b, {inner, cols}), out);
  std::vector<float> got = out.copy_to_host();
  for (std::int64_t j = 0; j < cols; ++j) {
    double expected = 0;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t k = 0; k < inner; ++k)
        expected += static_cast<double>(a[i * inner + k]) * b[k * cols + j];
    if (std::abs(got[j] - expected) > 1e-4 * std::abs(expected))
      return false;
  }
  return true;
}

bool integerAddUfunc() {
  pyk::Module m = load("integer_add_ufunc.pyk");
  std::vector<std::int64_t> a = {1, 2, 3, 4}, b = {10, 20, 30, 40};
  auto out = pyk::device_array<std::int64_t>(4);
  m["add_ufunc"][{1, 4}](pyk::to_device(a), pyk::to_device(b), out);
  std::vector<std::int64_t> got = out.copy_to_host();
  for (int i = 0; i < 4; ++i)
    if (got[i] != a[i] + b[i])
      return false;
  return true;
}

bool trigIdentityUfunc() {
  pyk::Module m = load("trig_identity_ufunc.pyk");
  std::vector<float> x(1000);
  std::iota(x.begin(), x.end(), 0.0f);
  auto y = pyk::device_array<float>(1000);
  m["trig_identity"][{4, 256}](pyk::to_device(x), y);
  for (float v : y.copy_to_host())
    if (std::abs(v - 1.0f) > 1e-5f)
      return false;
  return true;
}

bool printKernels() {
  // Each prints from every thread (2 blocks of 4 threads, as the seeds launch them).
  for (const char* name : {"print_thread_index.pyk", "print_block_index.pyk", "print_block_dim.pyk",
                           "print_grid_dim.pyk"}) {
    load(name)["gpu"][{2, 4}]();
    std::fflush(stdout);
  }
  return true;
}

bool oversizedGrid() {
  pyk::Module m = load("oversized_grid_launch.pyk");
  m["gpu"][{1 << 10, 1}]();
  std::cout << "Running Success!\n";
  try {
    m["gpu"][{std::int64_t{1} << 50, 1}]();
  } catch (const pyk::Error& e) {
    std::cout << "2**50 blocks refused: " << e.what() << '\n';
    return e.kind() == pyk::ErrorKind::InvalidLaunch;
  }
  return false;
}

} // namespace

int main(int argc, char** argv) {
  examples = argc > 1 ? argv[1] : "examples";
  const std::pair<const char*, std::function<bool()>> runs[] = {
      {"vector_add", vectorAdd},
      {"grid_index_add", gridIndexAdd},
      {"accumulate_array", accumulateArray},
      {"diffusion", diffusion},
      {"matmul_reduce", matmulReduce},
      {"integer_add_ufunc", integerAddUfunc},
      {"trig_identity_ufunc", trigIdentityUfunc},
      {"print kernels", printKernels},
      {"oversized_grid_launch", oversizedGrid}};
  int failures = 0;
  for (const auto& [name, run] : runs) {
    bool ok = false;
    try {
      ok = run();
    } catch (const pyk::Error& e) {
      std::cout << name << ": error: " << e.what() << '\n';
    }
    std::cout << name << (ok ? ": ok" : ": FAILED") << std::endl;
    failures += ok ? 0 : 1;
  }
  return failures == 0 ? 0 : 1;
}
