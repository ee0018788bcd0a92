// Device: the backend choice. This pyk has the CPU backend only (the CUDA backend is issue 5), so
// `auto` is the CPU and asking for CUDA is a clear error rather than a silent fallback.
#include <cstdlib>

#include "pyk/device.hpp"
#include "pyk/error.hpp"

namespace pyk {

Backend currentBackend() {
  const char* env = std::getenv("PYK_BACKEND");
  const std::string choice = env != nullptr ? env : "";
  if (choice.empty() || choice == "auto" || choice == "cpu")
    return Backend::Cpu;
  if (choice == "cuda")
    throw Error(ErrorKind::Device, "PYK_BACKEND=cuda: this pyk has no CUDA backend yet; unset "
                                   "PYK_BACKEND or set it to cpu");
  throw Error(ErrorKind::InvalidArgument,
              "PYK_BACKEND=" + choice + " is not a backend (cuda, cpu or auto)");
}

const char* backendName(Backend backend) {
  return backend == Backend::Cuda ? "cuda" : "cpu";
}

std::vector<GpuInfo> gpus() {
  return {};
}

void select_device(int id) {
  throw Error(ErrorKind::Device, "select_device(" + std::to_string(id) +
                                     "): no CUDA device is available to pyk (the CPU backend "
                                     "runs kernels)");
}

} // namespace pyk
