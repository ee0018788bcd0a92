// CpuObjectCompile: the host compiler's shared object, kept in the disk cache.
#include "jit/CpuObjectCompile.h"

#include <vector>

#include "base/Error.h"
#include "base/Version.h"
#include "cpu/pyk_cpu_support.h"
#include "jit/HostCompiler.h"
#include "jit/PrecompiledHeader.h"
#include "jit/SupportHeaders.h"

namespace pyk::jit {

namespace {

// The shared object, compiled against the precompiled support header where there is one. A unit
// it fails for is compiled again from the header's text: when that succeeds, the precompiled
// header was at fault (a damaged file) and is discarded; when that fails too, the unit was.
std::string compileObject(const JitSettings& settings, const HostCompiler& compiler,
                          const std::string& source, const std::string& name,
                          const std::vector<std::string>& extraFlags) {
  if (const std::optional<std::filesystem::path> header =
          precompiledSupportHeader(settings, compiler)) {
    try {
      return compiler.compile(source, name, *header, extraFlags);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::Internal)
        throw;
      std::string bytes = compiler.compile(source, name, {}, extraFlags);
      discardPrecompiledHeader(*header, e.what());
      return bytes;
    }
  }
  return compiler.compile(source, name, {}, extraFlags);
}

} // namespace

CachedArtifact compileCpuObject(const JitSettings& settings, const std::string& source,
                                const std::string& name, bool rebuild, const std::string& label,
                                const std::vector<std::string>& extraFlags) {
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
  parts.insert(parts.end(), extraFlags.begin(), extraFlags.end());
  return *cachedArtifact(
      settings, CacheKey::of(parts), rebuild,
      [&]() -> std::optional<std::string> {
        return compileObject(settings, compiler, source, name, extraFlags);
      },
      label);
}

} // namespace pyk::jit
