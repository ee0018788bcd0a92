// AotModuleTest: kernels built ahead of time by pyk_add_kernels (aot_kernels.pyk, see
// CMakeLists.txt) launched through their typed functions with no compiler to fall back on: the
// host compiler is a path that does not exist and the disk cache an empty folder, so any
// specialization the program did not carry would have to be compiled, and fails. On CUDA (the
// fake driver, no NVRTC) the fatbins are loaded instead.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "../unit/runtime/SettingsForTest.h"
#include "../unit/runtime/TemporaryFolder.h"
#include "aot_kernels.hpp"

namespace {

// No compiler: the runtime may only run what the program carries.
class AotWithoutCompiler : public ::testing::Test {
protected:
  void SetUp() override {
    settings_.change([&](pyk::RuntimeSettings& s) {
      s.host_compiler = "/nonexistent/c++";
      s.libnvrtc = "/nonexistent/libnvrtc.so";
      s.cache_folder = cache_.path();
    });
  }
  TemporaryFolder cache_;
  SettingsForTest settings_;
};

using AotCpu = AotWithoutCompiler;
using AotCuda = AotWithoutCompiler;

std::vector<float> iota(std::size_t n, float from) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = from + static_cast<float>(i);
  return v;
}

TEST_F(AotCpu, TypedLaunchRunsTheCodeBuiltWithTheProgram) {
  const std::size_t n = 1000;
  auto x = pyk::to_device(iota(n, 0));
  auto y = pyk::to_device(std::vector<float>(n, 1.0f));
  aot_kernels::saxpy({(n + 127) / 128}, {128}, 2.0f, x, y);
  const std::vector<float> out = y.copy_to_host();
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2.0f * static_cast<float>(i) + 1.0f) << i;
  const pyk::KernelArgument args[] = {pyk::KernelArgument::of(2.0f), pyk::KernelArgument::of(x),
                                      pyk::KernelArgument::of(y)};
  EXPECT_EQ(aot_kernels::module()["saxpy"].execution_mode(args), "loop (built ahead of time)");
}

TEST_F(AotCpu, ASignatureForAnyLayoutServesContiguousArrays) {
  auto x = pyk::to_device(std::vector<double>{1, 2, 3});
  auto y = pyk::to_device(std::vector<double>{10, 20, 30});
  aot_kernels::saxpy({1}, {32}, 0.5, x, y); // saxpy(float64, float64[:], float64[:])
  EXPECT_EQ(y.copy_to_host(), (std::vector<double>{10.5, 21, 31.5}));
}

TEST_F(AotCpu, BarrierKernelRunsSplitForTheLaunchBlockShape) {
  const std::size_t n = 128 * 5 + 17;
  auto values = pyk::to_device(iota(n, 1));
  auto partial = pyk::device_array<float>(6);
  aot_kernels::block_sums({6}, {128}, values, partial);
  const std::vector<float> sums = partial.copy_to_host();
  for (std::size_t b = 0; b < 6; ++b) {
    float want = 0;
    for (std::size_t i = b * 128; i < std::min(n, (b + 1) * 128); ++i)
      want += static_cast<float>(i + 1);
    EXPECT_EQ(sums[b], want) << "block " << b;
  }
  const pyk::KernelArgument args[] = {pyk::KernelArgument::of(values),
                                      pyk::KernelArgument::of(partial)};
  EXPECT_EQ(aot_kernels::module()["block_sums"].execution_mode(args),
            "split (built ahead of time)");
}

TEST_F(AotCpu, DeclaredSignaturesAreBuiltWithoutBeingNamed) {
  auto out = pyk::device_array<std::int32_t>(40);
  aot_kernels::fill({2}, {32}, out, 7);
  const std::vector<std::int32_t> v = out.copy_to_host();
  for (std::int32_t i = 0; i < 40; ++i)
    ASSERT_EQ(v[static_cast<std::size_t>(i)], 7 + i);
}

TEST_F(AotCpu, ImportedModulesAreEmbedded) {
  // aot_helpers.py was found through INCLUDE_DIRS at build time; nothing looks for it now.
  auto a = pyk::to_device(std::vector<float>{1, 2, 3});
  aot_kernels::shift({1}, {32}, a);
  EXPECT_EQ(a.copy_to_host(), (std::vector<float>{101, 102, 103}));
  EXPECT_EQ(aot_kernels::module()["shift"].overloads().size(), 1u);
}

TEST_F(AotCpu, LinkedCudaCppIsBuiltIn) {
  // ffi/scale3.cu (LINK) was compiled with the kernel at build time; the module carries its text.
  auto a = pyk::to_device(iota(5, 1));
  aot_kernels::ffi_scale({1}, {32}, a);
  EXPECT_EQ(a.copy_to_host(), (std::vector<float>{3, 6, 9, 12, 15}));
}

TEST_F(AotCpu, TupleParameterIsAStdTuple) {
  auto out = pyk::to_device(std::vector<float>{1, 2, 3});
  aot_kernels::scale_pair({1}, {32}, std::tuple<float, float>{3.0f, 0.5f}, out);
  EXPECT_EQ(out.copy_to_host(), (std::vector<float>{3.5f, 6.5f, 9.5f}));
}

TEST_F(AotCpu, DatetimeParametersAreTheirCppValues) {
  using pyk::time_unit;
  auto days = pyk::to_device(std::vector<pyk::datetime64<time_unit::D>>{{0}, {pyk::kNaT}, {-3}});
  aot_kernels::later({1}, {32}, days, pyk::timedelta64<time_unit::D>{7});
  const auto after = days.copy_to_host();
  EXPECT_EQ(after[0].count, 7);
  EXPECT_TRUE(after[1].is_nat());
  EXPECT_EQ(after[2].count, 4);
}

TEST_F(AotCpu, CharacterArraysAreAnyDeviceArrays) {
  pyk::HostArray h;
  h.dtype = pyk::Dtype::Bytes;
  h.chars = 3;
  h.shape = {2};
  h.bytes.assign(6, std::byte{'z'});
  pyk::AnyDeviceArray tags = pyk::to_device(h);
  aot_kernels::tag({1}, {32}, tags);
  const pyk::HostArray after = tags.copy_to_host();
  const std::string text(reinterpret_cast<const char*>(after.bytes.data()), after.bytes.size());
  EXPECT_EQ(text, std::string("ok\0ok\0", 6)); // truncated to the item, zero-padded
  EXPECT_EQ(aot_kernels::module()["tag"].overloads().size(), 1u); // the one built ahead of time
}

TEST_F(AotCpu, NamesCppReservesGetAnUnderscore) {
  auto out = pyk::to_device(std::vector<float>(3, 0.0f));
  aot_kernels::module_({1}, {32}, out, 4.5f); // def module(block, new)
  EXPECT_EQ(out.copy_to_host(), std::vector<float>(3, 4.5f));
}

TEST_F(AotCpu, ASignatureNotBuiltAheadNeedsTheJitAndSaysWhatWasBuilt) {
  auto x = pyk::to_device(std::vector<std::int64_t>{1, 2, 3});
  auto y = pyk::to_device(std::vector<std::int64_t>{1, 2, 3});
  try {
    aot_kernels::module()["saxpy"].launch({1}, {32})(std::int64_t{2}, x, y);
    FAIL() << "launched without a compiler";
  } catch (const pyk::Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("`saxpy(int64, int64[::1], int64[::1]) -> none` was not built ahead "
                           "of time for the CPU; built ahead:"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("saxpy(float32, float32[::1], float32[::1])"), std::string::npos)
        << message;
    EXPECT_NE(message.find("the JIT could not compile it"), std::string::npos) << message;
    EXPECT_NE(message.find("/nonexistent/c++"), std::string::npos) << message;
  }
}

TEST_F(AotCpu, BoundsChecksAskForTheJit) {
  // Code built ahead has no bounds checks; PYK_BOUNDSCHECK's code needs the JIT.
  settings_.change([](pyk::RuntimeSettings& s) { s.bounds_check = true; });
  auto out = pyk::device_array<std::int32_t>(4);
  try {
    aot_kernels::fill({1}, {4}, out, 1);
    FAIL() << "launched without a compiler";
  } catch (const pyk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("with bounds checks (PYK_BOUNDSCHECK)"), std::string::npos)
        << e.what();
  }
}

#ifdef PYK_AOT_TESTS_HAVE_CUDA
TEST_F(AotCuda, TheFatbinIsLoadedWithoutNvrtc) {
  auto x = pyk::to_device(iota(256, 0));
  auto y = pyk::to_device(std::vector<float>(256, 1.0f));
  ASSERT_EQ(x.untyped().backend(), pyk::Backend::Cuda);
  aot_kernels::saxpy({2}, {128}, 2.0f, x, y); // the fake driver records the launch
  const pyk::KernelArgument args[] = {pyk::KernelArgument::of(2.0f), pyk::KernelArgument::of(x),
                                      pyk::KernelArgument::of(y)};
  EXPECT_EQ(aot_kernels::module()["saxpy"].cuda_target(args),
            "fatbin sm_80 sm_90 compute_90 index32 (built ahead of time)");
}

TEST_F(AotCuda, ASignatureNotBuiltAheadNeedsNvrtc) {
  auto x = pyk::to_device(std::vector<std::int64_t>{1, 2, 3});
  try {
    aot_kernels::module()["saxpy"].launch({1}, {32})(std::int64_t{2}, x, x);
    FAIL() << "launched without NVRTC";
  } catch (const pyk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("was not built ahead of time for CUDA"), std::string::npos)
        << e.what();
  }
}
#endif

} // namespace
