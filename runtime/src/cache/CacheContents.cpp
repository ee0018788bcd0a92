// CacheContents: the public view of the disk cache (pyk/cache.hpp) over DiskCache.
#include "pyk/cache.hpp"

#include "cache/DiskCache.h"

namespace pyk {

CacheContents listCache() {
  cache::DiskCache disk;
  CacheContents out;
  out.folder = disk.folder();
  out.maxBytes = disk.maxBytes();
  for (const cache::CacheEntryInfo& e : disk.list())
    out.entries.push_back({e.key.hex(), e.bytes, e.lastUse});
  return out;
}

std::size_t clearCache() {
  cache::DiskCache disk;
  return disk.clear();
}

} // namespace pyk
