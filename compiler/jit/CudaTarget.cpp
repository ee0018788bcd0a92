// CudaTarget: the target's description and the choice of a target for a device.
#include "jit/CudaTarget.h"

#include <algorithm>
#include <vector>

#include "jit/NvrtcCompiler.h"

namespace pyk::jit {

std::string archNumber(const std::string& arch) {
  for (const char* prefix : {"sm_", "compute_"}) {
    const std::string p = prefix;
    if (arch.rfind(p, 0) == 0)
      return arch.substr(p.size());
  }
  return arch;
}

std::string CudaTarget::describe() const {
  return (cubin ? "cubin sm_" + archNumber(arch) : "ptx compute_" + archNumber(arch)) +
         (index32 ? " index32" : "");
}

std::optional<CudaTarget> cudaTargetFor(const Nvrtc* nvrtc, int major, int minor) {
  const int cc = major * 10 + minor;
  const std::vector<int> known = nvrtc != nullptr ? nvrtc->supportedArchs() : std::vector<int>{};
  if (known.empty() || std::find(known.begin(), known.end(), cc) != known.end())
    return CudaTarget{std::to_string(cc), true};
  int best = 0;
  for (int a : known)
    if (a <= cc)
      best = a;
  if (best == 0)
    return std::nullopt;
  return CudaTarget{std::to_string(best), false};
}

} // namespace pyk::jit
