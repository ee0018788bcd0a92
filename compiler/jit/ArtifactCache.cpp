// ArtifactCache: the disk cache's lookup, the build on a miss and the store, each failure of the
// cache itself costing a rebuild, nothing else.
#include "jit/ArtifactCache.h"

#include <string>

#include "base/Error.h"
#include "jit/Warnings.h"

namespace pyk::jit {

std::optional<CachedArtifact>
cachedArtifact(const JitSettings& settings, const CacheKey& key, bool rebuild,
               const std::function<std::optional<std::string>()>& build, const std::string& label) {
  std::optional<DiskCache> disk;
  if (!settings.cacheFolder.empty()) {
    try {
      disk.emplace(settings.cacheFolder, settings.cacheMaxBytes);
      if (!rebuild)
        if (std::optional<std::string> hit = disk->lookup(key))
          return CachedArtifact{std::move(*hit), true};
    } catch (const Error& e) {
      disk.reset(); // no usable cache: build every time
      warnOnce("unused " + settings.cacheFolder.string(),
               std::string("the disk cache is not used: ") + e.what() +
                   "; kernels are compiled again in every process");
    }
  }
  std::optional<std::string> built = build();
  if (!built)
    return std::nullopt;
  if (disk) {
    try {
      disk->store(key, *built, label);
    } catch (const Error& e) {
      // a full disk or a read-only folder costs a rebuild next time, nothing else
      warnOnce("not kept " + settings.cacheFolder.string(),
               std::string("a compiled kernel was not kept in the disk cache: ") + e.what() +
                   "; it is compiled again in the next process");
    }
  }
  return CachedArtifact{std::move(*built), false};
}

} // namespace pyk::jit
