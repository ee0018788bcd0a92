// JitSettings: what the jit library is given by its host (the runtime's settings, or pykc's): the
// disk cache's folder and bound, the host C++ compiler, the NVRTC and nvJitLink libraries; and
// jitSettingsOf, the one conversion from the runtime's settings both hosts use. The jit library
// reads no PYK_* variable itself.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "jit/DiskCache.h"

namespace pyk::jit {

struct JitSettings {
  // The disk cache's folder; empty: no disk cache (everything is compiled afresh).
  std::filesystem::path cacheFolder;
  std::uint64_t cacheMaxBytes = DiskCache::kDefaultMaxBytes;
  // The host C++ compiler the CPU backend's units are compiled with (a name on PATH or a path);
  // empty: the compiler pyk was built with.
  std::string hostCompiler;
  // Whether CPU units are compiled against the support header precompiled in the cache folder
  // (jit/PrecompiledHeader).
  bool cpuPrecompiledHeader = true;
  // The NVRTC library to load (empty: the usual names). NVRTC is loaded once per process: the
  // first compile's choice stands.
  std::string nvrtcLibrary;
  // The nvJitLink library to load (empty: the usual names), once per process as NVRTC.
  std::string nvJitLinkLibrary;
};

// The jit's part of `settings`, a pyk::RuntimeSettings (pyk/settings.def): what the runtime's
// KernelCompiler and pykc's main (runtime/tools/pykc) give the jit. A template so
// that the jit library includes no runtime header. A setting the jit needs: its row in
// pyk/settings.def, its field above and its line here.
template <typename HostSettings>
JitSettings jitSettingsOf(const HostSettings& settings) {
  return JitSettings{.cacheFolder = settings.cache_folder,
                     .cacheMaxBytes = settings.cache_max_bytes,
                     .hostCompiler = settings.host_compiler,
                     .cpuPrecompiledHeader = settings.cpu_precompiled_header,
                     .nvrtcLibrary = settings.libnvrtc,
                     .nvJitLinkLibrary = settings.libnvjitlink};
}

} // namespace pyk::jit
