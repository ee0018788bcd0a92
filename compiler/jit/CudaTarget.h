// CudaTarget: what NVRTC compiles a unit for (an architecture, as SASS in a CUBIN or as PTX), and
// the choice of it for a device: the device's own architecture as a CUBIN; when NVRTC does not
// know that architecture (a device newer than the toolkit), PTX for the newest one it knows below
// it, which the driver compiles when loading.
#pragma once

#include <optional>
#include <string>

namespace pyk::jit {

class Nvrtc;

struct CudaTarget {
  std::string arch;  // "sm_90", "compute_90" or "90": the number is what counts
  bool cubin = true; // SASS for sm_XX in a CUBIN; otherwise PTX for compute_XX
  // The 32-bit index variant (PYK_INDEX32: stdlib/cuda/grid_index.h, Array in
  // stdlib/common/arrays.h): for launches whose arrays each have under 2**31 elements and whose
  // grid axes under 2**31 threads.
  bool index32 = false;
  // "cubin sm_90" / "ptx compute_90", then " index32" for that variant
  std::string describe() const;
};

// "sm_90" / "compute_90" / "90" -> "90".
std::string archNumber(const std::string& arch);

// The target for a device of compute capability major.minor with `nvrtc` (a CUBIN for its own
// architecture when NVRTC knows it or lists none, else PTX for the newest it knows below it);
// std::nullopt when NVRTC knows no architecture the device can run (it is older than all of them).
std::optional<CudaTarget> cudaTargetFor(const Nvrtc* nvrtc, int major, int minor);

} // namespace pyk::jit
