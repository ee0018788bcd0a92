// CpuTopologyTest: the CPU backend's devices as groups of CPUs: Linux cpulists, NUMA nodes read
// from a folder laid out as /sys/devices/system/node, equal groups, and too many devices refused.
#include "cpu/CpuTopology.h"

#include "pyk/error.hpp"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace pyk::cpu::testing {
namespace {

using Cpus = std::vector<int>;

Cpus parsed(const char* text) {
  bool ok = false;
  Cpus cpus = parseCpuList(text, ok);
  EXPECT_TRUE(ok) << text;
  return cpus;
}

bool refused(const char* text) {
  bool ok = true;
  return parseCpuList(text, ok).empty() && !ok;
}

TEST(CpuTopology, CpuListsAsLinuxWritesThem) {
  EXPECT_EQ(parsed("0-3,8,10-11\n"), (Cpus{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parsed("5"), (Cpus{5}));
  EXPECT_EQ(parsed("3,1-2,2"), (Cpus{1, 2, 3}));
  EXPECT_EQ(parsed(""), Cpus{}); // a node with memory and no CPU
  EXPECT_TRUE(refused("0-"));
  EXPECT_TRUE(refused("3-1"));
  EXPECT_TRUE(refused("a"));
  EXPECT_TRUE(refused("0,,1"));
  EXPECT_TRUE(refused("-1"));
}

class FakeNodes : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/pyk-nodes-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    folder_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  void node(int n, const std::string& cpulist) {
    const std::filesystem::path dir = folder_ / ("node" + std::to_string(n));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "cpulist") << cpulist << "\n";
  }
  std::filesystem::path folder_;
};

TEST_F(FakeNodes, OneDevicePerNodeWithUsableCpus) {
  node(0, "0-3");
  node(1, "4-7");
  node(2, "");                                               // memory only
  std::filesystem::create_directories(folder_ / "possible"); // not a node
  const std::vector<CpuGroup> all = cpuGroups(0, {0, 1, 2, 3, 4, 5, 6, 7}, folder_);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].cpus, (Cpus{0, 1, 2, 3}));
  EXPECT_EQ(all[0].numaNode, 0);
  EXPECT_EQ(all[1].cpus, (Cpus{4, 5, 6, 7}));
  EXPECT_EQ(all[1].numaNode, 1);
  // Bound to some CPUs of each node (as a launcher binds a rank): those.
  const std::vector<CpuGroup> bound = cpuGroups(0, {2, 3, 4}, folder_);
  ASSERT_EQ(bound.size(), 2u);
  EXPECT_EQ(bound[0].cpus, (Cpus{2, 3}));
  EXPECT_EQ(bound[1].cpus, (Cpus{4}));
  // Bound inside one node: one device.
  EXPECT_EQ(cpuGroups(0, {5, 6}, folder_).size(), 1u);
}

TEST_F(FakeNodes, NoNodeInformationIsOneDevice) {
  const std::vector<CpuGroup> groups = cpuGroups(0, {0, 1, 2}, folder_ / "missing");
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].cpus, (Cpus{0, 1, 2}));
  EXPECT_EQ(groups[0].numaNode, -1);
}

TEST(CpuTopology, EqualGroupsOfConsecutiveCpus) {
  const std::vector<CpuGroup> one = cpuGroups(1, {0, 1, 2, 3, 4}, "/nonexistent");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].cpus, (Cpus{0, 1, 2, 3, 4}));
  const std::vector<CpuGroup> three = cpuGroups(3, {0, 1, 2, 3, 4, 6, 7}, "/nonexistent");
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(three[0].cpus, (Cpus{0, 1, 2}));
  EXPECT_EQ(three[1].cpus, (Cpus{3, 4}));
  EXPECT_EQ(three[2].cpus, (Cpus{6, 7}));
  EXPECT_EQ(three[2].numaNode, -1);
  try {
    cpuGroups(4, {0, 1, 2}, "/nonexistent");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "PYK_CPU_DEVICES=4: the process may run on 3 CPUs, fewer than that many devices");
  }
}

TEST(CpuTopology, TheAffinityMaskHasTheCallingThreadsCpus) {
  const Cpus cpus = affinityCpus();
  ASSERT_FALSE(cpus.empty());
  EXPECT_TRUE(std::is_sorted(cpus.begin(), cpus.end()));
}

} // namespace
} // namespace pyk::cpu::testing
