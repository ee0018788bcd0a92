// DiskCache: compiled artifacts kept on disk across processes, one file per key, bounded in size
// by evicting the least recently used entries.
#include "jit/DiskCache.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/Error.h"
#include "base/FileReplacement.h"
#include "jit/CacheEntry.h"
#include "jit/CacheFolder.h"

namespace pyk::jit {

namespace {

constexpr std::string_view kEntrySuffix = ".entry";
// A temporary file older than this belongs to a process that died while storing.
constexpr std::chrono::hours kAbandonedAfter{1};

std::chrono::system_clock::time_point modificationTime(const struct stat& status) {
  return std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
          std::chrono::seconds(status.st_mtim.tv_sec) +
          std::chrono::nanoseconds(status.st_mtim.tv_nsec)));
}

// The key an entry file's name stands for; std::nullopt for any other file name.
std::optional<CacheKey> keyOfEntryName(std::string_view fileName) {
  if (fileName.size() != 64 + kEntrySuffix.size() || !fileName.ends_with(kEntrySuffix))
    return std::nullopt;
  return CacheKey::fromHex(fileName.substr(0, 64));
}

class OpenFile {
public:
  explicit OpenFile(int fd) : fd_(fd) {}
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  int fd() const { return fd_; }

private:
  int fd_;
};

// The whole file behind `fd`, which fstat says is `size` bytes; std::nullopt if it reads short.
std::optional<std::vector<std::byte>> readWhole(int fd, std::size_t size) {
  std::vector<std::byte> contents(size);
  std::size_t done = 0;
  while (done < size) {
    ssize_t got = ::pread(fd, contents.data() + done, size - done, static_cast<off_t>(done));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return std::nullopt;
    done += static_cast<std::size_t>(got);
  }
  return contents;
}

} // namespace

DiskCache::DiskCache(std::filesystem::path folder, std::uint64_t maxBytes)
    : folder_(std::move(folder)), maxBytes_(maxBytes) {
  preparePrivateFolder(folder_);
}

std::filesystem::path DiskCache::entryPath(const CacheKey& key) const {
  return folder_ / (key.hex() + std::string(kEntrySuffix));
}

std::optional<std::string> DiskCache::lookup(const CacheKey& key) const {
  std::filesystem::path path = entryPath(key);
  // Without blocking: a FIFO in an entry's place is no entry, never waited on.
  OpenFile file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (file.fd() < 0)
    return std::nullopt;
  struct stat status {};
  if (::fstat(file.fd(), &status) != 0 || !S_ISREG(status.st_mode))
    return std::nullopt;
  std::optional<std::string> payload;
  // An entry's size is that of its file, so nothing larger than the file is ever allocated.
  if (static_cast<std::uint64_t>(status.st_size) >= kEntryHeaderSize)
    if (auto contents = readWhole(file.fd(), static_cast<std::size_t>(status.st_size)))
      payload = payloadOfEntry(*contents, key);
  if (!payload) {
    // Remove the bad entry, unless another thread or process has already replaced it.
    struct stat current {};
    if (::lstat(path.c_str(), &current) == 0 && current.st_ino == status.st_ino &&
        current.st_dev == status.st_dev)
      ::unlink(path.c_str());
    return std::nullopt;
  }
  ::futimens(file.fd(), nullptr); // the last use is now; eviction goes by it
  return payload;
}

void DiskCache::store(const CacheKey& key, std::string_view payload, std::string_view label) {
  if (kEntryHeaderSize + std::min(label.size(), kMaxLabelSize) + payload.size() > maxBytes_)
    return;
  std::vector<std::byte> header = formatEntryHeader(key, payload, label);
  // An empty directory in the entry's place (nothing of ours) goes; anything else there makes the
  // rename below fail with the path named.
  ::rmdir(entryPath(key).c_str());
  std::span<const std::byte> pieces[] = {
      header, std::as_bytes(std::span<const char>(payload.data(), payload.size()))};
  base::replaceFile(entryPath(key), pieces, 0600, ErrorKind::Cache);
  evictToBound();
}

DiskCache::FolderContents DiskCache::scanFolder() const {
  FolderContents contents;
  auto abandonedBefore = std::chrono::system_clock::now() - kAbandonedAfter;
  std::error_code error;
  for (std::filesystem::directory_iterator it(folder_, error), end; !error && it != end;
       it.increment(error)) {
    std::string name = it->path().filename().string();
    std::optional<CacheKey> key = keyOfEntryName(name);
    bool temporary = base::isTemporaryName(name) && name.find(kEntrySuffix) != std::string::npos;
    struct stat status {};
    // Files vanish under a concurrent store, eviction or clear; skip those.
    if ((!key && !temporary) || ::lstat(it->path().c_str(), &status) != 0 ||
        !S_ISREG(status.st_mode))
      continue;
    if (key)
      contents.entries.push_back(
          {*key, static_cast<std::uint64_t>(status.st_size), modificationTime(status), {}});
    else if (modificationTime(status) < abandonedBefore)
      contents.abandonedTemporaries.push_back(it->path());
  }
  std::sort(contents.entries.begin(), contents.entries.end(),
            [](const CacheEntryInfo& a, const CacheEntryInfo& b) {
              return a.lastUse != b.lastUse ? a.lastUse < b.lastUse : a.key.hex() < b.key.hex();
            });
  return contents;
}

std::vector<CacheEntryInfo> DiskCache::list() const {
  std::vector<CacheEntryInfo> entries = scanFolder().entries;
  std::vector<std::byte> start(kEntryHeaderSize + kMaxLabelSize);
  for (CacheEntryInfo& e : entries) {
    OpenFile file(::open(entryPath(e.key).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
    if (file.fd() < 0)
      continue;
    const ssize_t got = ::pread(file.fd(), start.data(), start.size(), 0);
    if (got > 0)
      e.label = labelOfEntry(std::span(start.data(), static_cast<std::size_t>(got)));
  }
  return entries;
}

std::size_t DiskCache::prune(std::chrono::system_clock::time_point lastUsedBefore,
                             std::uint64_t maxBytes) {
  std::lock_guard lock(evictionMutex_);
  FolderContents contents = scanFolder();
  std::uint64_t total = 0;
  for (const CacheEntryInfo& entry : contents.entries)
    total += entry.bytes;
  std::size_t removed = 0;
  for (const CacheEntryInfo& entry : contents.entries) { // least recently used first
    if (entry.lastUse >= lastUsedBefore && total <= maxBytes)
      break;
    if (::unlink(entryPath(entry.key).c_str()) == 0)
      ++removed;
    total -= entry.bytes;
  }
  for (const std::filesystem::path& temporary : contents.abandonedTemporaries)
    ::unlink(temporary.c_str());
  return removed;
}

void DiskCache::evictToBound() {
  std::lock_guard lock(evictionMutex_);
  FolderContents contents = scanFolder();
  std::uint64_t total = 0;
  for (const CacheEntryInfo& entry : contents.entries)
    total += entry.bytes;
  for (const CacheEntryInfo& entry : contents.entries) {
    if (total <= maxBytes_)
      break;
    ::unlink(entryPath(entry.key).c_str());
    total -= entry.bytes;
  }
  for (const std::filesystem::path& temporary : contents.abandonedTemporaries)
    ::unlink(temporary.c_str());
}

std::size_t DiskCache::clear() {
  std::lock_guard lock(evictionMutex_);
  FolderContents contents = scanFolder();
  std::size_t removed = 0;
  for (const CacheEntryInfo& entry : contents.entries)
    if (::unlink(entryPath(entry.key).c_str()) == 0)
      ++removed;
  for (const std::filesystem::path& temporary : contents.abandonedTemporaries)
    ::unlink(temporary.c_str());
  return removed;
}

} // namespace pyk::jit
