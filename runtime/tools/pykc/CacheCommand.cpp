// CacheCommand: see CacheCommand.h. `list` prints one entry a line, least recently used first:
// when it was last used (and how long ago), its size, its target, the kernel with its argument
// types and the .pyk file, then the totals.
#include "pykc/CacheCommand.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <string>

#include "pyk/cache.hpp"

namespace pyk::driver {

namespace {

std::string humanBytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

std::string age(std::chrono::system_clock::time_point when) {
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now() - when)
          .count();
  if (seconds < 120)
    return std::to_string(std::max<long long>(seconds, 0)) + " s ago";
  if (seconds < 2 * 3600)
    return std::to_string(seconds / 60) + " min ago";
  if (seconds < 2 * 86400)
    return std::to_string(seconds / 3600) + " h ago";
  return std::to_string(seconds / 86400) + " d ago";
}

std::string utc(std::chrono::system_clock::time_point when) {
  std::time_t t = std::chrono::system_clock::to_time_t(when);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

} // namespace

int runCacheCommand(const Options& options) {
  if (options.command == Command::CacheClear) {
    const std::size_t removed = pyk::clear_cache();
    std::cout << "removed " << removed << (removed == 1 ? " entry" : " entries") << '\n';
    return 0;
  }
  if (options.command == Command::CachePrune) {
    const std::size_t removed = pyk::prune_cache(std::chrono::seconds(options.pruneUnusedSeconds),
                                                 options.pruneMaxBytes.value_or(UINT64_MAX));
    std::cout << "removed " << removed << (removed == 1 ? " entry" : " entries") << '\n';
    return 0;
  }
  const pyk::CacheContents contents = pyk::list_cache();
  std::uint64_t total = 0;
  std::cout << "cache " << contents.folder.string() << '\n';
  for (const pyk::CacheEntrySummary& e : contents.entries) {
    char line[96];
    std::snprintf(line, sizeof line, "%s (%s)  %10s  %-22s  ", utc(e.last_use).c_str(),
                  age(e.last_use).c_str(), humanBytes(e.bytes).c_str(),
                  e.target.empty() ? "?" : e.target.c_str());
    std::cout << line;
    if (e.kernel.empty())
      std::cout << "(an entry of an older pyk) " << e.key.substr(0, 16) << '\n';
    else
      std::cout << e.kernel << "  " << e.source << '\n';
    total += e.bytes;
  }
  std::cout << contents.entries.size() << (contents.entries.size() == 1 ? " entry, " : " entries, ")
            << total << " of " << contents.max_bytes << " bytes\n";
  return 0;
}

} // namespace pyk::driver
