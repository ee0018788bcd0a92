// CpuDevicesScenario: the CPU backend with PYK_CPU_DEVICES=2 (CTest sets it; the devices are
// fixed once a process): two devices of one CPU each where the process may run on two CPUs or
// more, each with its own engine whose workers are bound to its CPUs; a thread selecting a device
// is bound to them; arrays belong to the device they were made on; two threads launch on two
// devices at once and compute right.
#include "pyk/pyk.hpp"

#include <gtest/gtest.h>

#include <sched.h>

#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace {

const char* const kSource = R"(from numba import cuda


@cuda.jit
def where_am_i(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = i * 2.0
)";

std::vector<int> threadCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof set, &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set))
        cpus.push_back(cpu);
  return cpus;
}

TEST(TwoCpuDevices, EachDeviceHasItsCpusItsArraysAndItsLaunches) {
  if (threadCpus().size() < 2)
    GTEST_SKIP() << "this process may run on one CPU: two CPU devices need two";
  ASSERT_EQ(pyk::current_backend(), pyk::Backend::Cpu);
  ASSERT_EQ(pyk::device_count(), 2);
  const std::vector<int> all = threadCpus();
  const pyk::Module m = pyk::loads(kSource, "cpu_devices.pyk");
  std::vector<std::vector<float>> results(2);
  std::vector<std::vector<int>> bound(2);
  std::vector<int> arrayDevice(2, -1);
  std::vector<std::thread> threads;
  for (int d = 0; d < 2; ++d)
    threads.emplace_back([&, d] {
      pyk::select_device(d);
      bound[d] = threadCpus();
      pyk::DeviceArray<float> out = pyk::device_array<float>(100000);
      arrayDevice[d] = out.untyped().device_id();
      for (int i = 0; i < 20; ++i)
        m["where_am_i"][pyk::LaunchShape{(100000 + 255) / 256, 256}](out);
      results[d] = out.copy_to_host();
    });
  for (std::thread& t : threads)
    t.join();
  for (int d = 0; d < 2; ++d) {
    EXPECT_EQ(arrayDevice[d], d);
    ASSERT_EQ(results[d].size(), 100000u);
    for (std::size_t i = 0; i < results[d].size(); ++i)
      ASSERT_EQ(results[d][i], static_cast<float>(i) * 2.0f) << "device " << d << ", " << i;
  }
  // Each thread bound to its device's CPUs: disjoint, together the process's.
  EXPECT_FALSE(bound[0].empty());
  EXPECT_FALSE(bound[1].empty());
  std::vector<int> both = bound[0];
  both.insert(both.end(), bound[1].begin(), bound[1].end());
  std::sort(both.begin(), both.end());
  EXPECT_EQ(both, all);
  EXPECT_TRUE(pyk::can_access_peer(0, 1)); // one address space
}

TEST(TwoCpuDevices, ScopesRestoreAndOtherIdsAreRefused) {
  if (threadCpus().size() < 2)
    GTEST_SKIP() << "this process may run on one CPU: two CPU devices need two";
  EXPECT_EQ(pyk::current_device(), 0);
  {
    const pyk::DeviceScope scope(1);
    EXPECT_EQ(pyk::current_device(), 1);
    EXPECT_EQ(pyk::device_array<float>(8).untyped().device_id(), 1);
  }
  EXPECT_EQ(pyk::current_device(), 0);
  try {
    pyk::select_device(2);
    ADD_FAILURE() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_STREQ(e.what(),
                 "select_device(2): the CPU backend has 2 devices, ids 0 to 1 (PYK_CPU_DEVICES)");
  }
}

} // namespace
