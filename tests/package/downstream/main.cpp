// The downstream program: saxpy built ahead of time, launched through its typed function; then a
// signature that was not built, which without a compiler must be a clear error.
#include <cstdio>
#include <string>
#include <vector>

#include "saxpy.hpp"

int main() {
  const std::size_t n = 1 << 16;
  std::vector<float> x(n), y(n, 1.0f);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = static_cast<float>(i % 1000);
  auto dx = pyk::to_device(x);
  auto dy = pyk::to_device(y);
  saxpy::saxpy({(n + 255) / 256}, {256}, 3.0f, dx, dy);
  const std::vector<float> out = dy.copy_to_host();
  for (std::size_t i = 0; i < n; ++i)
    if (out[i] != 3.0f * x[i] + 1.0f) {
      std::fprintf(stderr, "saxpy: element %zu is %g, not %g\n", i, out[i], 3.0f * x[i] + 1.0f);
      return 1;
    }
  std::printf("saxpy built ahead of time: %zu elements correct on %s\n", n,
              pyk::backend_name(pyk::current_backend()));
  auto dd = pyk::to_device(std::vector<double>{1, 2});
  try {
    saxpy::module()["saxpy"].launch({1}, {32})(2.0, dd, dd);
    std::printf("saxpy(float64, ...) was compiled at run time (a compiler is available)\n");
  } catch (const pyk::Error& e) {
    const std::string message = e.what();
    if (message.find("was not built ahead of time") == std::string::npos) {
      std::fprintf(stderr, "unexpected error: %s\n", e.what());
      return 1;
    }
    std::printf("saxpy(float64, ...) without a compiler: pyk::Error, as it should\n");
  }
  return 0;
}
