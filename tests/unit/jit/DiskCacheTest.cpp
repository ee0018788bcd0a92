// DiskCacheTest: stores and lookups, bad entries treated as misses, foreign files left alone,
// least-recently-used eviction, list and clear, concurrent stores.
#include "jit/DiskCache.h"
#include "jit/CacheEntry.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <atomic>
#include <fstream>
#include <set>
#include <thread>

#include "../runtime/TemporaryFolder.h"

using pyk::jit::CacheKey;
using pyk::jit::DiskCache;

namespace {

std::string contentsOf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeContents(const std::filesystem::path& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << contents;
}

// The names of the files in `folder`.
std::set<std::string> filesIn(const std::filesystem::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    names.insert(entry.path().filename().string());
  return names;
}

// Marks an entry as last used `minutesAgo` minutes ago.
void setLastUse(const DiskCache& cache, const CacheKey& key, int minutesAgo) {
  std::filesystem::last_write_time(cache.entryPath(key),
                                   std::filesystem::file_time_type::clock::now() -
                                       std::chrono::minutes(minutesAgo));
}

} // namespace

TEST(DiskCache, MissThenHit) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey key = CacheKey::of({"source", "sm_90"});
  EXPECT_FALSE(cache.lookup(key));
  std::string payload("ptx\0with\0zeros\xff", 16);
  cache.store(key, payload);
  EXPECT_EQ(cache.lookup(key), payload);
  EXPECT_FALSE(cache.lookup(CacheKey::of({"source", "sm_80"})));
}

TEST(DiskCache, EmptyPayloadIsAHit) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey key = CacheKey::of({"empty"});
  cache.store(key, "");
  EXPECT_EQ(cache.lookup(key), "");
}

TEST(DiskCache, StoreReplacesAnEntryAndLeavesNoTemporaryFile) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey key = CacheKey::of({"k"});
  cache.store(key, "first");
  cache.store(key, "second");
  EXPECT_EQ(cache.lookup(key), "second");
  EXPECT_EQ(filesIn(folder.path()), std::set<std::string>{key.hex() + ".entry"});
}

TEST(DiskCache, EntryFileHasTheDocumentedLayout) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey key = CacheKey::of({"k"});
  cache.store(key, "payload");
  std::string entry = contentsOf(cache.entryPath(key));
  ASSERT_EQ(entry.size(), pyk::jit::kEntryHeaderSize + 7);
  EXPECT_EQ(entry.substr(0, 8), "PYKCACHE");
  EXPECT_EQ(entry.substr(8, 4), std::string("\2\0\0\0", 4));
  EXPECT_EQ(entry.substr(12, 64), key.hex());
  EXPECT_EQ(entry.substr(76, 8), std::string("\7\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(entry.substr(116, 2), std::string("\0\0", 2)); // no label
  EXPECT_EQ(entry.substr(pyk::jit::kEntryHeaderSize), "payload");
}

TEST(DiskCache, EntryKeepsItsLabelBeforeThePayloadAndListShowsIt) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey key = CacheKey::of({"k"});
  cache.store(key, "payload", "k.pyk\tk(int64) -> none\tcpu");
  std::string entry = contentsOf(cache.entryPath(key));
  ASSERT_EQ(entry.size(), pyk::jit::kEntryHeaderSize + 26 + 7);
  EXPECT_EQ(entry.substr(116, 2), std::string("\x1a\0", 2));
  EXPECT_EQ(entry.substr(pyk::jit::kEntryHeaderSize, 26), "k.pyk\tk(int64) -> none\tcpu");
  EXPECT_EQ(cache.lookup(key), "payload");
  std::vector<pyk::jit::CacheEntryInfo> entries = cache.list();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].label, "k.pyk\tk(int64) -> none\tcpu");
  EXPECT_EQ(entries[0].bytes, entry.size());
}

TEST(DiskCache, ALabelTooLongIsCutAndALabelSizeBeyondTheFileIsAMiss) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey key = CacheKey::of({"k"});
  cache.store(key, "payload", std::string(5000, 'x'));
  EXPECT_EQ(cache.list()[0].label, std::string(pyk::jit::kMaxLabelSize, 'x'));
  EXPECT_EQ(cache.lookup(key), "payload");
  std::string entry = contentsOf(cache.entryPath(key));
  entry[116] = '\xff'; // a label size over the limit
  entry[117] = '\xff';
  {
    std::ofstream out(cache.entryPath(key), std::ios::binary | std::ios::trunc);
    out << entry;
  }
  EXPECT_EQ(cache.lookup(key), std::nullopt);
}

TEST(DiskCache, PruneRemovesTheUnusedThenTheLeastRecentlyUsedAboveTheBound) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  const CacheKey old = CacheKey::of({"old"}), a = CacheKey::of({"a"}), b = CacheKey::of({"b"});
  for (const CacheKey* k : {&old, &a, &b})
    cache.store(*k, "payload");
  const auto now = std::chrono::system_clock::now();
  auto setLastUse = [&](const CacheKey& k, std::chrono::system_clock::time_point t) {
    std::filesystem::last_write_time(
        cache.entryPath(k),
        std::filesystem::file_time_type::clock::now() +
            std::chrono::duration_cast<std::filesystem::file_time_type::duration>(t - now));
  };
  setLastUse(old, now - std::chrono::hours(24 * 40));
  setLastUse(a, now - std::chrono::hours(2));
  setLastUse(b, now - std::chrono::minutes(1));
  EXPECT_EQ(cache.prune(now - std::chrono::hours(24 * 30), UINT64_MAX), 1u);
  EXPECT_EQ(cache.lookup(old), std::nullopt);
  const std::uint64_t one = pyk::jit::kEntryHeaderSize + 7;
  EXPECT_EQ(cache.prune(now - std::chrono::hours(24 * 30), one), 1u); // a goes, b stays
  EXPECT_EQ(cache.list().size(), 1u);
  EXPECT_EQ(cache.lookup(b), "payload");
}

TEST(DiskCache, CorruptEntryIsAMissAndIsRebuilt) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey key = CacheKey::of({"k"});
  cache.store(key, "the compiled code");
  std::string entry = contentsOf(cache.entryPath(key));
  entry.back() ^= 1; // a flipped bit in the payload: the checksum no longer matches
  writeContents(cache.entryPath(key), entry);
  EXPECT_FALSE(cache.lookup(key));
  EXPECT_FALSE(std::filesystem::exists(cache.entryPath(key))) << "a corrupt entry is removed";
  cache.store(key, "the compiled code");
  EXPECT_EQ(cache.lookup(key), "the compiled code");
}

TEST(DiskCache, CorruptHeaderIsAMiss) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey key = CacheKey::of({"k"});
  cache.store(key, "payload");
  std::string good = contentsOf(cache.entryPath(key));
  for (std::size_t offset : {0, 8, 20, 80, 90}) { // magic, version, key, size, checksum
    std::string bad = good;
    bad[offset] ^= 0x40;
    writeContents(cache.entryPath(key), bad);
    EXPECT_FALSE(cache.lookup(key)) << "byte " << offset << " changed";
  }
}

TEST(DiskCache, TruncatedEntryIsAMiss) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey key = CacheKey::of({"k"});
  std::string payload(1000, 'p');
  cache.store(key, payload);
  std::string entry = contentsOf(cache.entryPath(key));
  for (std::size_t length : {std::size_t{0}, std::size_t{10}, pyk::jit::kEntryHeaderSize,
                             entry.size() / 2, entry.size() - 1}) {
    writeContents(cache.entryPath(key), entry.substr(0, length));
    EXPECT_FALSE(cache.lookup(key)) << "cut to " << length << " bytes";
    EXPECT_FALSE(std::filesystem::exists(cache.entryPath(key)));
  }
  writeContents(cache.entryPath(key), entry + "trailing"); // longer than its header says
  EXPECT_FALSE(cache.lookup(key));
}

TEST(DiskCache, EntryOfAnotherKeyIsAMiss) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey mine = CacheKey::of({"mine"});
  CacheKey theirs = CacheKey::of({"theirs"});
  cache.store(theirs, "their code");
  std::filesystem::copy_file(cache.entryPath(theirs), cache.entryPath(mine));
  EXPECT_FALSE(cache.lookup(mine));
  EXPECT_EQ(cache.lookup(theirs), "their code");
}

TEST(DiskCache, ForeignFilesAreIgnored) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  writeContents(folder / "README", "not an entry");
  writeContents(folder / "notes.entry", "not an entry either");
  writeContents(folder / (std::string(64, 'A') + ".entry"), "upper-case is not a key");
  std::filesystem::create_directory(folder / "subfolder");
  CacheKey key = CacheKey::of({"k"});
  cache.store(key, "payload");
  EXPECT_EQ(cache.lookup(key), "payload");
  ASSERT_EQ(cache.list().size(), 1u);
  EXPECT_EQ(cache.list()[0].key, key);
  EXPECT_EQ(cache.clear(), 1u);
  EXPECT_EQ(filesIn(folder.path()),
            (std::set<std::string>{"README", "notes.entry", std::string(64, 'A') + ".entry",
                                   "subfolder"}));
}

TEST(DiskCache, ForeignFileUnderAnEntrysNameIsAMiss) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey key = CacheKey::of({"k"});
  writeContents(cache.entryPath(key), "#!/bin/sh\necho some other program's file\n");
  EXPECT_FALSE(cache.lookup(key));
  cache.store(key, "payload");
  EXPECT_EQ(cache.lookup(key), "payload");
}

TEST(DiskCache, EvictsLeastRecentlyUsedEntriesFirst) {
  TemporaryFolder folder;
  std::string payload(100, 'x');
  std::uint64_t entryBytes = pyk::jit::kEntryHeaderSize + payload.size();
  DiskCache cache(folder.path(), 3 * entryBytes + entryBytes / 2); // room for three entries
  CacheKey a = CacheKey::of({"a"}), b = CacheKey::of({"b"}), c = CacheKey::of({"c"});
  cache.store(a, payload);
  cache.store(b, payload);
  cache.store(c, payload);
  setLastUse(cache, a, 30);
  setLastUse(cache, b, 20);
  setLastUse(cache, c, 10);
  ASSERT_TRUE(cache.lookup(a)); // a hit makes a the most recently used
  CacheKey d = CacheKey::of({"d"});
  cache.store(d, payload); // four entries do not fit: b, the least recently used, goes
  EXPECT_TRUE(std::filesystem::exists(cache.entryPath(a)));
  EXPECT_FALSE(std::filesystem::exists(cache.entryPath(b)));
  EXPECT_TRUE(std::filesystem::exists(cache.entryPath(c)));
  EXPECT_TRUE(std::filesystem::exists(cache.entryPath(d)));
  setLastUse(cache, a, 2); // a was used (by the hit) before d was stored
  CacheKey e = CacheKey::of({"e"});
  cache.store(e, std::string(3 * payload.size(), 'y')); // needs two places: c, then a go
  EXPECT_FALSE(std::filesystem::exists(cache.entryPath(c)));
  EXPECT_FALSE(std::filesystem::exists(cache.entryPath(a)));
  EXPECT_TRUE(std::filesystem::exists(cache.entryPath(d)));
  EXPECT_TRUE(std::filesystem::exists(cache.entryPath(e)));
}

TEST(DiskCache, PayloadLargerThanTheBoundIsNotStored) {
  TemporaryFolder folder;
  DiskCache cache(folder.path(), 500);
  CacheKey small = CacheKey::of({"small"});
  cache.store(small, "fits");
  cache.store(CacheKey::of({"large"}), std::string(1000, 'x'));
  EXPECT_FALSE(cache.lookup(CacheKey::of({"large"})));
  EXPECT_EQ(cache.lookup(small), "fits") << "a payload that cannot fit evicts nothing";
}

TEST(DiskCache, ListGivesKeysSizesAndLastUseOldestFirst) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey older = CacheKey::of({"older"}), newer = CacheKey::of({"newer"});
  cache.store(newer, "12345");
  cache.store(older, "1");
  setLastUse(cache, older, 300);
  setLastUse(cache, newer, 60);
  auto entries = cache.list();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].key, older);
  EXPECT_EQ(entries[0].bytes, pyk::jit::kEntryHeaderSize + 1);
  EXPECT_EQ(entries[1].key, newer);
  EXPECT_EQ(entries[1].bytes, pyk::jit::kEntryHeaderSize + 5);
  auto age = std::chrono::system_clock::now() - entries[0].lastUse;
  EXPECT_GT(age, std::chrono::minutes(299));
  EXPECT_LT(age, std::chrono::minutes(301));
}

TEST(DiskCache, ClearRemovesEntriesAndAbandonedTemporaries) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  cache.store(CacheKey::of({"1"}), "one");
  cache.store(CacheKey::of({"2"}), "two");
  std::string abandoned = "." + CacheKey::of({"3"}).hex() + ".entry.tmp-99999-0";
  std::string inProgress = "." + CacheKey::of({"4"}).hex() + ".entry.tmp-99999-1";
  writeContents(folder / abandoned, "half");
  writeContents(folder / inProgress, "half");
  std::filesystem::last_write_time(
      folder / abandoned, std::filesystem::file_time_type::clock::now() - std::chrono::hours(2));
  EXPECT_EQ(cache.clear(), 2u);
  EXPECT_EQ(filesIn(folder.path()), std::set<std::string>{inProgress});
  EXPECT_TRUE(cache.list().empty());
}

TEST(DiskCache, ConcurrentStoresAndLookupsFromSeveralThreads) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  constexpr int kThreads = 8;
  constexpr int kKeys = 40;
  auto payloadOf = [](int k) { return "payload " + std::to_string(k) + std::string(k * 37, 'z'); };
  std::vector<std::thread> threads;
  std::atomic<int> wrongPayloads{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kKeys; ++i) {
        int k = (i + t * 5) % kKeys; // every thread stores every key, in different orders
        CacheKey key = CacheKey::of({std::to_string(k)});
        if (auto hit = cache.lookup(key); hit && *hit != payloadOf(k))
          ++wrongPayloads;
        cache.store(key, payloadOf(k));
        if (auto hit = cache.lookup(key); hit && *hit != payloadOf(k))
          ++wrongPayloads;
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  EXPECT_EQ(wrongPayloads, 0);
  for (int k = 0; k < kKeys; ++k)
    EXPECT_EQ(cache.lookup(CacheKey::of({std::to_string(k)})), payloadOf(k)) << "key " << k;
  EXPECT_EQ(filesIn(folder.path()).size(), static_cast<std::size_t>(kKeys))
      << "no temporary file is left";
}

TEST(DiskCache, ConcurrentStoresStayWithinTheBound) {
  TemporaryFolder folder;
  std::string payload(200, 'q');
  std::uint64_t entryBytes = pyk::jit::kEntryHeaderSize + payload.size();
  DiskCache cache(folder.path(), 10 * entryBytes);
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 30; ++i)
        cache.store(CacheKey::of({std::to_string(t), std::to_string(i)}), payload);
    });
  for (std::thread& thread : threads)
    thread.join();
  std::uint64_t total = 0;
  for (const auto& entry : cache.list())
    total += entry.bytes;
  EXPECT_LE(total, cache.maxBytes());
  EXPECT_GT(total, 0u);
}

TEST(DiskCache, AFifoInAnEntrysPlaceIsAMissNotAWait) {
  TemporaryFolder folder;
  DiskCache cache(folder.path());
  CacheKey key = CacheKey::of({"k"});
  ASSERT_EQ(::mkfifo(cache.entryPath(key).c_str(), 0600), 0);
  EXPECT_EQ(cache.lookup(key), std::nullopt); // returns at once: opened without blocking
  cache.store(key, "payload");                // replaces it
  EXPECT_EQ(cache.lookup(key), "payload");
}
