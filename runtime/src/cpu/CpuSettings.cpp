// CpuSettings: reading PYK_CPU_THREADS and PYK_CPU_FIBER_STACK.
#include "cpu/CpuSettings.h"

#include "pyk/error.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>

namespace pyk::cpu {

namespace {

constexpr unsigned kMaxWorkerCount = 4096;
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

} // namespace

unsigned parseWorkerCount(const char* text) {
  unsigned long long count = 0;
  if (!parseCount(text, kMaxWorkerCount, count) || count == 0)
    throw Error(ErrorKind::InvalidArgument,
                "`PYK_CPU_THREADS` must be a count of threads from 1 to " +
                    std::to_string(kMaxWorkerCount) + ", not `" + text + "`");
  return static_cast<unsigned>(count);
}

std::size_t parseFiberStackBytes(const char* text) {
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
      count * scale < CpuSettings::kMinFiberStackBytes)
    throw Error(ErrorKind::InvalidArgument,
                "`PYK_CPU_FIBER_STACK` must be a size in bytes (or with a K or M suffix) from 16K "
                "to 1024M, not `" +
                    std::string(text) + "`");
  return static_cast<std::size_t>(count * scale);
}

CpuSettings CpuSettings::fromEnvironment() {
  CpuSettings settings;
  if (const char* threads = std::getenv("PYK_CPU_THREADS"); threads != nullptr && *threads)
    settings.workerCount = parseWorkerCount(threads);
  else
    settings.workerCount = std::max(1u, std::thread::hardware_concurrency());
  if (const char* stack = std::getenv("PYK_CPU_FIBER_STACK"); stack != nullptr && *stack)
    settings.fiberStackBytes = parseFiberStackBytes(stack);
  return settings;
}

} // namespace pyk::cpu
