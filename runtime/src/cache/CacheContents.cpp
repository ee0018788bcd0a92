// CacheContents: the public view of the disk cache (pyk/cache.hpp) over the jit library's
// DiskCache, in the folder and with the bound the runtime's settings give.
#include "pyk/cache.hpp"

#include "jit/DiskCache.h"
#include "pyk/error.hpp"
#include "settings/SettingsStore.h"

namespace pyk {

namespace {

static_assert(RuntimeSettings::kDefaultCacheMaxBytes == jit::DiskCache::kDefaultMaxBytes);

jit::DiskCache settingsCache() {
  const std::shared_ptr<const RuntimeSettings> s = detail::currentSettings();
  if (s->cacheFolder.empty())
    throw Error(ErrorKind::Cache,
                "cannot find a cache folder: PYK_CACHE_DIR, XDG_CACHE_HOME and HOME are unset and "
                "the user has no home directory; set PYK_CACHE_DIR");
  return jit::DiskCache(s->cacheFolder, s->cacheMaxBytes);
}

} // namespace

CacheContents listCache() {
  jit::DiskCache disk = settingsCache();
  CacheContents out;
  out.folder = disk.folder();
  out.maxBytes = disk.maxBytes();
  for (const jit::CacheEntryInfo& e : disk.list())
    out.entries.push_back({e.key.hex(), e.bytes, e.lastUse});
  return out;
}

std::size_t clearCache() {
  return settingsCache().clear();
}

} // namespace pyk
