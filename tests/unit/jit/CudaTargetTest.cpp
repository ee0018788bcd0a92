// CudaTargetTest: the target chosen for a device: a CUBIN for its own architecture when NVRTC knows
// it, PTX for the newest one below it when not, none when NVRTC knows nothing the device can run.
#include "jit/CudaTarget.h"
#include "jit/NvrtcCompiler.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using pyk::jit::CudaTarget;
using pyk::jit::cudaTargetFor;
using pyk::jit::Nvrtc;

TEST(CudaTarget, DescribesItself) {
  EXPECT_EQ((CudaTarget{"sm_90", true}).describe(), "cubin sm_90");
  EXPECT_EQ((CudaTarget{"compute_80", false}).describe(), "ptx compute_80");
  EXPECT_EQ((CudaTarget{"86", true}).describe(), "cubin sm_86");
  EXPECT_EQ(pyk::jit::archNumber("compute_75"), "75");
}

TEST(CudaTarget, WithoutTheListOfArchitecturesTheDevicesOwnIsTaken) {
  const std::optional<CudaTarget> target = cudaTargetFor(nullptr, 8, 6);
  ASSERT_TRUE(target.has_value());
  EXPECT_EQ(target->describe(), "cubin sm_86");
}

TEST(CudaTarget, ADeviceNewerThanNvrtcGetsPtxForTheNewestBelowIt) {
  const Nvrtc* nvrtc = Nvrtc::load("");
  if (nvrtc == nullptr || nvrtc->supportedArchs().empty())
    GTEST_SKIP() << "NVRTC (listing its architectures) cannot be loaded here";
  const std::vector<int> archs = nvrtc->supportedArchs();
  EXPECT_EQ(cudaTargetFor(nvrtc, 9, 0)->describe(), "cubin sm_90");
  // Compute capability 99.9: newer than anything NVRTC knows.
  EXPECT_EQ(cudaTargetFor(nvrtc, 99, 9)->describe(), "ptx compute_" + std::to_string(archs.back()));
  // Older than everything it knows.
  EXPECT_FALSE(cudaTargetFor(nvrtc, 1, 0).has_value());
}

} // namespace
