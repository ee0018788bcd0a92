// CudaDriverTest: loading the Driver API at run time: a library that is missing or lacks an entry
// point is refused with the reason; CUDA's error names and strings reach pyk::Error, with the call
// and what it was for. Uses the fake driver of tests/unit/runtime/fake_driver.
#include "cuda/CudaDriver.h"
#include "pyk/error.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using pyk::cuda::CudaDriver;

TEST(CudaDriver, LoadsEveryEntryPointOfADriverLibrary) {
  std::string whyNot;
  std::unique_ptr<CudaDriver> driver = CudaDriver::load(PYK_FAKE_LIBCUDA, whyNot);
  ASSERT_NE(driver, nullptr) << whyNot;
  ASSERT_EQ(driver->cuInit(0), pyk::cuda::kCudaSuccess);
  int count = 0;
  ASSERT_EQ(driver->cuDeviceGetCount(&count), pyk::cuda::kCudaSuccess);
  EXPECT_EQ(count, 2);
  std::size_t bytes = 0;
  ASSERT_EQ(driver->cuDeviceTotalMem(&bytes, 1), pyk::cuda::kCudaSuccess);
  EXPECT_EQ(bytes, std::size_t{40} << 30);
}

TEST(CudaDriver, AMissingLibraryIsRefusedWithTheLoadersReason) {
  std::string whyNot;
  EXPECT_EQ(CudaDriver::load("/nonexistent/libcuda.so.1", whyNot), nullptr);
  EXPECT_NE(whyNot.find("cannot load the CUDA driver"), std::string::npos) << whyNot;
  EXPECT_NE(whyNot.find("/nonexistent/libcuda.so.1"), std::string::npos) << whyNot;
}

TEST(CudaDriver, ALibraryWithoutTheDriverApiIsRefused) {
  std::string whyNot;
  EXPECT_EQ(CudaDriver::load("libm.so.6", whyNot), nullptr);
  EXPECT_NE(whyNot.find("has no `cuInit`"), std::string::npos) << whyNot;
}

TEST(CudaDriver, FailingCallsNameTheCallWhatItWasForAndCudasError) {
  std::string whyNot;
  std::unique_ptr<CudaDriver> driver = CudaDriver::load(PYK_FAKE_LIBCUDA, whyNot);
  ASSERT_NE(driver, nullptr) << whyNot;
  EXPECT_EQ(driver->describe(100), "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected");
  EXPECT_EQ(driver->describe(9999), "CUDA error 9999");
  driver->check(pyk::cuda::kCudaSuccess, "cuDeviceGet", "device 0"); // no throw
  try {
    pyk::cuda::CUdevice device = 0;
    driver->check(driver->cuDeviceGet(&device, 7), "cuDeviceGet", "device 7");
    FAIL() << "no error";
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::Device);
    EXPECT_EQ(std::string(e.what()),
              "cuDeviceGet failed for device 7: CUDA_ERROR_INVALID_DEVICE: invalid device ordinal");
  }
}

} // namespace
