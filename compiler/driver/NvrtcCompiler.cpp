// NvrtcCompiler: CUDA C++ source to PTX or CUBIN with NVRTC, in memory.
#include "driver/NvrtcCompiler.h"

#ifdef PYK_HAVE_NVRTC
#include <nvrtc.h>
#endif

namespace pyk::driver {

#ifdef PYK_HAVE_NVRTC

namespace {

// "sm_90" / "compute_90" / "90" -> "90".
std::string archNumber(const std::string& arch) {
  for (const char* prefix : {"sm_", "compute_"}) {
    const std::string p = prefix;
    if (arch.rfind(p, 0) == 0)
      return arch.substr(p.size());
  }
  return arch;
}

// One NVRTC program, destroyed on every path out.
class NvrtcProgram {
public:
  NvrtcProgram() = default;
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;
  ~NvrtcProgram() {
    if (program_ != nullptr)
      nvrtcDestroyProgram(&program_);
  }
  nvrtcProgram* address() { return &program_; }
  nvrtcProgram get() const { return program_; }

private:
  nvrtcProgram program_ = nullptr;
};

// Appends "CALL failed: NVRTC's message" to the log and reports whether the call succeeded.
bool succeeded(nvrtcResult result, const char* call, NvrtcOutput& out) {
  if (result == NVRTC_SUCCESS)
    return true;
  if (!out.log.empty() && out.log.back() != '\n')
    out.log += '\n';
  out.log += std::string(call) + " failed: " + nvrtcGetErrorString(result) + "\n";
  out.ok = false;
  return false;
}

} // namespace

NvrtcOutput compileWithNvrtc(const std::string& source, const std::string& name,
                             const std::string& arch, bool wantCubin,
                             const std::vector<std::string>& extraOptions,
                             const std::vector<std::pair<std::string, std::string>>& headers) {
  NvrtcOutput out;
  std::vector<const char*> headerSources;
  std::vector<const char*> headerNames;
  for (const auto& [headerName, contents] : headers) {
    headerNames.push_back(headerName.c_str());
    headerSources.push_back(contents.c_str());
  }
  NvrtcProgram program;
  if (!succeeded(nvrtcCreateProgram(program.address(), source.c_str(), name.c_str(),
                                    static_cast<int>(headers.size()),
                                    headers.empty() ? nullptr : headerSources.data(),
                                    headers.empty() ? nullptr : headerNames.data()),
                 "nvrtcCreateProgram", out))
    return out;

  std::vector<std::string> options = {std::string("--gpu-architecture=") +
                                          (wantCubin ? "sm_" : "compute_") + archNumber(arch),
                                      "-std=c++17", "-default-device"};
  options.insert(options.end(), extraOptions.begin(), extraOptions.end());
  std::vector<const char*> optionPointers;
  for (const std::string& option : options)
    optionPointers.push_back(option.c_str());

  const nvrtcResult compiled = nvrtcCompileProgram(
      program.get(), static_cast<int>(optionPointers.size()), optionPointers.data());

  // The log carries warnings on success and the errors (file(line): error: ...) on failure.
  size_t logSize = 0;
  if (!succeeded(nvrtcGetProgramLogSize(program.get(), &logSize), "nvrtcGetProgramLogSize", out))
    return out;
  if (logSize > 1) {
    std::string log(logSize, '\0');
    if (!succeeded(nvrtcGetProgramLog(program.get(), log.data()), "nvrtcGetProgramLog", out))
      return out;
    log.resize(logSize - 1); // drop the terminating NUL
    out.log = log;
  }
  if (!succeeded(compiled, "nvrtcCompileProgram", out))
    return out;

  if (wantCubin) {
    size_t size = 0;
    if (!succeeded(nvrtcGetCUBINSize(program.get(), &size), "nvrtcGetCUBINSize", out))
      return out;
    out.cubin.assign(size, '\0');
    if (!succeeded(nvrtcGetCUBIN(program.get(), out.cubin.data()), "nvrtcGetCUBIN", out))
      return out;
  } else {
    size_t size = 0;
    if (!succeeded(nvrtcGetPTXSize(program.get(), &size), "nvrtcGetPTXSize", out))
      return out;
    out.ptx.assign(size, '\0');
    if (!succeeded(nvrtcGetPTX(program.get(), out.ptx.data()), "nvrtcGetPTX", out))
      return out;
    if (!out.ptx.empty() && out.ptx.back() == '\0')
      out.ptx.pop_back();
  }
  out.ok = true;
  return out;
}

std::string nvrtcVersion() {
  int major = 0;
  int minor = 0;
  const nvrtcResult result = ::nvrtcVersion(&major, &minor);
  if (result != NVRTC_SUCCESS)
    return std::string("unknown (nvrtcVersion failed: ") + nvrtcGetErrorString(result) + ")";
  return std::to_string(major) + "." + std::to_string(minor);
}

bool haveNvrtc() {
  return true;
}

#else // !PYK_HAVE_NVRTC

namespace {
constexpr const char* kBuiltWithoutNvrtc = "pyk was built without NVRTC (no CUDA toolkit was found "
                                           "when it was configured), so it cannot compile CUDA";
}

NvrtcOutput compileWithNvrtc(const std::string&, const std::string&, const std::string&, bool,
                             const std::vector<std::string>&,
                             const std::vector<std::pair<std::string, std::string>>&) {
  NvrtcOutput out;
  out.log = kBuiltWithoutNvrtc;
  return out;
}

std::string nvrtcVersion() {
  return "none";
}

bool haveNvrtc() {
  return false;
}

#endif // PYK_HAVE_NVRTC

} // namespace pyk::driver
