// HostApi: pyk::loads, module["name"], kernel[{grid, block}](args...) on the CPU backend: results,
// the execution mode each kernel gets, and the errors of bad launches.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <set>
#include <thread>

#include "SettingsForTest.h"
#include "TemporaryFolder.h"
#include "pyk/cache.hpp"
#include "pyk/pyk.hpp"

namespace {

const char* kHostApiSource = R"pyk(
from numba import cuda, float32

TPB = 128


@cuda.jit
def scale(a, out, factor):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] * factor


@cuda.jit
def block_sums(a, sums):
    shared = cuda.shared.array(TPB, float32)
    tx = cuda.threadIdx.x
    i = cuda.grid(1)
    shared[tx] = a[i] if i < a.size else 0.0
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if tx < s:
            shared[tx] += shared[tx + s]
        cuda.syncthreads()
        s //= 2
    if tx == 0:
        sums[cuda.blockIdx.x] = shared[0]


@cuda.jit
def block_sums_any(a, sums):
    shared = cuda.shared.array(1024, float32)
    tx = cuda.threadIdx.x
    i = cuda.grid(1)
    shared[tx] = a[i] if i < a.size else 0.0
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tx < s:
            shared[tx] += shared[tx + s]
        cuda.syncthreads()
        s //= 2
    if tx == 0:
        sums[cuda.blockIdx.x] = shared[0]


@cuda.jit
def exit_early(a, n):
    i = cuda.grid(1)
    if i >= n:
        return
    cuda.syncthreads()
    a[i] = a[i] + 1


@cuda.jit("void(float64[::1])")
def typed(a):
    a[cuda.grid(1)] = 1.5
)pyk";

class HostApi : public ::testing::Test {
protected:
  void SetUp() override {
    settings_.change([&](pyk::RuntimeSettings& s) { s.cache_folder = cache_ / "cache"; });
  }
  TemporaryFolder cache_;
  SettingsForTest settings_;
};

TEST_F(HostApi, BarrierFreeKernelRunsAsOneLoopPerBlock) {
  pyk::Module m = pyk::loads(kHostApiSource, "host_api.pyk");
  std::vector<float> a(1000);
  std::iota(a.begin(), a.end(), 0.0f);
  auto da = pyk::to_device(a);
  auto out = pyk::device_array_like(da);
  m["scale"][{(1000 + 255) / 256, 256}](da, out, 2.0f);
  std::vector<float> host = out.copy_to_host();
  for (size_t i = 0; i < a.size(); ++i)
    ASSERT_EQ(host[i], 2.0f * a[i]) << i;
  const pyk::KernelArgument args[] = {pyk::KernelArgument::of(da), pyk::KernelArgument::of(out),
                                      pyk::KernelArgument::of(2.0f)};
  EXPECT_EQ(m["scale"].execution_mode(args), "loop");
}

TEST_F(HostApi, BarriersInUniformLoopsAreSplitAndAgreeWithFibers) {
  pyk::Module m = pyk::loads(kHostApiSource, "host_api.pyk");
  std::vector<float> a(128 * 5 - 7);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<float>(i % 13) - 6.0f;
  auto da = pyk::to_device(a);
  auto sums = pyk::device_array<float>(5);
  pyk::Kernel k = m["block_sums"];
  k[{5, 128}](da, sums);
  const pyk::KernelArgument args[] = {pyk::KernelArgument::of(da), pyk::KernelArgument::of(sums)};
  EXPECT_EQ(k.execution_mode(args), "split");
  std::vector<float> split = sums.copy_to_host();
  for (int b = 0; b < 5; ++b) {
    float expected = 0;
    for (size_t i = b * 128; i < std::min<size_t>(a.size(), (b + 1) * 128); ++i)
      expected += a[i];
    EXPECT_EQ(split[b], expected) << b;
  }
  SettingsForTest fibers;
  fibers.change([](pyk::RuntimeSettings& s) { s.cpu_mode = pyk::CpuMode::Fiber; });
  pyk::Module again = pyk::loads(kHostApiSource, "host_api.pyk");
  auto sums2 = pyk::device_array<float>(5);
  again["block_sums"][{5, 128}](da, sums2);
  EXPECT_EQ(again["block_sums"].execution_mode(args).rfind("fiber", 0), 0u);
  EXPECT_EQ(sums2.copy_to_host(), split);
}

// 0, 1, ..., period - 1, 0, 1, ...: `n` floats.
std::vector<float> cyclicValues(std::size_t n, std::size_t period) {
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i)
    values[i] = static_cast<float>(i % period);
  return values;
}

// Launches `kernel` (host_api.pyk's block_sums_any) over `device` (a copy of `a`) in blocks of
// `threads`, and checks each block's sum.
void expectBlockSums(const pyk::Kernel& kernel, const std::vector<float>& a,
                     const pyk::DeviceArray<float>& device, int threads) {
  const int n = static_cast<int>(a.size());
  const int blocks = (n + threads - 1) / threads;
  auto sums = pyk::device_array<float>(blocks);
  kernel[{blocks, threads}](device, sums);
  std::vector<float> got = sums.copy_to_host();
  for (int b = 0; b < blocks; ++b) {
    float expected = 0;
    for (int i = b * threads; i < std::min(n, (b + 1) * threads); ++i)
      expected += a[i];
    ASSERT_EQ(got[b], expected) << "block " << b << " of " << threads << " threads";
  }
}

// A split kernel is compiled for each block shape it is launched with; each shape gets its own
// code, and launching with one shape after another uses the right one.
TEST_F(HostApi, SplitKernelsAreCompiledPerBlockShape) {
  pyk::Module m = pyk::loads(kHostApiSource, "host_api.pyk");
  const std::vector<float> a = cyclicValues(1000, 7);
  auto da = pyk::to_device(a);
  pyk::Kernel k = m["block_sums_any"];
  for (int pass = 0; pass < 2; ++pass)
    for (int threads : {256, 64, 32, 1024})
      expectBlockSums(k, a, da, threads);
}

// A split kernel runs its generic version at once, and from the second launch with a block shape
// its version for that shape once the background compile has it (both in the disk cache, the
// shaped one labelled so).
TEST_F(HostApi, SplitKernelsSpecializeForBlockShapesInTheBackground) {
  pyk::Module m = pyk::loads(kHostApiSource, "host_api.pyk");
  const std::vector<float> a = cyclicValues(1000, 5);
  auto da = pyk::to_device(a);
  pyk::Kernel k = m["block_sums_any"];
  auto check = [&](int threads) { expectBlockSums(k, a, da, threads); };
  check(128); // the generic version
  check(32);
  pyk::wait_for_compiles(); // nothing asked for yet: a shape launched once is not specialized
  for (const pyk::CacheEntrySummary& e : pyk::list_cache().entries)
    EXPECT_EQ(e.target, "cpu") << e.kernel;
  check(128); // the second launch of each shape asks for its specialization
  check(32);
  pyk::wait_for_compiles();
  check(128); // the specialized versions
  check(32);
  std::set<std::string> targets;
  for (const pyk::CacheEntrySummary& e : pyk::list_cache().entries)
    if (e.kernel.rfind("block_sums_any(", 0) == 0)
      targets.insert(e.target);
  EXPECT_EQ(targets, (std::set<std::string>{"cpu", "cpu block 128,1,1", "cpu block 32,1,1"}));
  EXPECT_EQ(k.overloads().size(), 1u); // one specialization, in three instances
}

// PYK_CPU_SHAPES=now compiles a split kernel for each block shape at its first launch (and no
// version for any shape); =off never does.
TEST_F(HostApi, ShapeSpecializationCanBeAskedForAtOnceOrNever) {
  std::vector<float> a(1000, 1.0f);
  auto da = pyk::to_device(a);
  auto targets = [] {
    std::multiset<std::string> out;
    for (const pyk::CacheEntrySummary& e : pyk::list_cache().entries)
      if (e.kernel.rfind("block_sums_any(", 0) == 0)
        out.insert(e.target);
    return out;
  };
  auto launch = [&](pyk::Module& m, int threads) {
    expectBlockSums(m["block_sums_any"], a, da, threads);
  };
  {
    pyk::ScopedSettings now([] {
      pyk::RuntimeSettings s = pyk::settings();
      s.cpu_shapes = pyk::CpuShapes::Now;
      return s;
    }());
    pyk::Module m = pyk::loads(kHostApiSource, "host_api.pyk");
    launch(m, 64);
    EXPECT_EQ(targets(), (std::multiset<std::string>{"cpu block 64,1,1"}));
  }
  pyk::clear_cache();
  {
    pyk::ScopedSettings off([] {
      pyk::RuntimeSettings s = pyk::settings();
      s.cpu_shapes = pyk::CpuShapes::Off;
      return s;
    }());
    pyk::Module m = pyk::loads(kHostApiSource, "host_api.pyk");
    for (int i = 0; i < 3; ++i)
      launch(m, 64);
    pyk::wait_for_compiles();
    EXPECT_EQ(targets(), (std::multiset<std::string>{"cpu"}));
  }
}

TEST_F(HostApi, ThreadsThatReturnSkipLaterRegions) {
  pyk::Module m = pyk::loads(kHostApiSource, "host_api.pyk");
  auto a = pyk::to_device(std::vector<float>(64, 1.0f));
  m["exit_early"][{1, 64}](a, std::int64_t{40});
  std::vector<float> host = a.copy_to_host();
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(host[i], i < 40 ? 2.0f : 1.0f) << i;
}

TEST_F(HostApi, LaunchOutsideCudaLimitsNamesTheLimit) {
  pyk::Module m = pyk::loads(kHostApiSource, "host_api.pyk");
  auto a = pyk::to_device(std::vector<float>(4, 0.0f));
  try {
    m["scale"][{std::int64_t{1} << 50, 1}](a, a, 1.0f);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::InvalidLaunch);
    EXPECT_NE(std::string(e.what()).find("1125899906842624 blocks along x"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("2147483647"), std::string::npos) << e.what();
  }
  try {
    m["scale"][{1, {32, 64}}](a, a, 1.0f);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::InvalidLaunch);
    EXPECT_NE(std::string(e.what()).find("at most 1024 per block"), std::string::npos) << e.what();
  }
  try {
    m["scale"].launch(1, 32, pyk::stream(), 64 * 1024)(a, a, 1.0f);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::InvalidLaunch);
  }
}

TEST_F(HostApi, ArgumentsAreCheckedAgainstTheKernel) {
  pyk::Module m = pyk::loads(kHostApiSource, "host_api.pyk");
  auto a = pyk::to_device(std::vector<float>(4, 0.0f));
  try {
    m["scale"][{1, 4}](a, a);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("takes 3 arguments (a, out, factor); 2 given"),
              std::string::npos)
        << e.what();
  }
  try {
    m["typed"][{1, 4}](a);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no signature of `typed` accepts"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(m["nope"], pyk::Error);
}

TEST_F(HostApi, BoundsCheckingNamesKernelArrayIndexAndThread) {
  SettingsForTest checking;
  checking.change([](pyk::RuntimeSettings& s) { s.bounds_check = true; });
  pyk::Module m =
      pyk::loads("from numba import cuda\n\n@cuda.jit\ndef shift(a, out):\n    i = cuda.grid(1)\n"
                 "    out[i] = a[i + 1]\n",
                 "shift.pyk");
  auto a = pyk::to_device(std::vector<float>(8, 1.0f));
  auto out = pyk::device_array_like(a);
  try {
    m["shift"][{1, 8}](a, out);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::Kernel);
    EXPECT_EQ(std::string(e.what()),
              "shift.pyk:6:14: in `shift`: index 8 is out of bounds for axis 0 of `a` with size 8 "
              "(thread (7, 0, 0) of block (0, 0, 0))");
  }
}

TEST_F(HostApi, ConcurrentLaunchesShareOneSpecializationCache) {
  pyk::Module m = pyk::loads(kHostApiSource, "host_api.pyk");
  pyk::Kernel k = m["scale"];
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, -1);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      // Two threads per argument type: each type is compiled once, whoever comes first.
      std::vector<double> a(300, t);
      auto da = pyk::to_device(a);
      auto out = pyk::device_array_like(da);
      if (t % 2 == 0)
        k[{3, 128}](da, out, 3.0);
      else
        k[{3, 128}](da, out, std::int64_t{3});
      int bad = 0;
      for (double v : out.copy_to_host())
        bad += v != 3.0 * t;
      wrong[t] = bad;
    });
  for (std::thread& t : threads)
    t.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
}

TEST_F(HostApi, TypeErrorsAreLocatedDiagnostics) {
  pyk::Module m =
      pyk::loads("from numba import cuda\n\n@cuda.jit\ndef k(a):\n    a[0] = a\n", "bad.pyk");
  auto a = pyk::to_device(std::vector<float>(4, 0.0f));
  try {
    m["k"][{1, 1}](a);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::Compile);
    EXPECT_NE(std::string(e.what()).find("bad.pyk:5:"), std::string::npos) << e.what();
  }
}

} // namespace

TEST(HostArrayValues, RoundTripAndRefuseMismatches) {
  const pyk::HostArray h = pyk::host_array<std::int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(h.dtype, pyk::Dtype::Int32);
  EXPECT_EQ(h.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(pyk::host_values<std::int32_t>(h), (std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_THROW(pyk::host_array<float>({4}, {1.0f, 2.0f}), pyk::Error);
  try {
    (void)pyk::host_values<double>(h);
    FAIL() << "an int32 array read as double";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("holds int32, not float64"), std::string::npos)
        << e.what();
  }
}
