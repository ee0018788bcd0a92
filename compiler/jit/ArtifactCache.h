// ArtifactCache: a compiled artifact (a CUDA image, a shared object) taken from the disk cache, or
// built and kept there. Without a usable cache (no folder, one not private to the user, a store
// that fails) the artifact is built every time: the cache saves time, never changes a result.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "jit/CacheKey.h"
#include "jit/JitSettings.h"

namespace pyk::jit {

struct CachedArtifact {
  std::string bytes;
  bool fromCache = false; // taken from the disk cache, not built now
};

// The artifact under `key`: from the cache in settings.cacheFolder (unless `rebuild`: built even
// on a hit, and the entry replaced), else built by `build` and stored. `build` returns std::nullopt
// when it fails (nothing is stored); so does this then. `label` says what the entry is
// (`file<TAB>kernel(types)<TAB>target`), for `pykc cache list`.
std::optional<CachedArtifact>
cachedArtifact(const JitSettings& settings, const CacheKey& key, bool rebuild,
               const std::function<std::optional<std::string>()>& build,
               const std::string& label = {});

} // namespace pyk::jit
