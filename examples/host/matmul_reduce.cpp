// matmul_reduce: seed 001's "bad example", out[j] = sum_i (A @ B)[i, j], beside a correct tiled
// product and a column-sum kernel. On a GPU the seed's sizes (10000 x 5000 times 5000 x 7000) and
// its kernel timed as the seed times it; on the CPU backend 1000 x 500 times 500 x 700, and the
// seed's kernel is not run unchecked there (its reads past the end of B could leave the
// allocation). Then the bounds-check mode (PYK_BOUNDSCHECK=1, a CPU-backend mode) runs the seed's
// kernel on small matrices and catches its first read out of bounds.
//
// The correct result is checked without an O(m k n) product on the host: the column sums of
// A @ B are (the column sums of A) @ B, exact in double precision, and a sample of C's elements
// is checked against their dot products.
#include <cstdlib>
#include <random>
#include <vector>

#include "example.h"

namespace {

constexpr std::int64_t kTpb = 16;

std::vector<float> randomMatrix(std::int64_t rows, std::int64_t cols, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<float> values(rows * cols);
  for (float& v : values)
    v = uniform(rng);
  return values;
}

pyk::LaunchShape tiles(std::int64_t rows, std::int64_t cols) {
  return {{(rows + kTpb - 1) / kTpb, (cols + kTpb - 1) / kTpb}, {kTpb, kTpb}};
}

} // namespace

int main(int argc, char** argv) {
  return example::run(argc, argv, [](const example::Options& o) {
    pyk::Module module = pyk::load(o.examples / "matmul_reduce.pyk");
    const bool gpu = example::onGpu();
    const std::int64_t m = gpu ? 10000 : 1000, k = gpu ? 5000 : 500, n = gpu ? 7000 : 700;
    std::mt19937 rng(987654321);
    const std::vector<float> a = randomMatrix(m, k, rng), b = randomMatrix(k, n, rng);
    auto aDevice = pyk::to_device<float, 2>(a, {m, k});
    auto bDevice = pyk::to_device<float, 2>(b, {k, n});

    // What out should be: (1^T A) B, in double precision.
    std::vector<double> aColumnSums(k, 0.0), expected(n, 0.0);
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t p = 0; p < k; ++p)
        aColumnSums[p] += a[i * k + p];
    for (std::int64_t p = 0; p < k; ++p)
      for (std::int64_t j = 0; j < n; ++j)
        expected[j] += aColumnSums[p] * b[p * n + j];

    // The seed's kernel, as the seed times it (3 launches after a first one), GPU only.
    if (gpu) {
      auto out = pyk::to_device(std::vector<float>(n, 0.0f));
      pyk::Kernel seed = module["matmul_reduce"];
      seed[tiles(m, n)](aDevice, bDevice, pyk::device_array_like(out));
      const double secs = example::seconds([&] {
        for (int r = 0; r < 3; ++r)
          seed[tiles(m, n)](aDevice, bDevice, out);
      });
      std::vector<float> got = out.copy_to_host();
      for (float& v : got)
        v /= 3; // three launches added into out
      std::printf("the seed's matmul_reduce: %.1f ms per launch; its result is off by up to "
                  "%.1e (relative) from the column sums of A @ B\n",
                  secs / 3 * 1e3, example::maxRelativeError(got, expected));
    }

    // The correct way: C = A @ B by tiles, then the column sums.
    auto c = pyk::device_array<float, 2>({m, n});
    auto out = pyk::device_array<float>(n);
    pyk::Kernel matmul = module["matmul"], columnSums = module["column_sums"];
    matmul[tiles(m, n)](aDevice, bDevice, c); // compiles both
    columnSums[{(n + 127) / 128, 128}](c, out);
    const double secs = example::seconds([&] {
      matmul[tiles(m, n)](aDevice, bDevice, c);
      columnSums[{(n + 127) / 128, 128}](c, out);
    });
    const double outError = example::maxRelativeError(out.copy_to_host(), expected);
    const std::vector<float> cHost = c.copy_to_host();
    double cError = 0;
    std::uniform_int_distribution<std::int64_t> row(0, m - 1), col(0, n - 1);
    for (int sample = 0; sample < 2000; ++sample) {
      const std::int64_t i = row(rng), j = col(rng);
      double dot = 0;
      for (std::int64_t p = 0; p < k; ++p)
        dot += static_cast<double>(a[i * k + p]) * b[p * n + j];
      cError = std::max(cError, std::abs(cHost[i * n + j] - dot) / dot);
    }
    const double gflops = 2.0 * m * k * n / secs * 1e-9;
    std::printf("matmul + column_sums (%lldx%lld @ %lldx%lld): %.1f ms, %.1f GFLOP/s; out within "
                "%.1e, sampled C within %.1e (relative)\n",
                (long long)m, (long long)k, (long long)k, (long long)n, secs * 1e3, gflops,
                outError, cError);
    example::result("tiled_matmul_column_sums", secs, outError < 1e-4 && cError < 1e-4);

    // The seed's kernel under the bounds check, on the CPU backend, with small matrices.
    pyk::RuntimeSettings checked = pyk::settings();
    checked.backend = pyk::BackendChoice::Cpu;
    checked.bounds_check = true; // as PYK_BOUNDSCHECK=1
    const pyk::ScopedSettings cpuWithChecks(checked);
    const std::int64_t sm = 64, sk = 32, sn = 48;
    auto sa = pyk::to_device<float, 2>(randomMatrix(sm, sk, rng), {sm, sk});
    auto sb = pyk::to_device<float, 2>(randomMatrix(sk, sn, rng), {sk, sn});
    auto sOut = pyk::device_array<float>(sn);
    bool caught = false;
    const double checkSecs = example::seconds([&] {
      try {
        module["matmul_reduce"][tiles(sm, sn)](sa, sb, sOut);
        pyk::synchronize();
      } catch (const pyk::Error& e) {
        std::printf("PYK_BOUNDSCHECK=1 caught the seed's kernel: %s\n", e.what());
        caught = std::string(e.what()).find("out of bounds") != std::string::npos ||
                 std::string(e.what()).find("out of range") != std::string::npos;
      }
    });
    example::result("seed_matmul_reduce_oob_caught", checkSecs, caught);
  });
}
