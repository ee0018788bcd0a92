// PrecompiledHeader: found, or built under a lock file, once a process per cache folder and
// compiler; the key hashes what GCC checks a precompiled header against and more (the compiler's
// file, the CPU, the flags, the header's text, pyk's version).
#include "jit/PrecompiledHeader.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "base/Error.h"
#include "base/FileReplacement.h"
#include "base/Version.h"
#include "cpu/engine_abi.h"
#include "jit/CacheFolder.h"
#include "jit/CacheKey.h"
#include "jit/SupportHeaders.h"
#include "jit/Warnings.h"

namespace pyk::jit {

namespace {

constexpr const char* kHeaderName = "pyk_cpu_support.h";
constexpr const char* kPrecompiledName = "pyk_cpu_support.h.gch";
constexpr const char* kFolderPrefix = "pch-";
constexpr const char* kTemporaryPrefix = ".pch-";
constexpr auto kAbandonedBuildAfter = std::chrono::hours(1);

std::string precompiledHeaderKey(const HostCompiler& compiler) {
  std::vector<std::string> parts = {
      "pyk-cpu-precompiled-header",
      std::to_string(kVersion.major) + "." + std::to_string(kVersion.minor) + "." +
          std::to_string(kVersion.patch),
      std::to_string(cpu::kAbiVersion), compiler.identity(), cpuSupportHeaderDigest()};
  for (const std::string& f : HostCompiler::flags())
    parts.push_back(f);
  return CacheKey::of(parts).hex().substr(0, 32);
}

// The first lines of a compiler's messages, for a warning.
std::string firstLines(const std::string& text, int lines) {
  std::size_t end = 0;
  for (int i = 0; i < lines && end != std::string::npos; ++i)
    end = text.find('\n', end == 0 ? 0 : end + 1);
  return end == std::string::npos ? text : text.substr(0, end) + "\n...";
}

class LockFile {
public:
  explicit LockFile(const std::filesystem::path& path)
      : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600)) {
    // Without the lock two processes may both build; the second's rename then fails and it uses
    // the first's. The lock only saves the work.
    if (fd_ >= 0)
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  LockFile(const LockFile&) = delete;
  LockFile& operator=(const LockFile&) = delete;
  ~LockFile() {
    if (fd_ >= 0)
      ::close(fd_);
  }

private:
  int fd_;
};

bool isFile(const std::filesystem::path& path) {
  struct stat status {};
  return ::lstat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode) && status.st_size > 0;
}

// The folder `pch-KEY` in `cache`, built when it is missing. std::nullopt (with a warning) when
// it cannot be.
std::optional<std::filesystem::path> findOrBuild(const std::filesystem::path& cache,
                                                 const std::string& key,
                                                 const HostCompiler& compiler) {
  const std::filesystem::path folder = cache / (kFolderPrefix + key);
  if (isFile(folder / kPrecompiledName))
    return folder;
  const LockFile lock(cache / (kFolderPrefix + key + ".lock"));
  if (isFile(folder / kPrecompiledName)) // built while this process waited
    return folder;
  std::string pattern = (cache / (kTemporaryPrefix + key + ".tmp-XXXXXX")).string();
  const std::string warningKey = "precompiled header " + cache.string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    warnOnce(warningKey, "the CPU support header is not precompiled: cannot create a folder in " +
                             cache.string() + ": " + std::strerror(errno) +
                             "; each kernel's compile parses it again (about 0.4 s)");
    return std::nullopt;
  }
  const std::filesystem::path temporary = pattern;
  std::error_code ignored;
  std::string failure;
  try {
    base::replaceFile(temporary / kHeaderName, cpuSupportHeaderText(), 0600, ErrorKind::Cache);
    failure = compiler.precompileHeader(temporary / kHeaderName, temporary / kPrecompiledName);
  } catch (const Error& e) {
    failure = e.what();
  }
  if (failure.empty() && ::rename(temporary.c_str(), folder.c_str()) != 0) {
    // Another process (without the lock: a folder where locks do not work) made it first.
    std::filesystem::remove_all(temporary, ignored);
    if (isFile(folder / kPrecompiledName))
      return folder;
    failure = std::string("cannot rename it into ") + folder.string() + ": " + std::strerror(errno);
  }
  if (!failure.empty()) {
    std::filesystem::remove_all(temporary, ignored);
    warnOnce(warningKey, "the CPU support header could not be precompiled with `" +
                             compiler.command() + "` in " + cache.string() +
                             ", so each kernel's compile parses it again (about 0.4 s): " +
                             firstLines(failure, 12));
    return std::nullopt;
  }
  return folder;
}

struct Memory {
  std::mutex mutex;
  std::map<std::string, std::optional<std::filesystem::path>> found; // by cache folder + compiler
  std::set<std::filesystem::path> discarded;
};

Memory& memory() {
  static Memory* m = new Memory; // used by compiles on other threads until the process ends
  return *m;
}

} // namespace

std::optional<std::filesystem::path> precompiledSupportHeader(const JitSettings& settings,
                                                              const HostCompiler& compiler) {
  if (!settings.cpuPrecompiledHeader || settings.cacheFolder.empty() ||
      !compiler.readsPrecompiledHeaders())
    return std::nullopt;
  Memory& m = memory();
  std::lock_guard lock(m.mutex); // one build a process; the other threads wait for it
  const std::string memoKey = settings.cacheFolder.string() + "\n" + compiler.command();
  if (auto it = m.found.find(memoKey); it != m.found.end()) {
    if (it->second && m.discarded.count(*it->second))
      return std::nullopt;
    return it->second;
  }
  std::optional<std::filesystem::path> folder;
  try {
    // Code is compiled from what is found here: only in a folder private to the user (the disk
    // cache says why not when it is not).
    preparePrivateFolder(settings.cacheFolder);
    folder = findOrBuild(settings.cacheFolder, precompiledHeaderKey(compiler), compiler);
  } catch (const Error&) {
    folder.reset();
  }
  if (folder)
    ::utimensat(AT_FDCWD, folder->c_str(), nullptr, 0); // its last use, for prune
  m.found.emplace(memoKey, folder);
  return folder;
}

void discardPrecompiledHeader(const std::filesystem::path& folder, const std::string& why) {
  {
    Memory& m = memory();
    std::lock_guard lock(m.mutex);
    m.discarded.insert(folder);
  }
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  warnOnce("discarded " + folder.string(),
           "the precompiled CPU support header " + folder.string() +
               " was refused by the compiler and is removed (the next process builds it "
               "again): " +
               firstLines(why, 6));
}

std::size_t prunePrecompiledHeaders(const std::filesystem::path& cacheFolder,
                                    std::chrono::system_clock::time_point lastUsedBefore) {
  std::size_t removed = 0;
  const auto abandonedBefore = std::chrono::system_clock::now() - kAbandonedBuildAfter;
  std::error_code error;
  std::vector<std::filesystem::path> doomed;
  for (std::filesystem::directory_iterator it(cacheFolder, error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    struct stat status {};
    if (::lstat(it->path().c_str(), &status) != 0)
      continue;
    const auto modified = std::chrono::system_clock::from_time_t(status.st_mtime);
    const bool folder = S_ISDIR(status.st_mode);
    if (folder && name.rfind(kFolderPrefix, 0) == 0 && modified < lastUsedBefore) {
      doomed.push_back(it->path());
      ++removed;
    } else if (folder && name.rfind(kTemporaryPrefix, 0) == 0 && modified < abandonedBefore) {
      doomed.push_back(it->path());
    }
  }
  for (const std::filesystem::path& path : doomed) {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
    std::filesystem::remove(path.string() + ".lock", ignored);
  }
  return removed;
}

} // namespace pyk::jit
