// CpuObjectCompile: a CPU backend unit compiled by the host C++ compiler into a shared object,
// through the disk cache (key: the source, the support header, the flags, the compiler and the
// CPU it tunes for, the pyk version and the CPU ABI version).
#pragma once

#include <string>
#include <vector>

#include "jit/ArtifactCache.h"
#include "jit/JitSettings.h"

namespace pyk::jit {

// The shared object's bytes for `source` (`name` is the kernel, for messages). `rebuild`: compile
// even on a cache hit (the cached object would not load) and replace the entry. Throws pyk::Error:
// Compile when the compiler does not run, Internal when it rejects the generated code.
// `label`: what the cache entry is, for `pykc cache list`. `extraFlags` follow the compiler's own
// (jit/CompileFlags: what the decorator's options ask for).
CachedArtifact compileCpuObject(const JitSettings& settings, const std::string& source,
                                const std::string& name, bool rebuild,
                                const std::string& label = {},
                                const std::vector<std::string>& extraFlags = {});

} // namespace pyk::jit
