// NvrtcCompiler: CUDA C++ source to PTX or CUBIN with NVRTC, in memory. NVRTC is loaded at run
// time (dlopen of the library the caller names, else libnvrtc.so.13, libnvrtc.so.12, the toolkit's
// copy found when pyk was configured, then libnvrtc.so), never linked: one pyk binary builds
// without the CUDA toolkit and runs on machines with or without it. Its compile is the one place
// the project calls nvrtcCreateProgram and nvrtcCompileProgram.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "jit/CudaTarget.h"

namespace pyk::jit {

struct NvrtcOutput {
  bool ok = false;
  std::string log;   // NVRTC's program log (warnings, errors with file(line)), then our error line
  std::string ptx;   // set when compiled for PTX (target.cubin == false)
  std::string cubin; // set when compiled for CUBIN (target.cubin == true); binary
};

// NVRTC as this process loaded it.
class Nvrtc {
public:
  // NVRTC, loaded at the first call in the process: `libraryPath` alone when not empty (the
  // runtime's libnvrtc setting, $PYK_LIBNVRTC), else the usual names. Later calls return the
  // library the first one loaded, whatever path they name. nullptr when it cannot be loaded;
  // `whyNot` then says why.
  static const Nvrtc* load(const std::string& libraryPath, std::string* whyNot = nullptr);

  // "13.0" (NVRTC's own version). Part of cache keys.
  std::string version() const;

  // The real architectures NVRTC can produce SASS for (75, 80, 86, 89, 90, ...), ascending; empty
  // when this NVRTC cannot list them.
  std::vector<int> supportedArchs() const;

  // Compiles `source` (named `name` in diagnostics) for `target`. Options: -std=c++17,
  // -default-device, then `extraOptions` (e.g. "--use_fast_math"). `headers` are (include name,
  // contents) pairs handed to nvrtcCreateProgram, so `#include "name"` needs no include path.
  // Never throws for compile errors: ok is false and log says why (the failing NVRTC call and
  // nvrtcGetErrorString).
  NvrtcOutput compile(const std::string& source, const std::string& name, const CudaTarget& target,
                      const std::vector<std::string>& extraOptions,
                      const std::vector<std::pair<std::string, std::string>>& headers) const;

  struct EntryPoints; // NVRTC's functions, resolved by their exported names

private:
  explicit Nvrtc(const EntryPoints& entries) : entries_(entries) {}
  const EntryPoints& entries_;
};

// `nvrtc`'s version, or "none" when it is null (NVRTC cannot be loaded). Part of cache keys.
std::string nvrtcVersion(const Nvrtc* nvrtc);

} // namespace pyk::jit
