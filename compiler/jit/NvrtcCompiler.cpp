// NvrtcCompiler: NVRTC loaded with dlopen, its entry points by their exported names, and the
// compile of one program in memory (the project's one nvrtcCompileProgram call). The types are
// NVRTC's C ABI, declared here so pyk builds without the toolkit's headers.
#include "jit/NvrtcCompiler.h"

#include <dlfcn.h>

#include <algorithm>
#include <mutex>

#include "jit/LibraryLoader.h"

namespace pyk::jit {

namespace {

using NvrtcResult = int; // nvrtcResult
using NvrtcProgramHandle = struct NvrtcProgramOpaque*;
constexpr NvrtcResult kNvrtcSuccess = 0;

} // namespace

// The NVRTC library and the entry points pyk calls.
struct Nvrtc::EntryPoints {
  void* handle = nullptr;
  const char* (*getErrorString)(NvrtcResult) = nullptr;
  NvrtcResult (*version)(int*, int*) = nullptr;
  NvrtcResult (*createProgram)(NvrtcProgramHandle*, const char*, const char*, int,
                               const char* const*, const char* const*) = nullptr;
  NvrtcResult (*destroyProgram)(NvrtcProgramHandle*) = nullptr;
  NvrtcResult (*compileProgram)(NvrtcProgramHandle, int, const char* const*) = nullptr;
  NvrtcResult (*getProgramLogSize)(NvrtcProgramHandle, std::size_t*) = nullptr;
  NvrtcResult (*getProgramLog)(NvrtcProgramHandle, char*) = nullptr;
  NvrtcResult (*getPTXSize)(NvrtcProgramHandle, std::size_t*) = nullptr;
  NvrtcResult (*getPTX)(NvrtcProgramHandle, char*) = nullptr;
  NvrtcResult (*getCUBINSize)(NvrtcProgramHandle, std::size_t*) = nullptr;
  NvrtcResult (*getCUBIN)(NvrtcProgramHandle, char*) = nullptr;
  // Optional (NVRTC 11.2 on): the architectures it knows.
  NvrtcResult (*getNumSupportedArchs)(int*) = nullptr;
  NvrtcResult (*getSupportedArchs)(int*) = nullptr;

  std::string errorString(NvrtcResult r) const {
    const char* text = getErrorString(r);
    return text != nullptr ? text : "NVRTC error " + std::to_string(r);
  }
};

namespace {

using NvrtcLibrary = Nvrtc::EntryPoints;

// Where NVRTC is looked for, in order.
std::vector<std::string> candidatePaths(const std::string& libraryPath) {
  if (!libraryPath.empty())
    return {libraryPath}; // an explicit choice is the only one tried
  std::vector<std::string> paths = {"libnvrtc.so.13", "libnvrtc.so.12"};
#ifdef PYK_NVRTC_HINT
  paths.push_back(PYK_NVRTC_HINT);
#endif
  paths.push_back("libnvrtc.so");
  return paths;
}

const NvrtcLibrary* loadedLibrary(const std::string& libraryPath, std::string* whyNot) {
  static std::once_flag once;
  static NvrtcLibrary library;
  static bool loaded = false;
  static std::string reason;
  std::call_once(once, [&] {
    NvrtcLibrary l;
    auto resolveAll = [&](void* handle, std::string& missing) {
      return resolveSymbol(handle, "nvrtcGetErrorString", l.getErrorString, missing) &&
             resolveSymbol(handle, "nvrtcVersion", l.version, missing) &&
             resolveSymbol(handle, "nvrtcCreateProgram", l.createProgram, missing) &&
             resolveSymbol(handle, "nvrtcDestroyProgram", l.destroyProgram, missing) &&
             resolveSymbol(handle, "nvrtcCompileProgram", l.compileProgram, missing) &&
             resolveSymbol(handle, "nvrtcGetProgramLogSize", l.getProgramLogSize, missing) &&
             resolveSymbol(handle, "nvrtcGetProgramLog", l.getProgramLog, missing) &&
             resolveSymbol(handle, "nvrtcGetPTXSize", l.getPTXSize, missing) &&
             resolveSymbol(handle, "nvrtcGetPTX", l.getPTX, missing) &&
             resolveSymbol(handle, "nvrtcGetCUBINSize", l.getCUBINSize, missing) &&
             resolveSymbol(handle, "nvrtcGetCUBIN", l.getCUBIN, missing);
    };
    const std::vector<std::string> paths = candidatePaths(libraryPath);
    l.handle = openLibrary(paths, "NVRTC", "the CUDA toolkit's run-time compiler",
                           "install the CUDA toolkit, put its lib64 on LD_LIBRARY_PATH or name "
                           "the library in PYK_LIBNVRTC",
                           resolveAll, reason);
    if (l.handle == nullptr)
      return;
    // Optional (NVRTC 11.2 on): the architectures it knows.
    std::string ignored;
    resolveSymbol(l.handle, "nvrtcGetNumSupportedArchs", l.getNumSupportedArchs, ignored);
    resolveSymbol(l.handle, "nvrtcGetSupportedArchs", l.getSupportedArchs, ignored);
    library = l;
    loaded = true;
  });
  if (!loaded && whyNot != nullptr)
    *whyNot = reason;
  return loaded ? &library : nullptr;
}

// One NVRTC program, destroyed on every path out.
class NvrtcProgram {
public:
  explicit NvrtcProgram(const NvrtcLibrary& library) : library_(library) {}
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;
  ~NvrtcProgram() {
    if (program_ != nullptr)
      library_.destroyProgram(&program_);
  }
  NvrtcProgramHandle* address() { return &program_; }
  NvrtcProgramHandle get() const { return program_; }

private:
  const NvrtcLibrary& library_;
  NvrtcProgramHandle program_ = nullptr;
};

} // namespace

const Nvrtc* Nvrtc::load(const std::string& libraryPath, std::string* whyNot) {
  const NvrtcLibrary* library = loadedLibrary(libraryPath, whyNot);
  if (library == nullptr)
    return nullptr;
  static const Nvrtc nvrtc(*library); // the library is never unloaded
  return &nvrtc;
}

std::string nvrtcVersion(const Nvrtc* nvrtc) {
  return nvrtc != nullptr ? nvrtc->version() : "none";
}

std::string Nvrtc::version() const {
  int major = 0;
  int minor = 0;
  const NvrtcResult result = entries_.version(&major, &minor);
  if (result != kNvrtcSuccess)
    return "unknown (nvrtcVersion failed: " + entries_.errorString(result) + ")";
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<int> Nvrtc::supportedArchs() const {
  if (entries_.getNumSupportedArchs == nullptr || entries_.getSupportedArchs == nullptr)
    return {};
  int count = 0;
  if (entries_.getNumSupportedArchs(&count) != kNvrtcSuccess || count <= 0)
    return {};
  std::vector<int> archs(static_cast<std::size_t>(count));
  if (entries_.getSupportedArchs(archs.data()) != kNvrtcSuccess)
    return {};
  std::sort(archs.begin(), archs.end());
  return archs;
}

NvrtcOutput Nvrtc::compile(const std::string& source, const std::string& name,
                           const CudaTarget& target, const std::vector<std::string>& extraOptions,
                           const std::vector<std::pair<std::string, std::string>>& headers) const {
  NvrtcOutput out;
  const NvrtcLibrary* nvrtc = &entries_;
  // Appends "CALL failed: NVRTC's message" to the log and reports whether the call succeeded.
  auto succeeded = [&](NvrtcResult result, const char* call) {
    if (result == kNvrtcSuccess)
      return true;
    if (!out.log.empty() && out.log.back() != '\n')
      out.log += '\n';
    out.log += std::string(call) + " failed: " + nvrtc->errorString(result) + "\n";
    out.ok = false;
    return false;
  };
  std::vector<const char*> headerSources;
  std::vector<const char*> headerNames;
  for (const auto& [headerName, contents] : headers) {
    headerNames.push_back(headerName.c_str());
    headerSources.push_back(contents.c_str());
  }
  NvrtcProgram program(*nvrtc);
  if (!succeeded(nvrtc->createProgram(program.address(), source.c_str(), name.c_str(),
                                      static_cast<int>(headers.size()),
                                      headers.empty() ? nullptr : headerSources.data(),
                                      headers.empty() ? nullptr : headerNames.data()),
                 "nvrtcCreateProgram"))
    return out;

  std::vector<std::string> options = {std::string("--gpu-architecture=") +
                                          (target.cubin ? "sm_" : "compute_") +
                                          archNumber(target.arch),
                                      "-std=c++17", "-default-device"};
  options.insert(options.end(), extraOptions.begin(), extraOptions.end());
  std::vector<const char*> optionPointers;
  for (const std::string& option : options)
    optionPointers.push_back(option.c_str());

  const NvrtcResult compiled = nvrtc->compileProgram(
      program.get(), static_cast<int>(optionPointers.size()), optionPointers.data());

  // The log carries warnings on success and the errors (file(line): error: ...) on failure.
  std::size_t logSize = 0;
  if (!succeeded(nvrtc->getProgramLogSize(program.get(), &logSize), "nvrtcGetProgramLogSize"))
    return out;
  if (logSize > 1) {
    std::string log(logSize, '\0');
    if (!succeeded(nvrtc->getProgramLog(program.get(), log.data()), "nvrtcGetProgramLog"))
      return out;
    log.resize(logSize - 1); // drop the terminating NUL
    out.log = log;
  }
  if (!succeeded(compiled, "nvrtcCompileProgram"))
    return out;

  if (target.cubin) {
    std::size_t size = 0;
    if (!succeeded(nvrtc->getCUBINSize(program.get(), &size), "nvrtcGetCUBINSize"))
      return out;
    out.cubin.assign(size, '\0');
    if (!succeeded(nvrtc->getCUBIN(program.get(), out.cubin.data()), "nvrtcGetCUBIN"))
      return out;
  } else {
    std::size_t size = 0;
    if (!succeeded(nvrtc->getPTXSize(program.get(), &size), "nvrtcGetPTXSize"))
      return out;
    out.ptx.assign(size, '\0');
    if (!succeeded(nvrtc->getPTX(program.get(), out.ptx.data()), "nvrtcGetPTX"))
      return out;
    if (!out.ptx.empty() && out.ptx.back() == '\0')
      out.ptx.pop_back();
  }
  out.ok = true;
  return out;
}

} // namespace pyk::jit
