// ModuleLoadOptions: pyk::load of a program over several files (its imports found beside it and
// in LoadOptions::include_dirs), the decorator options the launch honours (launch_bounds), and
// the warnings a module's source gets, on the CPU backend.
#include <gtest/gtest.h>

#include <fstream>

#include "SettingsForTest.h"
#include "TemporaryFolder.h"
#include "pyk/pyk.hpp"

namespace {

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

class ModuleLoadOptions : public ::testing::Test {
protected:
  void SetUp() override {
    settings_.change([&](pyk::RuntimeSettings& s) { s.cache_folder = folder_ / "cache"; });
    write(folder_ / "src" / "helpers.py", R"py(
from numba import cuda

SCALE = 3


@cuda.jit(device=True)
def triple(x):
    return SCALE * x
)py");
    write(folder_ / "lib" / "config.py", "OFFSET = 10\n");
    write(folder_ / "src" / "main.pyk", R"pyk(
from numba import cuda
from helpers import triple
import config


@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = triple(a[i]) + config.OFFSET


@cuda.jit(launch_bounds=64)
def bounded(a):
    a[cuda.grid(1)] = 1
)pyk");
  }
  TemporaryFolder folder_;
  SettingsForTest settings_;
};

TEST_F(ModuleLoadOptions, ImportsAreFoundBesideTheFileAndInIncludeDirs) {
  pyk::Module m = pyk::load(folder_ / "src" / "main.pyk", {.include_dirs = {folder_ / "lib"}});
  auto a = pyk::to_device(std::vector<std::int64_t>{1, 2, 3, 4});
  m["k"][{1, 4}](a);
  EXPECT_EQ(a.copy_to_host(), (std::vector<std::int64_t>{13, 16, 19, 22}));
}

TEST_F(ModuleLoadOptions, AModuleNotFoundIsALocatedErrorWhereDeviceCodeUsesIt) {
  try {
    pyk::Module m = pyk::load(folder_ / "src" / "main.pyk");
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::Compile);
    EXPECT_NE(std::string(e.what()).find("main.pyk:11:31: error: `config` is the module `config`, "
                                         "which pyk cannot find"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(ModuleLoadOptions, ABlockLargerThanTheLaunchBoundsIsRefused) {
  pyk::Module m = pyk::load(folder_ / "src" / "main.pyk", {.include_dirs = {folder_ / "lib"}});
  auto a = pyk::to_device(std::vector<std::int32_t>(128, 0));
  try {
    m["bounded"][{1, 128}](a);
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::InvalidLaunch);
    EXPECT_NE(std::string(e.what()).find("launch_bounds allow at most 64 per block"),
              std::string::npos)
        << e.what();
  }
  m["bounded"][{2, 64}](a);
  EXPECT_EQ(a.copy_to_host(), std::vector<std::int32_t>(128, 1));
}

} // namespace

namespace {

// numba's FFI through the C++ API: LoadOptions::link gives every kernel the CUDA C++ that
// defines what cuda.declare_device declares (on the CPU backend, compiled as C++).
TEST(ModuleLoadLink, LinkedCudaSourcesDefineDeclaredFunctions) {
  TemporaryFolder folder;
  SettingsForTest settings;
  settings.change([&](pyk::RuntimeSettings& s) { s.cache_folder = folder / "cache"; });
  write(folder / "ffi" / "cube.cu", R"cu(
extern "C" __device__ int cube(long long* result, long long x) {
  *result = x * x * x;
  return 0;
}
)cu");
  write(folder / "main.pyk", R"pyk(
from numba import cuda

cube = cuda.declare_device("cube", "int64(int64)")


@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = cube(a[i])
)pyk");
  EXPECT_THROW((void)pyk::load(folder / "main.pyk", {.link = {"ffi/missing.cu"}}), pyk::Error);
  pyk::Module m = pyk::load(folder / "main.pyk", {.link = {"ffi/cube.cu"}});
  auto a = pyk::to_device(std::vector<std::int64_t>{1, 2, -3});
  m["k"][{1, 3}](a);
  EXPECT_EQ(a.copy_to_host(), (std::vector<std::int64_t>{1, 8, -27}));
}

// What numba compiles and Python would reject is warned about, not refused: Module::warnings()
// has it, located; a clean module has none. The read no assignment reaches reads zero.
TEST(ModuleWarnings, AReadNoAssignmentReachesIsAWarning) {
  TemporaryFolder folder;
  SettingsForTest settings;
  settings.change([&](pyk::RuntimeSettings& s) { s.cache_folder = folder / "cache"; });
  pyk::Module m = pyk::loads(R"pyk(
from numba import cuda


@cuda.jit
def k(a):
    a[0] = total + 1.5
    total = a[1]
)pyk",
                             "warned.pyk");
  EXPECT_NE(m.warnings().find("warned.pyk:7:12: warning: `total` is read where no assignment "
                              "reaches it"),
            std::string::npos)
      << m.warnings();
  auto a = pyk::to_device(std::vector<double>{0.0, 4.0});
  m["k"][{1, 1}](a);
  EXPECT_EQ(a.copy_to_host(), (std::vector<double>{1.5, 4.0}));
  EXPECT_EQ(pyk::loads("from numba import cuda\n", "clean.pyk").warnings(), "");
}

} // namespace
