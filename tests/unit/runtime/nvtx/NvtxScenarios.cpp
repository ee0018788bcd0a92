// NvtxScenarios: PYK_NVTX's ranges as a profiler sees them, through a fake injection library
// (tests/unit/runtime/fake_nvtx) named in NVTX_INJECTION64_PATH. Each scenario is a process of
// its own (a process looks for the profiler once): ranges off (the library never loaded), on
// (compiles and launches on the CPU backend and the fake CUDA driver, nested and balanced), an
// injection library that cannot be loaded, and one that refuses to start (launches unharmed,
// said once on stderr).
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "pyk/pyk.hpp"

namespace {

const char* kSource = "from numba import cuda\n\n\n@cuda.jit\ndef add(x, s):\n"
                      "    i = cuda.grid(1)\n    if i < x.size:\n        x[i] += s\n";

void* injection(int flags) {
  const char* path = std::getenv("NVTX_INJECTION64_PATH");
  return path != nullptr ? ::dlopen(path, flags) : nullptr;
}

// What the fake injection library recorded, in order.
std::vector<std::string> events() {
  void* library = injection(RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr)
    return {};
  auto count = reinterpret_cast<int (*)()>(::dlsym(library, "pykFakeNvtxEventCount"));
  auto event = reinterpret_cast<const char* (*)(int)>(::dlsym(library, "pykFakeNvtxEvent"));
  std::vector<std::string> out;
  for (int i = 0; i < count(); ++i)
    out.emplace_back(event(i));
  ::dlclose(library);
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines)
    out += "  " + l + "\n";
  return out;
}

void launchAdd(const pyk::Module& m, pyk::DeviceArray<float>& x, float s) {
  const pyk::KernelArgument args[] = {pyk::KernelArgument::of(x), pyk::KernelArgument::of(s)};
  m["add"].launch_with({{1}, {32}}, 0, args);
}

pyk::RuntimeSettings withNvtx(bool on) {
  pyk::RuntimeSettings s = pyk::settings();
  s.nvtx_ranges = on;
  return s;
}

TEST(NvtxOff, RangesAreOffByDefaultAndTheProfilersLibraryIsNotLoaded) {
  ASSERT_FALSE(pyk::settings().nvtx_ranges);
  const pyk::Module m = pyk::loads(kSource, "add.pyk");
  pyk::DeviceArray<float> x = pyk::to_device(std::vector<float>{1, 2, 3});
  launchAdd(m, x, 1.0f);
  EXPECT_EQ(x.copy_to_host(), (std::vector<float>{2, 3, 4}));
  EXPECT_EQ(injection(RTLD_NOW | RTLD_NOLOAD), nullptr);
}

TEST(NvtxOn, CompilesAndLaunchesAreRangesInThePykDomain) {
  ASSERT_TRUE(pyk::settings().nvtx_ranges);
  const pyk::Module m = pyk::loads(kSource, "add.pyk");
  pyk::DeviceArray<float> x = pyk::to_device(std::vector<float>{1, 2, 3});
  launchAdd(m, x, 1.0f);
  launchAdd(m, x, 2.0f);
  EXPECT_EQ(x.copy_to_host(), (std::vector<float>{4, 5, 6}));
  // Green (0xFF76B900) compiles in category 1, blue launches in category 2.
  const std::string compile = "push v3 size 48 category 1 color 1:FF76B900 message 1: compile "
                              "add(float32[::1], float32) for the CPU";
  const std::string launch =
      "push v3 size 48 category 2 color 1:FF2F6FBF message 1: add(float32[::1], float32)";
  std::vector<std::string> seen = events();
  ASSERT_GE(seen.size(), 3u) << joined(seen);
  EXPECT_EQ(seen[0], "domain pyk") << joined(seen);
  EXPECT_EQ(seen[1], "category 1 compile") << joined(seen);
  EXPECT_EQ(seen[2], "category 2 launch") << joined(seen);
  std::vector<std::string> expected = {seen[0], seen[1], seen[2], compile, "pop",
                                       launch,  "pop",   launch,  "pop"};
  // The launch's description may spell its return type (`-> none`): the prefix counts.
  ASSERT_EQ(seen.size(), expected.size()) << joined(seen);
  for (std::size_t i = 0; i < seen.size(); ++i)
    EXPECT_EQ(seen[i].substr(0, expected[i].size()), expected[i]) << i << "\n" << joined(seen);

  // Off again: no more ranges.
  {
    const pyk::ScopedSettings off(withNvtx(false));
    launchAdd(m, x, 1.0f);
  }
  EXPECT_EQ(events().size(), expected.size()) << joined(events());

  // A graph's replay: one range, its launches' inside it (the CPU backend replays them itself).
  const pyk::Stream stream = pyk::stream();
  const pyk::Graph graph = pyk::capture(stream, [&] {
    const pyk::KernelArgument args[] = {pyk::KernelArgument::of(x), pyk::KernelArgument::of(1.0f)};
    m["add"].launch_with({{1}, {32}}, 0, args, stream);
    m["add"].launch_with({{1}, {32}}, 0, args, stream);
  });
  EXPECT_EQ(events().size(), expected.size()) << joined(events()); // recorded, not run
  graph.launch(stream);
  const std::string replay =
      "push v3 size 48 category 2 color 1:FF2F6FBF message 1: graph of 2 launches";
  for (const std::string& e :
       {replay, launch, std::string("pop"), launch, std::string("pop"), std::string("pop")})
    expected.push_back(e);
  seen = events();
  ASSERT_EQ(seen.size(), expected.size()) << joined(seen);
  for (std::size_t i = 0; i < seen.size(); ++i)
    EXPECT_EQ(seen[i].substr(0, expected[i].size()), expected[i]) << i << "\n" << joined(seen);

  // On the fake CUDA driver: the compile says the device's architecture.
  pyk::RuntimeSettings cuda = withNvtx(true);
  cuda.backend = pyk::BackendChoice::Cuda;
  const pyk::ScopedSettings onCuda(cuda);
  pyk::DeviceArray<float> y = pyk::to_device(std::vector<float>{1, 2, 3});
  ASSERT_EQ(y.untyped().backend(), pyk::Backend::Cuda);
  launchAdd(m, y, 1.0f);
  seen = events();
  ASSERT_EQ(seen.size(), expected.size() + 4) << joined(seen);
  const std::string cudaCompile = "push v3 size 48 category 1 color 1:FF76B900 message 1: compile "
                                  "add(float32[::1], float32) for sm_";
  EXPECT_EQ(seen[expected.size()].substr(0, cudaCompile.size()), cudaCompile) << joined(seen);
  EXPECT_EQ(seen[expected.size() + 1], "pop");
  EXPECT_EQ(seen[expected.size() + 2].substr(0, launch.size()), launch) << joined(seen);
  EXPECT_EQ(seen[expected.size() + 3], "pop");
}

TEST(NvtxUnusable, ALibraryThatCannotBeUsedIsSaidOnceAndLaunchesRunWithoutRanges) {
  ASSERT_TRUE(pyk::settings().nvtx_ranges);
  const pyk::Module m = pyk::loads(kSource, "add.pyk");
  pyk::DeviceArray<float> x = pyk::to_device(std::vector<float>{1, 2, 3});
  testing::internal::CaptureStderr();
  launchAdd(m, x, 1.0f);
  launchAdd(m, x, 1.0f);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(x.copy_to_host(), (std::vector<float>{3, 4, 5}));
  const std::string expected = std::getenv("PYK_FAKE_NVTX_REFUSE") != nullptr
                                   ? "pyk: PYK_NVTX=1, but the profiler's NVTX injection library "
                                     "refused to start; no NVTX ranges\n"
                                   : "pyk: PYK_NVTX=1, but NVTX_INJECTION64_PATH names a library "
                                     "that cannot be loaded; no NVTX ranges: ";
  EXPECT_EQ(said.substr(0, expected.size()), expected) << said;
  EXPECT_EQ(said.find("pyk:", 1), std::string::npos) << "said more than once: " << said;
  EXPECT_TRUE(events().empty()) << joined(events());
}

} // namespace
