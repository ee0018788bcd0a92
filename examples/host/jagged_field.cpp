// jagged_field: see jagged_field.h. The 2-D FFTs are row transforms then column transforms, each
// a recursive mixed-radix Cooley-Tukey transform (2000 = 2**4 * 5**3), run on all cores.
#include "jagged_field.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <thread>

namespace example {

namespace {

using Complex = std::complex<double>;

// The discrete Fourier transform of one length-n sequence, exp(sign 2 pi i j k / n) kernels.
class Fft {
public:
  Fft(int n, int sign) : n_(n), twiddles_(n), scratch_(n), out_(n) {
    for (int j = 0; j < n; ++j)
      twiddles_[j] = std::polar(1.0, sign * 2 * std::numbers::pi * j / n);
  }

  // data[0], data[stride], ... transformed in place.
  void operator()(Complex* data, std::ptrdiff_t stride) {
    for (int j = 0; j < n_; ++j)
      scratch_[j] = data[j * stride];
    transform(scratch_.data(), n_, 1, out_.data());
    for (int j = 0; j < n_; ++j)
      data[j * stride] = out_[j];
  }

private:
  static int smallestFactor(int n) {
    for (int p = 2; p * p <= n; ++p)
      if (n % p == 0)
        return p;
    return n;
  }

  // out[0..n) = the transform of in[0], in[step], ..., in[(n-1) step] (n divides n_).
  void transform(const Complex* in, int n, int step, Complex* out) {
    if (n == 1) {
      out[0] = in[0];
      return;
    }
    const int p = smallestFactor(n), m = n / p;
    // The p interleaved subsequences' transforms, one after another in out.
    for (int r = 0; r < p; ++r)
      transform(in + r * step, m, step * p, out + r * m);
    // Combined: X[k] = sum_r W_n^(r k) F_r[k mod m], with W_n^j = twiddles_[j * step mod n_].
    std::vector<Complex> combined(p);
    for (int k = 0; k < m; ++k) {
      for (int q = 0; q < p; ++q) {
        Complex sum = 0;
        for (int r = 0; r < p; ++r)
          sum += out[r * m + k] * twiddles_[(static_cast<long>(r) * (k + q * m) * step) % n_];
        combined[q] = sum;
      }
      for (int q = 0; q < p; ++q)
        out[q * m + k] = combined[q];
    }
  }

  int n_;
  std::vector<Complex> twiddles_, scratch_, out_;
};

// Rows then columns of a rows x cols array, split over the cores.
void fft2(std::vector<Complex>& a, int rows, int cols, int sign) {
  const int workers = std::max(1u, std::thread::hardware_concurrency());
  auto inParallel = [&](int count, auto&& each) {
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w)
      threads.emplace_back([&, w] {
        for (int i = w; i < count; i += workers)
          each(i);
      });
    for (std::thread& t : threads)
      t.join();
  };
  inParallel(rows, [&](int r) {
    Fft fft(cols, sign);
    fft(&a[static_cast<std::size_t>(r) * cols], 1);
  });
  inParallel(cols, [&](int c) {
    Fft fft(rows, sign);
    fft(&a[c], cols);
  });
}

} // namespace

std::vector<float> jaggedField(int rows, int cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<Complex> a(static_cast<std::size_t>(rows) * cols);
  for (Complex& v : a)
    v = uniform(rng);

  // fftshift(fft2(field)) * radius**-1.7, then ifft2(ifftshift(...)): with the zero frequency at
  // index 0, the radius of frequency (i, j) is measured from the shifted centre.
  fft2(a, rows, cols, -1);
  auto centred = [](int index, int n) { return (index + n / 2) % n - n / 2; }; // fftshift's view
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const double di = centred(i, rows), dj = centred(j, cols);
      a[static_cast<std::size_t>(i) * cols + j] *= std::pow(1 + std::hypot(di, dj), -1.7);
    }
  fft2(a, rows, cols, +1);

  // The real part (numpy's ifft divides by the size), inside the disc of radius 0.45 * rows.
  std::vector<float> field(a.size());
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const double radius = 1 + std::hypot(i - rows / 2, j - cols / 2);
      const std::size_t at = static_cast<std::size_t>(i) * cols + j;
      field[at] = radius < 0.45 * rows ? static_cast<float>(a[at].real() / a.size()) : 0.0f;
    }
  // Kept where above the 70th percentile (numpy's, linear between the two nearest ranks).
  std::vector<float> sorted = field;
  const double rank = 0.7 * (sorted.size() - 1);
  const std::size_t below = static_cast<std::size_t>(rank);
  std::nth_element(sorted.begin(), sorted.begin() + below, sorted.end());
  const float low = sorted[below];
  const float high = *std::min_element(sorted.begin() + below + 1, sorted.end());
  const float threshold = static_cast<float>(low + (rank - below) * (high - low));
  for (float& v : field)
    v = v > threshold ? v : 0.0f;
  return field;
}

} // namespace example
