// pyk_cuda_available: exits 0 when kernels can run on CUDA here, else prints why and exits 77
// (CTest's SKIP_RETURN_CODE for the `gpu` tests), so that a machine without a GPU skips them with
// the reason instead of failing.
#include <pyk/pyk.hpp>

#include <cstdio>

int main() {
  const std::string why = pyk::cuda_unavailable();
  if (why.empty()) {
    for (const pyk::GpuInfo& g : pyk::gpus())
      std::printf("pyk: CUDA device %d: %s (sm_%d%d)\n", g.id, g.name.c_str(),
                  g.compute_capability_major, g.compute_capability_minor);
    return 0;
  }
  std::printf("SKIPPED: this `gpu` test needs a CUDA device: %s\n", why.c_str());
  return 77;
}
