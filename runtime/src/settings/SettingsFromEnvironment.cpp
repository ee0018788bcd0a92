// SettingsFromEnvironment: RuntimeSettings parsed from the PYK_* environment variables (and
// XDG_CACHE_HOME, HOME for the cache folder). A malformed value is a pyk::Error naming its
// variable; an unset or empty variable keeps the default.
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "pyk/error.hpp"
#include "pyk/settings.hpp"

namespace pyk {

namespace {

constexpr unsigned kMaxWorkerCount = 4096;
constexpr std::size_t kMinFiberStackBytes = 16 * 1024;
constexpr std::size_t kMaxFiberStackBytes = std::size_t(1) << 30;

// A decimal count; false when `text` is empty, has other characters, or exceeds `limit`.
bool parseCount(const std::string& text, unsigned long long limit, unsigned long long& count) {
  if (text.empty() || text.size() > 19)
    return false;
  count = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    count = count * 10 + static_cast<unsigned long long>(c - '0');
  }
  return count <= limit;
}

BackendChoice parseBackend(const std::string& text) {
  if (text == "auto")
    return BackendChoice::Auto;
  if (text == "cpu")
    return BackendChoice::Cpu;
  if (text == "cuda")
    return BackendChoice::Cuda;
  throw Error(ErrorKind::InvalidArgument,
              "PYK_BACKEND=" + text + " is not a backend (cuda, cpu or auto)");
}

unsigned parseWorkerCount(const std::string& text) {
  unsigned long long count = 0;
  if (!parseCount(text, kMaxWorkerCount, count) || count == 0)
    throw Error(ErrorKind::InvalidArgument,
                "`PYK_CPU_THREADS` must be a count of threads from 1 to " +
                    std::to_string(kMaxWorkerCount) + ", not `" + text + "`");
  return static_cast<unsigned>(count);
}

unsigned parseCpuDevices(const std::string& text) {
  if (text == "numa")
    return 0;
  unsigned long long count = 0;
  if (!parseCount(text, kMaxWorkerCount, count) || count == 0)
    throw Error(ErrorKind::InvalidArgument,
                "`PYK_CPU_DEVICES` must be `numa` or a count of devices from 1 to " +
                    std::to_string(kMaxWorkerCount) + ", not `" + text + "`");
  return static_cast<unsigned>(count);
}

std::size_t parseFiberStackBytes(const std::string& text) {
  std::string digits = text;
  unsigned long long scale = 1;
  if (!digits.empty() && (digits.back() == 'K' || digits.back() == 'k')) {
    scale = 1024;
    digits.pop_back();
  } else if (!digits.empty() && (digits.back() == 'M' || digits.back() == 'm')) {
    scale = 1024 * 1024;
    digits.pop_back();
  }
  unsigned long long count = 0;
  if (!parseCount(digits, kMaxFiberStackBytes / scale, count) ||
      count * scale < kMinFiberStackBytes)
    throw Error(ErrorKind::InvalidArgument,
                "`PYK_CPU_FIBER_STACK` must be a size in bytes (or with a K or M suffix) from 16K "
                "to 1024M, not `" +
                    text + "`");
  return static_cast<std::size_t>(count * scale);
}

CpuShapes parseCpuShapes(const std::string& text) {
  if (text == "background")
    return CpuShapes::Background;
  if (text == "now")
    return CpuShapes::Now;
  if (text == "off")
    return CpuShapes::Off;
  throw Error(ErrorKind::InvalidArgument,
              "`PYK_CPU_SHAPES` must be `background`, `now` or `off`, not `" + text + "`");
}

CpuMode parseCpuMode(const std::string& text) {
  if (text == "auto")
    return CpuMode::Auto;
  if (text == "fiber")
    return CpuMode::Fiber;
  throw Error(ErrorKind::InvalidArgument,
              "`PYK_CPU_MODE` must be `fiber` or `auto`, not `" + text + "`");
}

std::uint64_t parseCacheMaxBytes(const std::string& text) {
  std::uint64_t bytes = 0;
  for (char c : text) {
    if (c < '0' || c > '9' || __builtin_mul_overflow(bytes, 10, &bytes) ||
        __builtin_add_overflow(bytes, static_cast<std::uint64_t>(c - '0'), &bytes))
      throw Error(ErrorKind::Cache, "PYK_CACHE_MAX_BYTES is '" + text +
                                        "', not a number of bytes such as 1073741824");
  }
  return bytes;
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

} // namespace

RuntimeSettings RuntimeSettings::from_environment() {
  return from_environment([](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
  });
}

RuntimeSettings RuntimeSettings::from_environment(
    const std::function<std::optional<std::string>(const char* name)>& variable) {
  // The value of `name`; "" when unset or empty (both keep the default).
  auto value = [&](const char* name) { return variable(name).value_or(""); };
  RuntimeSettings s;
  if (const std::string v = value("PYK_BACKEND"); !v.empty())
    s.backend = parseBackend(v);
  if (const std::string v = value("PYK_CPU_THREADS"); !v.empty())
    s.cpu_threads = parseWorkerCount(v);
  if (const std::string v = value("PYK_CPU_FIBER_STACK"); !v.empty())
    s.cpu_fiber_stack_bytes = parseFiberStackBytes(v);
  if (const std::string v = value("PYK_CPU_MODE"); !v.empty())
    s.cpu_mode = parseCpuMode(v);
  if (const std::string v = value("PYK_CPU_SHAPES"); !v.empty())
    s.cpu_shapes = parseCpuShapes(v);
  if (const std::string v = value("PYK_CPU_DEVICES"); !v.empty())
    s.cpu_devices = parseCpuDevices(v);
  if (const std::string v = value("PYK_BOUNDSCHECK"); !v.empty())
    s.bounds_check = v != "0";
  // The cache folder: PYK_CACHE_DIR, else XDG_CACHE_HOME/pyk when absolute (as the XDG spec
  // requires), else HOME/.cache/pyk (HOME from the password database when unset).
  if (const std::string dir = value("PYK_CACHE_DIR"); !dir.empty()) {
    s.cache_folder = dir;
  } else if (const std::string xdg = value("XDG_CACHE_HOME"); !xdg.empty() && xdg.front() == '/') {
    s.cache_folder = std::filesystem::path(xdg) / "pyk";
  } else {
    std::string home = value("HOME");
    if (home.empty())
      home = homeFromPasswordDatabase();
    if (!home.empty())
      s.cache_folder = std::filesystem::path(home) / ".cache" / "pyk";
  }
  if (const std::string v = value("PYK_CACHE_MAX_BYTES"); !v.empty())
    s.cache_max_bytes = parseCacheMaxBytes(v);
  s.host_compiler = value("PYK_CXX");
  s.libcuda = value("PYK_LIBCUDA");
  s.libnvrtc = value("PYK_LIBNVRTC");
  s.specialization_log = value("PYK_SPECIALIZATION_LOG");
  if (const std::string v = value("PYK_COMPILE_MESSAGES"); !v.empty()) {
    if (v != "0" && v != "1")
      throw Error(ErrorKind::InvalidArgument,
                  "PYK_COMPILE_MESSAGES must be 1 (say when a compile takes long) or 0, not `" + v +
                      "`");
    s.compile_messages = v == "1";
  }
  if (const std::string v = value("PYK_CPU_PRECOMPILED_HEADER"); !v.empty()) {
    if (v != "0" && v != "1")
      throw Error(ErrorKind::InvalidArgument,
                  "PYK_CPU_PRECOMPILED_HEADER must be 1 (compile kernels against the support "
                  "header precompiled once) or 0, not `" +
                      v + "`");
    s.cpu_precompiled_header = v == "1";
  }
  return s;
}

} // namespace pyk
