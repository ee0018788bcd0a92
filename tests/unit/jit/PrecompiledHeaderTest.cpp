// PrecompiledHeaderTest: the support header precompiled once per cache folder and used by the
// compiles there; a damaged one discarded without failing a compile; none without a cache folder
// or when turned off; pruned and cleared with the cache.
#include "jit/PrecompiledHeader.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <fstream>

#include "../runtime/TemporaryFolder.h"
#include "jit/CpuObjectCompile.h"
#include "jit/HostCompiler.h"

using pyk::jit::HostCompiler;
using pyk::jit::JitSettings;

namespace {

constexpr const char* kUnit = "#include \"pyk_cpu_support.h\"\n"
                              "extern \"C\" PYK_CPU_EXPORT int pyk_answer() { return 42; }\n";

JitSettings settingsIn(const std::filesystem::path& folder) {
  JitSettings s;
  s.cacheFolder = folder;
  return s;
}

std::size_t foldersNamed(const std::filesystem::path& folder, const std::string& prefix) {
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(folder))
    n += e.is_directory() && e.path().filename().string().rfind(prefix, 0) == 0;
  return n;
}

// A fresh cache folder whose precompiled header is built (GCC only: skipped otherwise).
class PrecompiledHeaderBuilt : public ::testing::Test {
protected:
  void SetUp() override {
    if (!compiler.readsPrecompiledHeaders())
      GTEST_SKIP() << "the host compiler is not GCC";
    folder = pyk::jit::precompiledSupportHeader(settings, compiler);
    ASSERT_TRUE(folder.has_value());
  }

  const HostCompiler& compiler = HostCompiler::named("");
  TemporaryFolder tmp;
  const JitSettings settings = settingsIn(tmp / "cache");
  std::optional<std::filesystem::path> folder;
};

} // namespace

TEST_F(PrecompiledHeaderBuilt, IsBuiltOnceInTheCacheFolderAndCompilesUseIt) {
  EXPECT_EQ(folder->parent_path(), tmp / "cache");
  EXPECT_TRUE(std::filesystem::is_regular_file(*folder / "pyk_cpu_support.h"));
  EXPECT_GT(std::filesystem::file_size(*folder / "pyk_cpu_support.h.gch"), 1000000u);
  EXPECT_EQ(pyk::jit::precompiledSupportHeader(settings, compiler), folder);
  EXPECT_EQ(foldersNamed(tmp / "cache", "pch-"), 1u);
  EXPECT_EQ(foldersNamed(tmp / "cache", ".pch-"), 0u); // no temporary folder left
  const pyk::jit::CachedArtifact object =
      pyk::jit::compileCpuObject(settings, kUnit, "pyk_answer", false, "test\tanswer\tcpu");
  EXPECT_EQ(object.bytes.substr(1, 3), "ELF");
  struct stat status {};
  ASSERT_EQ(::stat(folder->c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0700u); // in the private cache folder, private itself
}

TEST_F(PrecompiledHeaderBuilt, ADamagedOneIsDiscardedAndTheUnitCompilesFromTheText) {
  std::filesystem::resize_file(*folder / "pyk_cpu_support.h.gch", 100000); // truncated
  testing::internal::CaptureStderr();
  const pyk::jit::CachedArtifact object =
      pyk::jit::compileCpuObject(settings, kUnit, "pyk_answer", false, "test\tanswer\tcpu");
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(object.bytes.substr(1, 3), "ELF");
  EXPECT_NE(said.find("was refused by the compiler and is removed"), std::string::npos) << said;
  EXPECT_FALSE(std::filesystem::exists(*folder));
  // This process compiles from the text from now on; the next builds it again.
  EXPECT_FALSE(pyk::jit::precompiledSupportHeader(settings, compiler).has_value());
}

TEST(PrecompiledHeader, NoneWithoutACacheFolderOrWhenTurnedOff) {
  const HostCompiler& compiler = HostCompiler::named("");
  EXPECT_FALSE(pyk::jit::precompiledSupportHeader(JitSettings{}, compiler).has_value());
  TemporaryFolder tmp;
  JitSettings off = settingsIn(tmp / "cache");
  off.cpuPrecompiledHeader = false;
  EXPECT_FALSE(pyk::jit::precompiledSupportHeader(off, compiler).has_value());
  const pyk::jit::CachedArtifact object =
      pyk::jit::compileCpuObject(off, kUnit, "pyk_answer", false, "test\tanswer\tcpu");
  EXPECT_EQ(object.bytes.substr(1, 3), "ELF");
  EXPECT_EQ(foldersNamed(tmp / "cache", "pch-"), 0u);
}

TEST(PrecompiledHeader, PruneRemovesThoseUnusedAsLongAndWhatBuildsLeft) {
  TemporaryFolder tmp;
  std::filesystem::create_directories(tmp / "pch-0123" / "x");
  std::ofstream(tmp / "pch-0123.lock") << "";
  std::filesystem::create_directories(tmp / ".pch-0123.tmp-abcdef"); // a build that died now
  const auto now = std::chrono::system_clock::now();
  EXPECT_EQ(pyk::jit::prunePrecompiledHeaders(tmp.path(), now - std::chrono::hours(1)), 0u);
  EXPECT_TRUE(std::filesystem::exists(tmp / "pch-0123"));
  EXPECT_EQ(pyk::jit::prunePrecompiledHeaders(tmp.path(), now + std::chrono::hours(1)), 1u);
  EXPECT_FALSE(std::filesystem::exists(tmp / "pch-0123"));
  EXPECT_FALSE(std::filesystem::exists(tmp / "pch-0123.lock"));
  EXPECT_TRUE(std::filesystem::exists(tmp / ".pch-0123.tmp-abcdef")); // still young
}
