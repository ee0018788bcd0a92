// DiskCache: compiled artifacts kept on disk across processes, one file per key, bounded in size
// by evicting the least recently used entries.
//
// Entries are "<key>.entry" files (see CacheEntry.h) in a private folder (see CacheFolder.h).
// A store writes a temporary file in the folder and renames it into place, so a reader, in this
// process or another, sees a whole entry or none. A lookup returns the payload only when the
// entry's magic, version, key, size and checksum all match; otherwise the entry is removed and the
// lookup is a miss, so the caller rebuilds and stores it again. Files in the folder that are not
// entries are left alone. A hit refreshes the entry's modification time, which is its last use.
// Every method may be called from several threads at once.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jit/CacheKey.h"

namespace pyk::jit {

struct CacheEntryInfo {
  CacheKey key;
  std::uint64_t bytes = 0; // the entry file's size, header included: what counts against the bound
  std::chrono::system_clock::time_point lastUse;
  std::string label; // list(): what the entry is, as stored (`file<TAB>kernel(types)<TAB>target`)
};

class DiskCache {
public:
  static constexpr std::uint64_t kDefaultMaxBytes = std::uint64_t{1} << 30;

  // The cache in `folder`, its entries bounded to `maxBytes` in all. Creates the folder if
  // needed; throws pyk::Error (ErrorKind::Cache) when it is not private to the user.
  explicit DiskCache(std::filesystem::path folder, std::uint64_t maxBytes = kDefaultMaxBytes);

  const std::filesystem::path& folder() const { return folder_; }
  std::uint64_t maxBytes() const { return maxBytes_; }

  // The payload stored under `key`, or std::nullopt on a miss. A corrupt, truncated or foreign
  // entry is removed and is a miss. Never throws for what it finds on disk.
  std::optional<std::string> lookup(const CacheKey& key) const;

  // Stores `payload` under `key` (replacing any entry there), then evicts least recently used
  // entries until the total is within maxBytes(). A payload too large for the bound on its own is
  // not stored. Throws pyk::Error (ErrorKind::Cache) when the entry cannot be written; callers
  // that can go on without the cache should catch it.
  void store(const CacheKey& key, std::string_view payload, std::string_view label = {});

  // The entries, least recently used first, with their labels.
  std::vector<CacheEntryInfo> list() const;

  // Removes the entries last used before `lastUsedBefore`, then the least recently used ones
  // until the rest hold at most `maxBytes`; returns how many it removed.
  std::size_t prune(std::chrono::system_clock::time_point lastUsedBefore, std::uint64_t maxBytes);

  // Removes every entry, and temporary files abandoned more than an hour ago; returns how many
  // entries it removed.
  std::size_t clear();

  // The file that holds `key`'s entry.
  std::filesystem::path entryPath(const CacheKey& key) const;

private:
  struct FolderContents {
    std::vector<CacheEntryInfo> entries; // least recently used first
    std::vector<std::filesystem::path> abandonedTemporaries;
  };
  // One pass over the folder: the entries, and temporary files abandoned by dead stores.
  FolderContents scanFolder() const;
  void evictToBound();

  std::filesystem::path folder_;
  std::uint64_t maxBytes_;
  std::mutex evictionMutex_; // one eviction or clear at a time in this process
};

} // namespace pyk::jit
