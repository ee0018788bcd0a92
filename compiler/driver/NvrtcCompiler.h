// NvrtcCompiler: CUDA C++ source to PTX or CUBIN with NVRTC, in memory. NVRTC is loaded at run
// time (dlopen of $PYK_LIBNVRTC, libnvrtc.so.13, libnvrtc.so.12, the toolkit's copy found when pyk
// was configured, then libnvrtc.so), never linked: one pyk binary builds without the CUDA toolkit
// and runs on machines with or without it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pyk::driver {

struct NvrtcOutput {
  bool ok = false;
  std::string log;   // NVRTC's program log (warnings, errors with file(line)), then our error line
  std::string ptx;   // set when compiled for PTX (wantCubin == false)
  std::string cubin; // set when compiled for CUBIN (wantCubin == true); binary
};

// Compiles `source` (named `name` in diagnostics) for `arch` ("sm_90"; "compute_90" also taken).
// wantCubin: SASS for sm_XX in a CUBIN; otherwise PTX for compute_XX. Options: -std=c++17,
// -default-device, then `extraOptions` (e.g. "--use_fast_math"). `headers` are (include name,
// contents) pairs handed to nvrtcCreateProgram, so `#include "name"` needs no include path.
// Never throws for compile errors: ok is false and log says why (the failing NVRTC call and
// nvrtcGetErrorString, or why NVRTC could not be loaded).
NvrtcOutput compileWithNvrtc(const std::string& source, const std::string& name,
                             const std::string& arch, bool wantCubin,
                             const std::vector<std::string>& extraOptions,
                             const std::vector<std::pair<std::string, std::string>>& headers);

// "13.0" (NVRTC's own version), or "none" when NVRTC cannot be loaded. Part of cache keys.
std::string nvrtcVersion();

// Whether NVRTC could be loaded (once per process); when not, `whyNot` says why.
bool haveNvrtc(std::string* whyNot = nullptr);

// The real architectures NVRTC can produce SASS for (75, 80, 86, 89, 90, ...), ascending; empty
// without NVRTC.
std::vector<int> nvrtcSupportedArchs();

} // namespace pyk::driver
