// thrust_interop: a pyk kernel on memory Thrust owns. A thrust::device_vector of a million
// samples is filled and reduced by Thrust (mean and standard deviation), standardized in place by
// examples/standardize.pyk through a pyk array over the vector's own pointer (no copy), then
// sorted by Thrust; the result is checked against the same steps on the host.
//
// This build's Thrust is Debian's libthrust-dev with its OpenMP system: its "device" memory is the
// host's, so the kernel runs on pyk's CPU backend (the program selects it). Thrust's CUDA system
// and cuBLAS need the CUDA toolkit's nvcc, which this build does not use: the cuBLAS step is
// reported as skipped, with that reason.
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "example.h"

namespace {

struct SquaredDeviation {
  float mean;
  float operator()(float x) const { return (x - mean) * (x - mean); }
};

} // namespace

int main(int argc, char** argv) {
  // Thrust's OpenMP system holds host memory: the CPU backend's arrays are host memory too.
  pyk::RuntimeSettings settings = pyk::settings();
  settings.backend = pyk::BackendChoice::Cpu;
  pyk::set_settings(settings);
  return example::run(argc, argv, [](const example::Options& o) {
    const std::int64_t n = 1 << 20;
    std::mt19937 rng(7);
    std::normal_distribution<float> normal(5.0f, 3.0f);
    std::vector<float> host(n);
    for (float& v : host)
      v = normal(rng);

    thrust::device_vector<float> samples(host.begin(), host.end());
    const float mean = thrust::reduce(samples.begin(), samples.end(), 0.0f) / n;
    const float variance =
        thrust::transform_reduce(samples.begin(), samples.end(), SquaredDeviation{mean}, 0.0f,
                                 thrust::plus<float>()) /
        n;
    const float invStd = 1.0f / std::sqrt(variance);

    // The vector's memory as a pyk array (Thrust keeps owning it), on a stream of pyk's.
    pyk::DeviceArray<float, 1> x =
        pyk::from_device_pointer<float, 1>(thrust::raw_pointer_cast(samples.data()), {n});
    pyk::Kernel standardize = pyk::load(o.examples / "standardize.pyk")["standardize"];
    pyk::Stream stream = pyk::stream();
    const std::int64_t threads = 256, blocks = (n + threads - 1) / threads;
    const double compile = example::seconds([&] { standardize.specialize(x, mean, invStd); });
    const double kernel =
        example::seconds([&] { standardize.launch(blocks, threads, stream)(x, mean, invStd); });
    stream.synchronize(); // Thrust's calls below are not ordered by pyk's stream
    const double sort = example::seconds([&] { thrust::sort(samples.begin(), samples.end()); });

    // The same on the host: the mean and deviation Thrust found, the standardization, the sort.
    std::vector<float> expected(n);
    for (std::int64_t i = 0; i < n; ++i)
      expected[i] = (host[i] - mean) * invStd;
    std::sort(expected.begin(), expected.end());
    std::vector<float> got(n);
    thrust::copy(samples.begin(), samples.end(), got.begin());
    const bool sorted = std::is_sorted(got.begin(), got.end());
    const double error = example::maxRelativeError(got, expected, 1e-3);
    double sum = 0, squares = 0;
    for (float v : got) {
      sum += v;
      squares += static_cast<double>(v) * v;
    }
    const double gotMean = sum / n, gotStd = std::sqrt(squares / n - gotMean * gotMean);
    std::printf(
        "1M samples: Thrust's mean %.4f, std %.4f; standardized by pyk in %.2f ms (compiled "
        "first in %.0f ms), sorted by Thrust in %.2f ms: mean %.2e, std %.6f, max "
        "relative error %.1e\n",
        mean, std::sqrt(variance), kernel * 1e3, compile * 1e3, sort * 1e3, gotMean, gotStd, error);
    std::printf("cuBLAS on the same stream: skipped (this build's Thrust is its OpenMP system; "
                "Thrust on CUDA and cuBLAS need the CUDA toolkit's nvcc)\n");
    example::result("thrust_interop_standardize", kernel,
                    sorted && error <= 1e-5 && std::abs(gotMean) < 1e-3 &&
                        std::abs(gotStd - 1.0) < 1e-3);
  });
}
