// cache: what is in pyk's on-disk compile cache, and emptying it (`pykc cache list|clear`).
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
};

struct CacheContents {
  std::filesystem::path folder;
  std::uint64_t maxBytes = 0;
  std::vector<CacheEntrySummary> entries; // least recently used first
};

// The cache's entries. Throws pyk::Error (ErrorKind::Cache) when the folder is not usable.
CacheContents listCache();
// Removes every entry; returns how many. Throws pyk::Error (ErrorKind::Cache) likewise.
std::size_t clearCache();

} // namespace pyk
