// CacheFolderTest: the cache folder comes from PYK_CACHE_DIR, XDG_CACHE_HOME or HOME, is created
// private, and is refused when others could write to it.
#include "cache/CacheFolder.h"
#include "cache/DiskCache.h"
#include "pyk/error.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "ScopedEnvironment.h"
#include "TemporaryFolder.h"

using pyk::cache::cacheFolderFromEnvironment;
using pyk::cache::DiskCache;
using pyk::cache::preparePrivateFolder;

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

TEST(CacheFolder, PykCacheDirComesFirst) {
  ScopedEnvironment environment;
  environment.set("PYK_CACHE_DIR", "/somewhere/pyk-cache");
  environment.set("XDG_CACHE_HOME", "/xdg");
  environment.set("HOME", "/home/someone");
  EXPECT_EQ(cacheFolderFromEnvironment(), "/somewhere/pyk-cache");
}

TEST(CacheFolder, XdgCacheHomeComesNext) {
  ScopedEnvironment environment;
  environment.unset("PYK_CACHE_DIR");
  environment.set("XDG_CACHE_HOME", "/xdg");
  environment.set("HOME", "/home/someone");
  EXPECT_EQ(cacheFolderFromEnvironment(), "/xdg/pyk");
  environment.set("PYK_CACHE_DIR", ""); // empty counts as unset
  EXPECT_EQ(cacheFolderFromEnvironment(), "/xdg/pyk");
}

TEST(CacheFolder, HomeComesLast) {
  ScopedEnvironment environment;
  environment.unset("PYK_CACHE_DIR");
  environment.unset("XDG_CACHE_HOME");
  environment.set("HOME", "/home/someone");
  EXPECT_EQ(cacheFolderFromEnvironment(), "/home/someone/.cache/pyk");
  // The XDG spec says a relative XDG_CACHE_HOME is invalid and must be ignored.
  environment.set("XDG_CACHE_HOME", "relative/cache");
  EXPECT_EQ(cacheFolderFromEnvironment(), "/home/someone/.cache/pyk");
}

TEST(CacheFolder, DiskCacheUsesTheEnvironmentsFolderAndCreatesItPrivate) {
  TemporaryFolder temporary;
  ScopedEnvironment environment;
  environment.set("PYK_CACHE_DIR", (temporary / "a/b/cache").string());
  DiskCache cache;
  EXPECT_EQ(cache.folder(), temporary / "a/b/cache");
  EXPECT_EQ(modeOf(temporary / "a/b/cache"), 0700u);
  EXPECT_EQ(modeOf(temporary / "a"), 0700u);
}

TEST(CacheFolder, XdgFolderIsCreatedUnderXdgCacheHome) {
  TemporaryFolder temporary;
  ScopedEnvironment environment;
  environment.unset("PYK_CACHE_DIR");
  environment.set("XDG_CACHE_HOME", (temporary / "xdg").string());
  DiskCache cache;
  EXPECT_EQ(cache.folder(), temporary / "xdg/pyk");
  EXPECT_TRUE(std::filesystem::is_directory(temporary / "xdg/pyk"));
}

TEST(CacheFolder, HomeFolderIsCreatedUnderDotCache) {
  TemporaryFolder temporary;
  ScopedEnvironment environment;
  environment.unset("PYK_CACHE_DIR");
  environment.unset("XDG_CACHE_HOME");
  environment.set("HOME", temporary.path().string());
  DiskCache cache;
  EXPECT_EQ(cache.folder(), temporary / ".cache/pyk");
  EXPECT_TRUE(std::filesystem::is_directory(temporary / ".cache/pyk"));
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

TEST(CacheFolder, MaxBytesComesFromTheArgumentThenTheEnvironment) {
  TemporaryFolder temporary;
  ScopedEnvironment environment;
  environment.unset("PYK_CACHE_MAX_BYTES");
  EXPECT_EQ(DiskCache(temporary.path()).maxBytes(), DiskCache::kDefaultMaxBytes);
  EXPECT_EQ(DiskCache::kDefaultMaxBytes, 1024u * 1024u * 1024u);
  environment.set("PYK_CACHE_MAX_BYTES", "12345");
  EXPECT_EQ(DiskCache(temporary.path()).maxBytes(), 12345u);
  EXPECT_EQ(DiskCache(temporary.path(), 777).maxBytes(), 777u);
  environment.set("PYK_CACHE_MAX_BYTES", "1G");
  EXPECT_EQ(cacheErrorOf([&] { DiskCache cache(temporary.path()); }),
            "PYK_CACHE_MAX_BYTES is '1G', not a number of bytes such as 1073741824");
}
