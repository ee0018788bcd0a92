// CacheFolderTest: the cache folder is created private, and refused when others could write to it.
// (Where it is, from PYK_CACHE_DIR, XDG_CACHE_HOME or HOME, is the runtime's settings: see
// tests/unit/runtime/RuntimeSettingsTest.cpp.)
#include "jit/CacheFolder.h"
#include "base/Error.h"
#include "jit/DiskCache.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "../runtime/TemporaryFolder.h"

using pyk::jit::DiskCache;
using pyk::jit::preparePrivateFolder;

namespace {

// The message of the pyk::Error (of kind Cache) that `action` throws; "" if it throws none.
template <typename Action>
std::string cacheErrorOf(Action action) {
  try {
    action();
  } catch (const pyk::Error& error) {
    EXPECT_EQ(error.kind(), pyk::ErrorKind::Cache);
    return error.what();
  }
  return "";
}

mode_t modeOf(const std::filesystem::path& path) {
  struct stat status {};
  EXPECT_EQ(::stat(path.c_str(), &status), 0);
  return status.st_mode & 07777;
}

} // namespace

TEST(CacheFolder, DiskCacheCreatesItsFolderPrivate) {
  TemporaryFolder temporary;
  DiskCache cache(temporary / "a/b/cache");
  EXPECT_EQ(cache.folder(), temporary / "a/b/cache");
  EXPECT_EQ(modeOf(temporary / "a/b/cache"), 0700u);
  EXPECT_EQ(modeOf(temporary / "a"), 0700u);
}

TEST(CacheFolder, AnExistingPrivateFolderIsAccepted) {
  TemporaryFolder temporary;
  ::chmod(temporary.path().c_str(), 0755); // readable by others is fine, writable is not
  EXPECT_NO_THROW(preparePrivateFolder(temporary.path()));
}

TEST(CacheFolder, RefusesAWorldWritableFolder) {
  TemporaryFolder temporary;
  ASSERT_EQ(::chmod(temporary.path().c_str(), 0777), 0);
  EXPECT_EQ(cacheErrorOf([&] { DiskCache cache(temporary.path()); }),
            "the cache folder " + temporary.path().string() +
                " is writable by its group or by others (mode 0777); pyk only loads compiled "
                "code from a private folder: run `chmod go-w " +
                temporary.path().string() + "` or set PYK_CACHE_DIR");
}

TEST(CacheFolder, RefusesAGroupWritableFolder) {
  TemporaryFolder temporary;
  ASSERT_EQ(::chmod(temporary.path().c_str(), 0770), 0);
  EXPECT_NE(cacheErrorOf([&] {
              preparePrivateFolder(temporary.path());
            }).find("is writable by its group or by others (mode 0770)"),
            std::string::npos);
}

TEST(CacheFolder, RefusesAFolderOfAnotherUser) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "only root can give a folder to another user";
  TemporaryFolder temporary;
  std::filesystem::path folder = temporary / "theirs";
  ASSERT_EQ(::mkdir(folder.c_str(), 0700), 0);
  ASSERT_EQ(::chown(folder.c_str(), 65534, 65534), 0);
  EXPECT_NE(cacheErrorOf([&] {
              preparePrivateFolder(folder);
            }).find("belongs to user id 65534, not to you (user id 0)"),
            std::string::npos);
}

TEST(CacheFolder, RefusesAFile) {
  TemporaryFolder temporary;
  std::filesystem::path file = temporary / "file";
  std::ofstream(file) << "x";
  EXPECT_NE(cacheErrorOf([&] { preparePrivateFolder(file); }).find("is not a directory"),
            std::string::npos);
}

TEST(CacheFolder, MaxBytesComesFromTheArgumentElseTheDefault) {
  TemporaryFolder temporary;
  EXPECT_EQ(DiskCache(temporary.path()).maxBytes(), DiskCache::kDefaultMaxBytes);
  EXPECT_EQ(DiskCache::kDefaultMaxBytes, 1024u * 1024u * 1024u);
  EXPECT_EQ(DiskCache(temporary.path(), 777).maxBytes(), 777u);
}
