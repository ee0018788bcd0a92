// CacheFolder: where the disk cache lives ($PYK_CACHE_DIR, else $XDG_CACHE_HOME/pyk, else
// $HOME/.cache/pyk), and the check that it is private to the user before anything is kept there.
#include "cache/CacheFolder.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pwd.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "pyk/error.hpp"

namespace pyk::cache {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw Error(ErrorKind::Cache, what);
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string homeFromPasswordDatabase() {
  std::vector<char> buffer(16384);
  struct passwd entry {};
  struct passwd* found = nullptr;
  if (::getpwuid_r(::geteuid(), &entry, buffer.data(), buffer.size(), &found) != 0 || !found ||
      !found->pw_dir)
    return "";
  return found->pw_dir;
}

std::string octalMode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

} // namespace

std::filesystem::path cacheFolderFromEnvironment() {
  if (std::string folder = environment("PYK_CACHE_DIR"); !folder.empty())
    return folder;
  if (std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty() && xdg.front() == '/')
    return std::filesystem::path(xdg) / "pyk";
  std::string home = environment("HOME");
  if (home.empty())
    home = homeFromPasswordDatabase();
  if (home.empty())
    fail("cannot find a cache folder: PYK_CACHE_DIR, XDG_CACHE_HOME and HOME are unset and the "
         "user has no home directory; set PYK_CACHE_DIR");
  return std::filesystem::path(home) / ".cache" / "pyk";
}

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

} // namespace pyk::cache
