// CpuTopology: see CpuTopology.h.
#include "cpu/CpuTopology.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <string>

#include "pyk/error.hpp"

namespace pyk::cpu {

std::vector<int> parseCpuList(std::string_view text, bool& ok) {
  ok = true;
  std::vector<int> cpus;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.remove_suffix(1);
  if (text.empty())
    return cpus; // a node without CPUs (memory only)
  auto number = [&](std::string_view part, int& out) {
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), out);
    return error == std::errc() && end == part.data() + part.size() && out >= 0 &&
           out < CPU_SETSIZE;
  };
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string_view range = text.substr(at, comma - at);
    const std::size_t dash = range.find('-');
    int first = 0, last = 0;
    bool good = false;
    if (dash == std::string_view::npos) {
      good = number(range, first);
      last = first;
    } else {
      good = number(range.substr(0, dash), first) && number(range.substr(dash + 1), last) &&
             last >= first;
    }
    if (!good) {
      ok = false;
      return {};
    }
    for (int cpu = first; cpu <= last; ++cpu)
      cpus.push_back(cpu);
    at = comma + 1;
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::vector<int> affinityCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof set, &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set))
        cpus.push_back(cpu);
  return cpus;
}

namespace {
cpu_set_t cpuSetOf(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus)
    if (cpu >= 0 && cpu < CPU_SETSIZE)
      CPU_SET(cpu, &set);
  return set;
}
} // namespace

void bindCallingThread(const std::vector<int>& cpus) {
  const cpu_set_t set = cpuSetOf(cpus);
  (void)::sched_setaffinity(0, sizeof set, &set);
}

void bindThread(std::thread& thread, const std::vector<int>& cpus) {
  const cpu_set_t set = cpuSetOf(cpus);
  (void)::pthread_setaffinity_np(thread.native_handle(), sizeof set, &set);
}

namespace {

// node<N>/cpulist of `folder`, by node number; empty when there are none.
std::map<int, std::vector<int>> numaNodes(const std::filesystem::path& folder) {
  std::map<int, std::vector<int>> nodes;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    int node = 0;
    if (name.rfind("node", 0) != 0 ||
        std::from_chars(name.data() + 4, name.data() + name.size(), node).ptr !=
            name.data() + name.size())
      continue;
    std::ifstream in(entry.path() / "cpulist");
    std::string text;
    bool ok = false;
    if (std::getline(in, text)) {
      std::vector<int> cpus = parseCpuList(text, ok);
      if (ok)
        nodes[node] = std::move(cpus);
    }
  }
  return nodes;
}

} // namespace

std::vector<CpuGroup> cpuGroups(unsigned devices, const std::vector<int>& usable,
                                const std::filesystem::path& nodesFolder) {
  std::vector<CpuGroup> groups;
  if (devices == 0) {
    for (const auto& [node, cpus] : numaNodes(nodesFolder)) {
      CpuGroup g;
      g.numaNode = node;
      std::set_intersection(cpus.begin(), cpus.end(), usable.begin(), usable.end(),
                            std::back_inserter(g.cpus));
      if (!g.cpus.empty())
        groups.push_back(std::move(g));
    }
    if (groups.empty()) // no NUMA information: the whole mask
      groups.push_back(CpuGroup{usable, -1});
    return groups;
  }
  if (usable.size() < devices)
    throw Error(ErrorKind::InvalidArgument,
                "PYK_CPU_DEVICES=" + std::to_string(devices) + ": the process may run on " +
                    std::to_string(usable.size()) + " CPUs, fewer than that many devices");
  // Consecutive CPUs, the first `usable % devices` groups one larger.
  const std::size_t base = usable.size() / devices, extra = usable.size() % devices;
  std::size_t at = 0;
  for (unsigned d = 0; d < devices; ++d) {
    const std::size_t size = base + (d < extra ? 1 : 0);
    groups.push_back(CpuGroup{std::vector<int>(usable.begin() + static_cast<long>(at),
                                               usable.begin() + static_cast<long>(at + size)),
                              -1});
    at += size;
  }
  return groups;
}

} // namespace pyk::cpu
