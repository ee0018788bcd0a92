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
  std::chrono::system_clock::time_point last_use;
  // What it is, as the compile that stored it said (empty for an entry of an older pyk): the
  // .pyk file, the kernel with its argument types (`saxpy(float32, array(float32, 1d, C), ...)
  // -> none`) and the target (`cpu`, `cpu block 256,1,1` for a split kernel specialized for a
  // block shape, `cubin sm_90`, `ptx compute_90 index32`).
  std::string source;
  std::string kernel;
  std::string target;
};

struct CacheContents {
  std::filesystem::path folder;
  std::uint64_t max_bytes = 0;
  std::vector<CacheEntrySummary> entries; // least recently used first
};

// The cache's entries. Throws pyk::Error (ErrorKind::Cache) when the folder is not usable.
CacheContents list_cache();
// Removes the entries not used for `unused_for`, then the least recently used ones until the rest
// hold at most `max_bytes`; returns how many it removed. Throws pyk::Error (ErrorKind::Cache) when
// the folder is not usable.
std::size_t prune_cache(std::chrono::seconds unused_for, std::uint64_t max_bytes = UINT64_MAX);
// Removes every entry; returns how many. Throws pyk::Error (ErrorKind::Cache) likewise.
std::size_t clear_cache();

} // namespace pyk
