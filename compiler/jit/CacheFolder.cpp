// CacheFolder: the disk cache's folder made, and checked private to the user.
#include "jit/CacheFolder.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "base/Error.h"

namespace pyk::jit {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw Error(ErrorKind::Cache, what);
}

std::string octalMode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

} // namespace

void preparePrivateFolder(const std::filesystem::path& folder) {
  // mkdir each missing component, so the ones pyk creates are private from the start.
  std::filesystem::path prefix;
  for (const std::filesystem::path& component : folder) {
    prefix /= component;
    struct stat existing {};
    if (::stat(prefix.c_str(), &existing) == 0)
      continue;
    if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
      fail("cannot create the cache folder " + prefix.string() + ": " + std::strerror(errno));
  }
  struct stat status {};
  if (::stat(folder.c_str(), &status) != 0)
    fail("cannot use the cache folder " + folder.string() + ": " + std::strerror(errno));
  if (!S_ISDIR(status.st_mode))
    fail("the cache folder " + folder.string() +
         " is not a directory; set PYK_CACHE_DIR to a "
         "folder of your own");
  if (status.st_uid != ::geteuid())
    fail("the cache folder " + folder.string() + " belongs to user id " +
         std::to_string(status.st_uid) + ", not to you (user id " + std::to_string(::geteuid()) +
         "); pyk only loads compiled code from a folder of your own: set PYK_CACHE_DIR to one");
  if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    fail("the cache folder " + folder.string() + " is writable by its group or by others (mode " +
         octalMode(status.st_mode) +
         "); pyk only loads compiled code from a private folder: run "
         "`chmod go-w " +
         folder.string() + "` or set PYK_CACHE_DIR");
}

} // namespace pyk::jit
