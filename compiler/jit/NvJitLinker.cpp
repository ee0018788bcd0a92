// NvJitLinker: nvJitLink loaded with dlopen, its entry points by their exported names (the plain
// ones of nvJitLink 13, else the versioned `__nvJitLinkCreate_12_N` that nvJitLink 12's header
// maps them to), and one link in memory. The types are nvJitLink's C ABI, declared here so pyk
// builds without the toolkit's headers.
#include "jit/NvJitLinker.h"

#include <cstdint>
#include <iterator>
#include <mutex>

#include "jit/CudaTarget.h"
#include "jit/LibraryLoader.h"

namespace pyk::jit {

namespace {

using NvJitLinkResult = int; // nvJitLinkResult
using NvJitLinkHandle = struct NvJitLinkOpaque*;
constexpr NvJitLinkResult kNvJitLinkSuccess = 0;

// nvJitLinkInputType, as nvJitLink.h numbers them.
int nvJitLinkInputType(types::LinkedCodeKind kind) {
  switch (kind) {
  case types::LinkedCodeKind::Cubin:
    return 1;
  case types::LinkedCodeKind::Ptx:
    return 2;
  case types::LinkedCodeKind::LtoIr:
    return 3;
  case types::LinkedCodeKind::Fatbin:
    return 4;
  case types::LinkedCodeKind::Object:
    return 5;
  case types::LinkedCodeKind::Archive:
    return 6;
  case types::LinkedCodeKind::Cu:
    break;
  }
  return 0;
}

// nvJitLinkResult's names (nvJitLink.h), for the log of a failed call.
std::string nvJitLinkResultName(NvJitLinkResult r) {
  static const char* const kNames[] = {"NVJITLINK_SUCCESS",
                                       "NVJITLINK_ERROR_UNRECOGNIZED_OPTION",
                                       "NVJITLINK_ERROR_MISSING_ARCH",
                                       "NVJITLINK_ERROR_INVALID_INPUT",
                                       "NVJITLINK_ERROR_PTX_COMPILE",
                                       "NVJITLINK_ERROR_NVVM_COMPILE",
                                       "NVJITLINK_ERROR_INTERNAL",
                                       "NVJITLINK_ERROR_THREADPOOL",
                                       "NVJITLINK_ERROR_UNRECOGNIZED_INPUT",
                                       "NVJITLINK_ERROR_FINALIZE",
                                       "NVJITLINK_ERROR_NULL_INPUT",
                                       "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS",
                                       "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE",
                                       "NVJITLINK_ERROR_ARCH_MISMATCH",
                                       "NVJITLINK_ERROR_OUTDATED_LIBRARY",
                                       "NVJITLINK_ERROR_MISSING_FATBIN",
                                       "NVJITLINK_ERROR_UNRECOGNIZED_ARCH",
                                       "NVJITLINK_ERROR_UNSUPPORTED_ARCH",
                                       "NVJITLINK_ERROR_LTO_NOT_ENABLED"};
  if (r >= 0 && static_cast<size_t>(r) < std::size(kNames))
    return kNames[r];
  return "nvJitLink error " + std::to_string(r);
}

} // namespace

struct NvJitLinker::EntryPoints {
  void* handle = nullptr;
  NvJitLinkResult (*create)(NvJitLinkHandle*, uint32_t, const char**) = nullptr;
  NvJitLinkResult (*destroy)(NvJitLinkHandle*) = nullptr;
  NvJitLinkResult (*addData)(NvJitLinkHandle, int, const void*, size_t, const char*) = nullptr;
  NvJitLinkResult (*complete)(NvJitLinkHandle) = nullptr;
  NvJitLinkResult (*getLinkedCubinSize)(NvJitLinkHandle, size_t*) = nullptr;
  NvJitLinkResult (*getLinkedCubin)(NvJitLinkHandle, void*) = nullptr;
  NvJitLinkResult (*getErrorLogSize)(NvJitLinkHandle, size_t*) = nullptr;
  NvJitLinkResult (*getErrorLog)(NvJitLinkHandle, char*) = nullptr;
  NvJitLinkResult (*version)(unsigned*, unsigned*) = nullptr; // nvJitLink 12.3 on
};

namespace {

using NvJitLinkLibrary = NvJitLinker::EntryPoints;

// `name`, else the versioned name nvJitLink 12's header calls (`__nvJitLinkCreate_12_0`...).
template <typename F>
bool resolveVersioned(void* handle, const std::string& name, F& slot, std::string& whyNot) {
  if (resolveSymbol(handle, name, slot, whyNot))
    return true;
  for (int major : {13, 12})
    for (int minor = 0; minor <= 9; ++minor)
      if (std::string ignored; resolveSymbol(
              handle, "__" + name + "_" + std::to_string(major) + "_" + std::to_string(minor), slot,
              ignored))
        return true;
  return false;
}

std::vector<std::string> nvJitLinkPaths(const std::string& libraryPath) {
  if (!libraryPath.empty())
    return {libraryPath}; // an explicit choice is the only one tried
  std::vector<std::string> paths = {"libnvJitLink.so.13", "libnvJitLink.so.12"};
#ifdef PYK_NVJITLINK_HINT
  paths.push_back(PYK_NVJITLINK_HINT);
#endif
  paths.push_back("libnvJitLink.so");
  return paths;
}

const NvJitLinkLibrary* loadedNvJitLink(const std::string& libraryPath, std::string* whyNot) {
  static std::once_flag once;
  static NvJitLinkLibrary library;
  static bool loaded = false;
  static std::string reason;
  std::call_once(once, [&] {
    NvJitLinkLibrary l;
    auto resolveAll = [&](void* handle, std::string& missing) {
      return resolveVersioned(handle, "nvJitLinkCreate", l.create, missing) &&
             resolveVersioned(handle, "nvJitLinkDestroy", l.destroy, missing) &&
             resolveVersioned(handle, "nvJitLinkAddData", l.addData, missing) &&
             resolveVersioned(handle, "nvJitLinkComplete", l.complete, missing) &&
             resolveVersioned(handle, "nvJitLinkGetLinkedCubinSize", l.getLinkedCubinSize,
                              missing) &&
             resolveVersioned(handle, "nvJitLinkGetLinkedCubin", l.getLinkedCubin, missing) &&
             resolveVersioned(handle, "nvJitLinkGetErrorLogSize", l.getErrorLogSize, missing) &&
             resolveVersioned(handle, "nvJitLinkGetErrorLog", l.getErrorLog, missing);
    };
    l.handle =
        openLibrary(nvJitLinkPaths(libraryPath), "nvJitLink", "the CUDA toolkit's linker library",
                    "install the CUDA toolkit 12 or later, put its lib64 on LD_LIBRARY_PATH "
                    "or name the library in PYK_LIBNVJITLINK",
                    resolveAll, reason);
    if (l.handle == nullptr)
      return;
    std::string ignored;
    resolveVersioned(l.handle, "nvJitLinkVersion", l.version, ignored); // nvJitLink 12.3 on
    library = l;
    loaded = true;
  });
  if (!loaded && whyNot != nullptr)
    *whyNot = reason;
  return loaded ? &library : nullptr;
}

// One link, destroyed on every path out.
class NvJitLinkSession {
public:
  explicit NvJitLinkSession(const NvJitLinkLibrary& library) : library_(library) {}
  NvJitLinkSession(const NvJitLinkSession&) = delete;
  NvJitLinkSession& operator=(const NvJitLinkSession&) = delete;
  ~NvJitLinkSession() {
    if (handle_ != nullptr)
      library_.destroy(&handle_);
  }
  NvJitLinkHandle* address() { return &handle_; }
  NvJitLinkHandle get() const { return handle_; }

private:
  const NvJitLinkLibrary& library_;
  NvJitLinkHandle handle_ = nullptr;
};

} // namespace

const NvJitLinker* NvJitLinker::load(const std::string& libraryPath, std::string* whyNot) {
  const NvJitLinkLibrary* library = loadedNvJitLink(libraryPath, whyNot);
  if (library == nullptr)
    return nullptr;
  static const NvJitLinker linker(*library); // the library is never unloaded
  return &linker;
}

std::string NvJitLinker::version() const {
  unsigned major = 0;
  unsigned minor = 0;
  if (entries_.version == nullptr || entries_.version(&major, &minor) != kNvJitLinkSuccess)
    return "12"; // before nvJitLinkVersion (12.3)
  return std::to_string(major) + "." + std::to_string(minor);
}

NvJitLinkOutput NvJitLinker::link(const std::string& kernelCubin, const std::string& arch,
                                  const std::vector<types::LinkedSource>& linked) const {
  NvJitLinkOutput out;
  NvJitLinkSession handle(entries_);
  // Appends nvJitLink's error log and "CALL failed: RESULT"; whether the call succeeded.
  auto succeeded = [&](NvJitLinkResult result, const std::string& call) {
    if (result == kNvJitLinkSuccess)
      return true;
    size_t size = 0;
    if (handle.get() != nullptr &&
        entries_.getErrorLogSize(handle.get(), &size) == kNvJitLinkSuccess && size > 1) {
      std::string log(size, '\0');
      if (entries_.getErrorLog(handle.get(), log.data()) == kNvJitLinkSuccess) {
        log.resize(size - 1);
        out.log += log;
        if (!out.log.empty() && out.log.back() != '\n')
          out.log += '\n';
      }
    }
    out.log += call + " failed: " + nvJitLinkResultName(result) + "\n";
    return false;
  };
  bool lto = false;
  for (const types::LinkedSource& source : linked)
    lto |= source.kind == types::LinkedCodeKind::LtoIr;
  std::vector<std::string> options = {"-arch=sm_" + archNumber(arch)};
  if (lto)
    options.push_back("-lto");
  std::vector<const char*> optionPointers;
  for (const std::string& option : options)
    optionPointers.push_back(option.c_str());
  if (!succeeded(entries_.create(handle.address(), static_cast<uint32_t>(optionPointers.size()),
                                 optionPointers.data()),
                 "nvJitLinkCreate"))
    return out;
  if (!succeeded(entries_.addData(handle.get(), nvJitLinkInputType(types::LinkedCodeKind::Cubin),
                                  kernelCubin.data(), kernelCubin.size(), "kernel.cubin"),
                 "nvJitLinkAddData (the kernel)"))
    return out;
  for (const types::LinkedSource& source : linked) {
    // PTX is handed over with its terminating NUL, as nvJitLink reads it as a C string.
    const std::string data =
        source.kind == types::LinkedCodeKind::Ptx ? source.text + '\0' : source.text;
    if (!succeeded(entries_.addData(handle.get(), nvJitLinkInputType(source.kind), data.data(),
                                    data.size(), source.path.c_str()),
                   "nvJitLinkAddData (" + source.path + ")"))
      return out;
  }
  if (!succeeded(entries_.complete(handle.get()), "nvJitLinkComplete"))
    return out;
  size_t size = 0;
  if (!succeeded(entries_.getLinkedCubinSize(handle.get(), &size), "nvJitLinkGetLinkedCubinSize"))
    return out;
  out.cubin.assign(size, '\0');
  if (!succeeded(entries_.getLinkedCubin(handle.get(), out.cubin.data()),
                 "nvJitLinkGetLinkedCubin"))
    return out;
  out.ok = true;
  return out;
}

} // namespace pyk::jit
