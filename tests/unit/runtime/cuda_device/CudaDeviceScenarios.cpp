// CudaDeviceScenarios: pyk::gpus, select_device and PYK_BACKEND as a process sees them, run once
// per scenario by CTest with the environment of that scenario (the driver is loaded once a
// process): a driver with two devices (the fake driver), a driver whose cuInit fails, no driver.
#include "pyk/device.hpp"
#include "pyk/device_array.hpp"
#include "pyk/error.hpp"
#include "pyk/settings.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

std::string errorOf(void (*f)()) {
  try {
    f();
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::Device);
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

void backendCuda() {
  pyk::RuntimeSettings settings = pyk::settings();
  settings.backend = pyk::BackendChoice::Cuda;
  const pyk::ScopedSettings cuda(settings);
  pyk::current_backend();
}

// PYK_LIBCUDA: the fake driver.
TEST(TwoFakeDevices, GpusListsEachDeviceWithItsProperties) {
  const std::vector<pyk::GpuInfo> g = pyk::gpus();
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].id, 0);
  EXPECT_EQ(g[0].name, "pyk fake H100");
  EXPECT_EQ(g[0].compute_capability_major, 9);
  EXPECT_EQ(g[0].compute_capability_minor, 0);
  EXPECT_EQ(g[0].multiprocessors, 132);
  EXPECT_EQ(g[0].total_memory_bytes, std::size_t{80} << 30);
  EXPECT_EQ(g[1].name, "pyk fake A100");
  EXPECT_EQ(g[1].compute_capability_major, 8);
}

// Without NVRTC the backend is the CPU's (below), whose devices are one: the program that picks
// `rank % device_count()` runs unchanged. (select_device on CUDA: tests/unit/runtime/cuda_backend.)
TEST(TwoFakeDevices, OnTheCpuBackendThereIsOneDevice) {
  EXPECT_EQ(pyk::device_count(), 1);
  pyk::select_device(0);
  EXPECT_EQ(pyk::current_device(), 0);
  EXPECT_FALSE(pyk::can_access_peer(0, 1));
  const std::string message = errorOf([] { pyk::select_device(1); });
  EXPECT_EQ(message.rfind("select_device(1): the CPU backend has one device, 0 (no CUDA: NVRTC", 0),
            0u)
      << message;
}

// PYK_LIBNVRTC names a missing file: with devices but no compiler, auto is the CPU.
TEST(TwoFakeDevices, WithoutNvrtcKernelsRunOnTheCpuAndAskingForCudaSaysWhy) {
  EXPECT_EQ(pyk::current_backend(), pyk::Backend::Cpu);
  const std::string message = errorOf(backendCuda);
  EXPECT_EQ(message.rfind("PYK_BACKEND=cuda: NVRTC, the CUDA toolkit's run-time compiler, cannot "
                          "be loaded (tried /nonexistent/libnvrtc.so;",
                          0),
            0u)
      << message;
  EXPECT_EQ(pyk::cuda_unavailable().rfind("NVRTC", 0), 0u);
}

// PYK_LIBCUDA: the fake driver, PYK_FAKE_CUDA_FAIL_INIT set.
TEST(DriverThatDoesNotInitialise, HasNoGpusAndSaysWhy) {
  EXPECT_TRUE(pyk::gpus().empty());
  EXPECT_EQ(errorOf(backendCuda),
            "PYK_BACKEND=cuda: the CUDA driver does not initialise (cuInit: "
            "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected); unset PYK_BACKEND or set "
            "it to cpu");
}

// PYK_LIBCUDA: a file that does not exist.
TEST(NoDriver, HasNoGpusAndSelectDeviceSaysWhy) {
  EXPECT_TRUE(pyk::gpus().empty());
  EXPECT_EQ(pyk::current_backend(), pyk::Backend::Cpu);
  EXPECT_EQ(pyk::device_count(), 1);
  {
    const pyk::DeviceScope device0(0); // the CPU backend's one device
    EXPECT_EQ(pyk::current_device(), 0);
    EXPECT_EQ(pyk::device_array<float>(4).untyped().device_id(), 0); // its memory
    EXPECT_EQ(pyk::AnyDeviceArray().device_id(), -1);                // none
  }
  const std::string message = errorOf([] { pyk::select_device(1); });
  EXPECT_EQ(
      message.rfind("select_device(1): the CPU backend has one device, 0 (no CUDA: cannot load the "
                    "CUDA driver (",
                    0),
      0u)
      << message;
}

} // namespace
