// DeviceMemoryTest: the CPU backend's buffers: 64-byte aligned, and those of 4 MiB and more
// 2 MiB-aligned and advised into transparent huge pages (where the system offers them).
#include "pyk/pyk.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace {

std::uintptr_t address(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p);
}

TEST(DeviceMemory, SmallBuffersAreCacheLineAligned) {
  for (std::int64_t n : {1, 3, 1000, 100000}) {
    auto a = pyk::device_array<float>(n);
    EXPECT_EQ(address(a.device_data()) % 64, 0u) << n;
  }
}

TEST(DeviceMemory, LargeBuffersSitOnHugePageBoundaries) {
  const std::int64_t n = std::int64_t{8} << 20; // 32 MiB of float32
  std::vector<float> host(static_cast<size_t>(n), 1.5f);
  auto a = pyk::to_device(host);
  EXPECT_EQ(address(a.device_data()) % (std::uintptr_t{2} << 20), 0u);
  // Where the kernel backs anonymous memory with huge pages on request, it does so here (the
  // copy above touched every page); informational, as fragmentation may leave small pages.
  std::ifstream smaps("/proc/self/smaps_rollup");
  for (std::string line; std::getline(smaps, line);)
    if (line.rfind("AnonHugePages:", 0) == 0)
      RecordProperty("AnonHugePages", line);
  EXPECT_EQ(a.copy_to_host()[static_cast<size_t>(n - 1)], 1.5f);
}

} // namespace
