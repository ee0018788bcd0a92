// CacheFaultTest: what a damaged disk cache or a missing compiler does to a launch on the CPU
// backend. An entry overwritten with garbage, replaced by another kernel's entry, made a
// directory, or the whole folder removed between launches: the kernel is compiled again and the
// result is right. A compiler that is missing or fails: a pyk::Error naming it, never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "CpuBackendTest.h"
#include "pyk/pyk.hpp"

namespace {

namespace fs = std::filesystem;

constexpr const char* kCacheFaultSource = R"(
from numba import cuda


@cuda.jit
def twice(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= 2
)";

using CacheFaults = CpuBackendTest;

// Launches `twice` from a fresh module (so the disk cache is asked) and checks the result.
template <typename T>
void launchAndCheck() {
  const pyk::Module m = pyk::loads(kCacheFaultSource, "faults.pyk");
  auto x = pyk::to_device(std::vector<T>{1, 2, 3});
  m["twice"][{{1}, {32}}](x);
  EXPECT_EQ(x.copy_to_host(), (std::vector<T>{2, 4, 6}));
}

std::vector<fs::path> entriesIn(const fs::path& folder) {
  std::vector<fs::path> out;
  for (const fs::directory_entry& e : fs::directory_iterator(folder))
    if (e.path().extension() == ".entry")
      out.push_back(e.path());
  return out;
}

TEST_F(CacheFaults, AnEntryOverwrittenWithGarbageIsRebuilt) {
  launchAndCheck<float>();
  const std::vector<fs::path> entries = entriesIn(cache_ / "cache");
  ASSERT_EQ(entries.size(), 1u);
  std::ofstream(entries[0], std::ios::binary | std::ios::trunc) << std::string(4096, '\x7f');
  launchAndCheck<float>();
  launchAndCheck<float>(); // and stored whole again
}

TEST_F(CacheFaults, AnEntryReplacedByAnotherKernelsIsRebuilt) {
  launchAndCheck<float>();
  launchAndCheck<double>();
  const std::vector<fs::path> entries = entriesIn(cache_ / "cache");
  ASSERT_EQ(entries.size(), 2u);
  fs::copy_file(entries[0], entries[1], fs::copy_options::overwrite_existing);
  launchAndCheck<float>();
  launchAndCheck<double>();
}

TEST_F(CacheFaults, AnEntryMadeADirectoryIsRebuilt) {
  launchAndCheck<float>();
  const fs::path entry = entriesIn(cache_ / "cache").at(0);
  fs::remove(entry);
  fs::create_directories(entry / "something"); // not ours to remove: the entry cannot be stored
  launchAndCheck<float>();
  fs::remove_all(entry);
  fs::create_directory(entry); // an empty one goes, and the entry is stored
  launchAndCheck<float>();
  EXPECT_TRUE(fs::is_regular_file(entry));
}

TEST_F(CacheFaults, TheFolderRemovedBetweenLaunchesIsMadeAgain) {
  launchAndCheck<float>();
  fs::remove_all(cache_ / "cache");
  launchAndCheck<std::int32_t>();
  EXPECT_EQ(entriesIn(cache_ / "cache").size(), 1u);
}

TEST_F(CacheFaults, AMissingOrFailingCompilerIsAnErrorNamingIt) {
  for (const std::string compiler : {"/nonexistent/c++", "/bin/false"}) {
    settings_.change([&](pyk::RuntimeSettings& s) { s.host_compiler = compiler; });
    const pyk::Module m = pyk::loads(kCacheFaultSource, "faults.pyk");
    auto x = pyk::to_device(std::vector<float>{1});
    try {
      m["twice"][{{1}, {32}}](x);
      ADD_FAILURE() << "launched with " << compiler;
    } catch (const pyk::Error& e) {
      EXPECT_NE(std::string(e.what()).find(compiler), std::string::npos) << e.what();
    }
    EXPECT_EQ(x.copy_to_host(), std::vector<float>{1}); // nothing ran
  }
}

} // namespace
