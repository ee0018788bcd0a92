// CacheContents: the public view of the disk cache (pyk/cache.hpp) over the jit library's
// DiskCache, in the folder and with the bound the runtime's settings give.
#include "pyk/cache.hpp"

#include "jit/DiskCache.h"
#include "jit/PrecompiledHeader.h"
#include "pyk/error.hpp"
#include "settings/SettingsStore.h"

namespace pyk {

namespace {

static_assert(RuntimeSettings::kDefaultCacheMaxBytes == jit::DiskCache::kDefaultMaxBytes);

jit::DiskCache settingsCache() {
  const std::shared_ptr<const RuntimeSettings> s = detail::currentSettings();
  if (s->cache_folder.empty())
    throw Error(ErrorKind::Cache,
                "cannot find a cache folder: PYK_CACHE_DIR, XDG_CACHE_HOME and HOME are unset and "
                "the user has no home directory; set PYK_CACHE_DIR");
  return jit::DiskCache(s->cache_folder, s->cache_max_bytes);
}

} // namespace

CacheContents list_cache() {
  jit::DiskCache disk = settingsCache();
  CacheContents out;
  out.folder = disk.folder();
  out.max_bytes = disk.maxBytes();
  for (const jit::CacheEntryInfo& e : disk.list()) {
    CacheEntrySummary summary{e.key.hex(), e.bytes, e.lastUse, {}, {}, {}};
    const std::size_t first = e.label.find('\t');
    const std::size_t second = first == std::string::npos ? first : e.label.find('\t', first + 1);
    if (second != std::string::npos) {
      summary.source = e.label.substr(0, first);
      summary.kernel = e.label.substr(first + 1, second - first - 1);
      summary.target = e.label.substr(second + 1);
    }
    out.entries.push_back(std::move(summary));
  }
  return out;
}

// The precompiled CPU support header (jit/PrecompiledHeader) is kept beside the entries, outside
// their bound and their count: prune removes it when unused as long, clear always.
std::size_t prune_cache(std::chrono::seconds unused_for, std::uint64_t max_bytes) {
  jit::DiskCache disk = settingsCache();
  const auto before = std::chrono::system_clock::now() - unused_for;
  jit::prunePrecompiledHeaders(disk.folder(), before);
  return disk.prune(before, max_bytes);
}

std::size_t clear_cache() {
  jit::DiskCache disk = settingsCache();
  jit::prunePrecompiledHeaders(disk.folder(), std::chrono::system_clock::time_point::max());
  return disk.clear();
}

} // namespace pyk
