// CpuObjectCompile: the host compiler's shared object, kept in the disk cache.
#include "jit/CpuObjectCompile.h"

#include <vector>

#include "cpu/pyk_cpu_support.h"
#include "jit/HostCompiler.h"
#include "jit/SupportHeaders.h"
#include "pyk/version.hpp"

namespace pyk::jit {

CachedArtifact compileCpuObject(const JitSettings& settings, const std::string& source,
                                const std::string& name, bool rebuild, const std::string& label) {
  const HostCompiler& compiler = HostCompiler::named(settings.hostCompiler);
  std::vector<std::string> parts = {"pyk-cpu-object",
                                    std::to_string(kVersion.major) + "." +
                                        std::to_string(kVersion.minor) + "." +
                                        std::to_string(kVersion.patch),
                                    std::to_string(cpu::kAbiVersion),
                                    compiler.identity(),
                                    cpuSupportHeaderDigest(),
                                    source};
  for (const std::string& f : HostCompiler::flags())
    parts.push_back(f);
  return *cachedArtifact(
      settings, CacheKey::of(parts), rebuild,
      [&]() -> std::optional<std::string> { return compiler.compile(source, name); }, label);
}

} // namespace pyk::jit
