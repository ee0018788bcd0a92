// CpuTopology: the CPU backend's devices as groups of CPUs (PYK_CPU_DEVICES): the CPUs of the
// process's affinity mask as one device (the default), one device per NUMA node (the node's CPUs
// within the mask, as /sys/devices/system/node lists them), or the mask cut into N groups of
// consecutive CPUs.
#pragma once

#include <filesystem>
#include <string_view>
#include <thread>
#include <vector>

namespace pyk::cpu {

struct CpuGroup {
  std::vector<int> cpus; // ascending
  int numaNode = -1;     // the node whose memory it prefers; -1: none in particular
};

// The CPUs of a Linux cpulist ("0-3,8,10-11"), ascending; std::nullopt-like empty result and
// `ok` false when the text is not one.
std::vector<int> parseCpuList(std::string_view text, bool& ok);

// The CPUs the calling thread may run on (its affinity mask), ascending.
std::vector<int> affinityCpus();

// Binds the calling thread to `cpus` (not empty). Advice: where the system refuses, the thread
// stays free to run anywhere in its mask.
void bindCallingThread(const std::vector<int>& cpus);
// The same for `thread`, from another thread.
void bindThread(std::thread& thread, const std::vector<int>& cpus);

// The groups for `devices` (0: one per NUMA node, from `nodesFolder`'s node<N>/cpulist files;
// a folder without them gives one group) over the `usable` CPUs. A node with none of them is no
// device. Throws pyk::Error (InvalidArgument) when there are fewer usable CPUs than devices.
std::vector<CpuGroup> cpuGroups(unsigned devices, const std::vector<int>& usable,
                                const std::filesystem::path& nodesFolder);

} // namespace pyk::cpu
