// CpuGeneratedObjectTest: kernels built as the CPU backend builds them (a shared object that
// includes pyk_cpu_support.h and needs no symbol of the runtime), loaded with dlopen and run by
// the engine in both modes.
#include "CpuTestEngine.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <dlfcn.h>
#include <unistd.h>

namespace pyk::cpu::testing {
namespace {

const char* const kGeneratedSource = R"(
#include "cpu/pyk_cpu_support.h"

using namespace pyk;

// Loop mode: y[i] = a * x[i].
extern "C" void scale_block(cpu::Block& block, void** args) {
  const float a = *static_cast<float*>(args[0]);
  auto& x = *static_cast<Array<float, 1, Layout::C>*>(args[1]);
  auto& y = *static_cast<Array<float, 1, Layout::C>*>(args[2]);
  cpu::forEachThread(block, [&](cpu::Dim3 threadIdx) {
    const int64 i = static_cast<int64>(block.blockIdx.x) * block.blockDim.x + threadIdx.x;
    if (i < x.shape[0])
      y(i) = a * x(i);
  });
}

// Fiber mode: a warp sum by shuffles, warp sums through shared memory, one atomic per block.
extern "C" void total_thread(cpu::Thread& thread, void** args) {
  auto& x = *static_cast<Array<int64, 1, Layout::C>*>(args[0]);
  auto& total = *static_cast<Array<int64, 1, Layout::C>*>(args[1]);
  cpu::Block& block = *thread.block;
  int64* warpSums = cpu::shared_pointer<int64>(block, 0);
  const int64 i = static_cast<int64>(block.blockIdx.x) * block.blockDim.x + thread.threadIdx.x;
  int64 value = i < x.shape[0] ? x(i) : 0;
  for (uint32 offset = 16; offset > 0; offset /= 2)
    value += cpu::shfl_down_sync(thread, cpu::kFullWarpMask, value, offset);
  if (thread.laneId == 0)
    warpSums[thread.warpId] = value;
  cpu::syncthreads(thread);
  if (thread.linearIndex == 0) {
    int64 sum = 0;
    for (uint32 w = 0; w < (block.blockDim.x + 31) / 32; ++w)
      sum += warpSums[w];
    atomic_add(&total(0), sum);
  }
}
)";

// A scratch folder removed at the end of the test.
struct ScratchFolder {
  std::filesystem::path path;
  ScratchFolder() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "pyk-cpu-object-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~ScratchFolder() { std::filesystem::remove_all(path); }
};

TEST(CpuGeneratedObject, ASharedObjectBuiltOnTheHeaderAloneRunsInBothModes) {
  ScratchFolder scratch;
  const auto source = scratch.path / "kernels.cpp";
  const auto object = scratch.path / "kernels.so";
  std::ofstream(source) << kGeneratedSource;
  // -Wl,--no-undefined: every symbol resolves against the C++ library alone, none from pyk.
  const std::string command = std::string(PYK_TEST_CXX_COMPILER) +
                              " -std=c++20 -O3 -fPIC -shared -Wall -Wextra -Werror "
                              "-Wl,--no-undefined -I" PYK_STDLIB_DIR " " +
                              source.string() + " -o " + object.string() + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  void* library = ::dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(library, nullptr) << ::dlerror();
  auto* scaleBlock = reinterpret_cast<void (*)(Block&, void**)>(::dlsym(library, "scale_block"));
  auto* totalThread = reinterpret_cast<void (*)(Thread&, void**)>(::dlsym(library, "total_thread"));
  ASSERT_NE(scaleBlock, nullptr);
  ASSERT_NE(totalThread, nullptr);

  std::vector<float> x(10000), y(10000, 0);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>(i);
  float a = 0.5f;
  auto xView = viewOf(x), yView = viewOf(y);
  void* scaleArgs[] = {&a, &xView, &yView};
  cpuTestEngine().launch(loopKernel("scale", scaleBlock), Dim3{40}, Dim3{256}, 0, 0, scaleArgs);
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(y[i], 0.5f * static_cast<float>(i));

  std::vector<int64> values(100000), total(1, 0);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<int64>(i % 1000) - 300;
  auto valuesView = viewOf(values), totalView = viewOf(total);
  void* totalArgs[] = {&valuesView, &totalView};
  cpuTestEngine().launch(fiberKernel("total", totalThread), Dim3{98}, Dim3{1024},
                         32 * sizeof(int64), 0, totalArgs);
  EXPECT_EQ(total[0], 100 * (999 * 1000 / 2 - 300 * 1000));
  ::dlclose(library);
}

} // namespace
} // namespace pyk::cpu::testing
