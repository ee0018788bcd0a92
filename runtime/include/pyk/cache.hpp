// cache: what is in pyk's on-disk compile cache, pruning and emptying it
// (`pykc cache list|prune|clear`).
// The folder is $PYK_CACHE_DIR, else $XDG_CACHE_HOME/pyk, else ~/.cache/pyk.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace pyk {

struct CacheEntrySummary {
  std::string key;     // 64 hex digits
  std::uint64_t bytes; // the entry's size on disk
  std::chrono::system_clock::time_point lastUse;
  // What it is, as the compile that stored it said (empty for an entry of an older pyk): the
  // .pyk file, the kernel with its argument types (`saxpy(float32, array(float32, 1d, C), ...)
  // -> none`) and the target (`cpu`, `cubin sm_90`, `ptx compute_90 index32`).
  std::string source;
  std::string kernel;
  std::string target;
};

struct CacheContents {
  std::filesystem::path folder;
  std::uint64_t maxBytes = 0;
  std::vector<CacheEntrySummary> entries; // least recently used first
};

// The cache's entries. Throws pyk::Error (ErrorKind::Cache) when the folder is not usable.
CacheContents listCache();
// Removes the entries not used for `unusedFor`, then the least recently used ones until the rest
// hold at most `maxBytes`; returns how many it removed. Throws pyk::Error (ErrorKind::Cache) when
// the folder is not usable.
std::size_t pruneCache(std::chrono::seconds unusedFor,
                       std::uint64_t maxBytes = UINT64_MAX);
// Removes every entry; returns how many. Throws pyk::Error (ErrorKind::Cache) likewise.
std::size_t clearCache();

} // namespace pyk
