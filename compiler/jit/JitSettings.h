// JitSettings: what the jit library is given by its host (the runtime's settings, or pykc's): the
// disk cache's folder and bound, the host C++ compiler, the NVRTC library. The jit library reads
// no PYK_* variable itself.
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
};

} // namespace pyk::jit
