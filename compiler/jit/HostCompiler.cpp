// HostCompiler: writes the unit and the support header into a private temporary folder and runs
// the compiler there (jit/ChildProcess).
#include "jit/HostCompiler.h"

#include "jit/CompileFlags.h"

#include <algorithm>

#include <signal.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "base/Error.h"
#include "base/FileReplacement.h"
#include "jit/ChildProcess.h"
#include "jit/SupportHeaders.h"

namespace pyk::jit {

namespace {

// The unit and the support header, in the compile's private folder. base/FileReplacement: a
// failure (a full disk) names the file and the reason.
void writeFile(const std::filesystem::path& path, std::string_view text) {
  base::replaceFile(path, text, 0600, ErrorKind::Compile);
}

// The lines of /proc/cpuinfo that decide what -march=native targets.
std::string cpuIdentity() {
  std::ifstream in("/proc/cpuinfo");
  std::string identity;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0 || line.rfind("flags", 0) == 0)
      identity += line + "\n";
    if (line.empty() && !identity.empty())
      break;
  }
  return identity;
}

// The compiler's file, symbolic links followed ("" when it is not found).
std::filesystem::path compilerFile(const std::string& compiler) {
  std::string path = compiler;
  if (path.find('/') == std::string::npos) {
    const char* env = std::getenv("PATH");
    std::stringstream dirs(env != nullptr ? env : "/usr/bin");
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (std::filesystem::exists(std::filesystem::path(dir) / compiler)) {
        path = (std::filesystem::path(dir) / compiler).string();
        break;
      }
  }
  std::error_code ec;
  const std::filesystem::path resolved = std::filesystem::canonical(path, ec);
  return ec ? std::filesystem::path() : resolved;
}

// The compiler's file (size and time) stands for its version without running it.
std::string compilerIdentity(const std::string& compiler, const std::filesystem::path& resolved) {
  struct stat info {};
  if (resolved.empty() || ::stat(resolved.c_str(), &info) != 0)
    return compiler;
  return resolved.string() + ":" + std::to_string(info.st_size) + ":" +
         std::to_string(info.st_mtime);
}

} // namespace

const HostCompiler& HostCompiler::named(const std::string& command) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<const HostCompiler>>* compilers =
      new std::map<std::string, std::unique_ptr<const HostCompiler>>;
  std::lock_guard lock(mutex);
  std::unique_ptr<const HostCompiler>& compiler = (*compilers)[command];
  if (compiler == nullptr)
    compiler.reset(new HostCompiler(command.empty() ? PYK_HOST_CXX : command));
  return *compiler;
}

HostCompiler::HostCompiler(std::string command) : command_(std::move(command)) {
  const std::filesystem::path file = compilerFile(command_);
  identity_ = compilerIdentity(command_, file) + "\n" + cpuIdentity();
  // Debian's g++ is x86_64-linux-gnu-g++-12 once its links are followed; clang++ is clang-14.
  const std::string name = file.filename().string();
  gcc_ = name.find("g++") != std::string::npos || name.find("gcc") != std::string::npos;
}

std::vector<std::string> HostCompiler::flags() {
  // No -ffast-math: numba does not relax IEEE semantics without fastmath=True. -fno-math-errno
  // changes no result (errno is never read) and lets sqrt vectorise.
  // No -fno-finite-loops: it took the block reductions 5x as long (the thread loops' optimisation
  // needs C++'s forward-progress rule); a user's `while` loop gets an empty volatile asm instead
  // (CpuSpelling::loopProgress), so that g++ cannot delete it. Signed overflow stays undefined:
  // numba marks signed integer arithmetic `nsw` (numba/cpython/numbers.py), the same assumption.
  // -fno-tree-loop-distribute-patterns: a split region's loop over a block row that copies
  // (`tile[ty, tx] = c`) stays a vectorised loop instead of a call of memcpy per row of 32 or
  // 256 floats (22 % of the diffusion benchmark's time went to those calls).
  std::vector<std::string> f = {"-std=c++20",
                                "-O3",
                                "-march=native",
                                "-fPIC",
                                "-shared",
                                "-fno-math-errno",
                                "-fno-tree-loop-distribute-patterns",
                                "-fno-plt",
                                "-fvisibility=hidden",
                                "-w"};
  return f;
}

namespace {

// Removes the compile folders (`pyk-<pid>-XXXXXX`) of this user's processes that died before
// removing their own (a kill -9 during a compile); those of live processes are left alone. Once
// a process, at its first compile.
void removeAbandonedCompileFolders(const std::string& tmp) {
  std::error_code ec;
  for (std::filesystem::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("pyk-", 0) != 0)
      continue;
    const std::size_t dash = name.find('-', 4);
    if (dash == std::string::npos || dash == 4)
      continue;
    const std::string digits = name.substr(4, dash - 4);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        digits.size() > 9)
      continue;
    const auto pid = static_cast<pid_t>(std::stol(digits));
    struct stat status {};
    if (::lstat(it->path().c_str(), &status) != 0 || !S_ISDIR(status.st_mode) ||
        status.st_uid != ::geteuid() || pid == ::getpid())
      continue;
    if (::kill(pid, 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      std::filesystem::remove_all(it->path(), ignored);
    }
  }
}

} // namespace

namespace {

// A private temporary folder (`$TMPDIR/pyk-PID-XXXXXX`), removed with everything in it when the
// object goes.
class CompileFolder {
public:
  CompileFolder() {
    const char* tmpVariable = std::getenv("TMPDIR");
    const std::string tmp = tmpVariable != nullptr && *tmpVariable != '\0' ? tmpVariable : "/tmp";
    static std::once_flag cleaned;
    std::call_once(cleaned, [&] { removeAbandonedCompileFolders(tmp); });
    std::string pattern = tmp + "/pyk-" + std::to_string(::getpid()) + "-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr)
      throw Error(ErrorKind::Compile,
                  "cannot create a temporary folder in " + pattern + ": " + std::strerror(errno));
    path_ = pattern;
  }
  CompileFolder(const CompileFolder&) = delete;
  CompileFolder& operator=(const CompileFolder&) = delete;
  ~CompileFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

std::string cannotRun(const std::string& command, int error) {
  return "cannot run the host C++ compiler `" + command + "` (" + std::strerror(error) +
         "); set PYK_CXX to a C++20 compiler";
}

} // namespace

std::string HostCompiler::compile(const std::string& source, const std::string& name,
                                  const std::filesystem::path& headerFolder,
                                  const std::vector<std::string>& extraFlags) const {
  const CompileFolder folder;
  const std::filesystem::path& dir = folder.path();
  std::filesystem::path includes = headerFolder;
  if (includes.empty()) {
    includes = dir / "cpu";
    std::filesystem::create_directories(includes);
    writeFile(includes / "pyk_cpu_support.h", cpuSupportHeaderText());
  }
  writeFile(dir / "kernel.cpp", source);

  std::vector<std::string> args = {command_};
  for (const std::string& f : flags())
    args.push_back(f);
  args.insert(args.end(), extraFlags.begin(), extraFlags.end());
  args.insert(args.end(), {"-I", includes.string(), "-o", (dir / "kernel.so").string(),
                           (dir / "kernel.cpp").string()});
  const ChildOutcome outcome = runChild(args, dir / "log.txt");
  if (outcome.startError != 0)
    throw Error(ErrorKind::Compile, cannotRun(command_, outcome.startError));
  if (!outcome.succeeded) {
    const std::string log = readWholeFile(dir / "log.txt");
    // An error in CUDA C++ the user linked (numba's link=) is the user's to mend, not pyk's bug.
    if (const std::string linked = linkedSourceInError(source, log); !linked.empty())
      throw Error(ErrorKind::Compile,
                  "the CUDA C++ linked with `" + name + "` (" + linked +
                      ") does not compile for the CPU backend: the host C++ compiler sees it as "
                      "plain C++, without CUDA's device built-ins (threadIdx, __syncthreads, "
                      "__shfl_sync, ... exist only on a GPU); run it on the CUDA backend, or keep "
                      "to portable C++ in the functions pyk kernels call:\n" +
                      log);
    throw Error(ErrorKind::Internal, "the host C++ compiler `" + command_ +
                                         "` rejected the code pyk generated for `" + name +
                                         "` (a bug in pyk):\n" + log);
  }
  return readWholeFile(dir / "kernel.so");
}

std::string HostCompiler::precompileHeader(const std::filesystem::path& header,
                                           const std::filesystem::path& output) const {
  std::vector<std::string> args = {command_};
  for (const std::string& f : flags())
    if (f != "-shared")
      args.push_back(f);
  const std::filesystem::path log = output.string() + ".log";
  args.insert(args.end(), {"-x", "c++-header", header.string(), "-o", output.string()});
  const ChildOutcome outcome = runChild(args, log);
  std::string messages = outcome.startError != 0 ? cannotRun(command_, outcome.startError)
                         : outcome.succeeded     ? std::string()
                                                 : readWholeFile(log);
  if (!outcome.succeeded && messages.empty())
    messages = "the compiler failed without a message";
  std::error_code ignored;
  std::filesystem::remove(log, ignored);
  return messages;
}

} // namespace pyk::jit
