// CpuDevices: see CpuDevices.h.
#include "cpu/CpuDevices.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cpu/CpuEngine.h"
#include "pyk/error.hpp"
#include "settings/SettingsStore.h"

namespace pyk::cpu {

namespace {

struct Devices {
  std::vector<CpuGroup> groups;
  // Made at a device's first launch under `mutex`, then read without it (every launch).
  std::unique_ptr<std::atomic<CpuEngine*>[]> engines;
  std::mutex mutex;
};

Devices& devices() {
  // Never destroyed (nor its engines): arrays and launches after main() still find them, as the
  // CUDA devices' contexts are kept.
  static Devices* d = [] {
    auto* made = new Devices;
    made->groups = cpuGroups(pyk::detail::currentSettings()->cpu_devices, affinityCpus(),
                             "/sys/devices/system/node");
    made->engines = std::make_unique<std::atomic<CpuEngine*>[]>(made->groups.size());
    return made;
  }();
  return *d;
}

thread_local int threadDevice = 0;

} // namespace

int cpuDeviceCount() {
  return static_cast<int>(devices().groups.size());
}

const CpuGroup& cpuDeviceGroup(int id) {
  return devices().groups.at(static_cast<std::size_t>(id));
}

int currentCpuDevice() {
  return threadDevice;
}

void selectCpuDevice(int id) {
  const int count = cpuDeviceCount();
  if (id < 0 || id >= count)
    throw Error(ErrorKind::Device, "select_device(" + std::to_string(id) +
                                       "): the CPU backend has " +
                                       (count == 1 ? std::string("one device, 0")
                                                   : std::to_string(count) + " devices, ids 0 to " +
                                                         std::to_string(count - 1)) +
                                       " (PYK_CPU_DEVICES)");
  if (count > 1)
    bindCallingThread(cpuDeviceGroup(id).cpus);
  threadDevice = id;
}

CpuEngine& cpuEngine(int id) {
  Devices& d = devices();
  std::atomic<CpuEngine*>& slot = d.engines[static_cast<std::size_t>(id)];
  if (CpuEngine* engine = slot.load(std::memory_order_acquire))
    return *engine;
  std::lock_guard lock(d.mutex);
  if (CpuEngine* engine = slot.load(std::memory_order_relaxed))
    return *engine;
  const std::shared_ptr<const RuntimeSettings> runtime = pyk::detail::currentSettings();
  CpuSettings settings = CpuSettings::of(*runtime);
  if (d.groups.size() > 1) {
    const CpuGroup& group = d.groups[static_cast<std::size_t>(id)];
    if (runtime->cpu_threads == 0)
      settings.workerCount = static_cast<unsigned>(group.cpus.size());
    settings.cpus = group.cpus;
  }
  auto* engine = new CpuEngine(settings);
  slot.store(engine, std::memory_order_release);
  return *engine;
}

} // namespace pyk::cpu
