// Index32VariantTest: when a CUDA launch may run the variant with 32-bit thread indices and sizes
// (PYK_INDEX32): every array under 2**31 elements (the product of its non-zero extents, inside
// tuples too) and every grid axis under 2**31 threads. Large arrays are stride-0 views through
// DLPack, so nothing is allocated.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "module/CudaLauncher.h"
#include "pyk/dlpack.hpp"

namespace {

constexpr std::int64_t kLimit = 2147483647; // 2**31 - 1

// A CPU view of one float with the given shape, every stride 0.
pyk::AnyDeviceArray broadcastView(std::vector<std::int64_t> shape) {
  struct Owner {
    float value = 0;
    std::vector<std::int64_t> shape, strides;
    DLManagedTensor tensor{};
  };
  auto* owner = new Owner;
  owner->shape = std::move(shape);
  owner->strides.assign(owner->shape.size(), 0);
  owner->tensor.dl_tensor.data = &owner->value;
  owner->tensor.dl_tensor.device = {kDLCPU, 0};
  owner->tensor.dl_tensor.ndim = static_cast<std::int32_t>(owner->shape.size());
  owner->tensor.dl_tensor.dtype = {kDLFloat, 32, 1};
  owner->tensor.dl_tensor.shape = owner->shape.data();
  owner->tensor.dl_tensor.strides = owner->strides.data();
  owner->tensor.manager_ctx = owner;
  owner->tensor.deleter = [](DLManagedTensor* self) {
    delete static_cast<Owner*>(self->manager_ctx);
  };
  return pyk::from_dlpack(&owner->tensor);
}

bool fits(std::vector<pyk::KernelArgument> args) {
  return pyk::detail::arraysFitIndex32(args);
}

TEST(Index32Variant, ArraysUnder2To31ElementsFit) {
  EXPECT_TRUE(fits({}));
  EXPECT_TRUE(
      fits({pyk::KernelArgument::of(broadcastView({kLimit})), pyk::KernelArgument::of(3.0)}));
  EXPECT_TRUE(fits({pyk::KernelArgument::of(broadcastView({46340, 46340}))})); // 2147395600
  EXPECT_FALSE(fits({pyk::KernelArgument::of(broadcastView({kLimit + 1}))}));
  EXPECT_FALSE(fits({pyk::KernelArgument::of(broadcastView({65536, 32768}))})); // 2**31
  EXPECT_FALSE(fits({pyk::KernelArgument::of(broadcastView({2, 2})),
                     pyk::KernelArgument::of(broadcastView({std::int64_t{1} << 40, 1}))}));
}

TEST(Index32Variant, ZeroExtentsDoNotHideTheOthers) {
  EXPECT_TRUE(fits({pyk::KernelArgument::of(broadcastView({0, kLimit}))}));
  // size() multiplies every extent in 32 bits: 2**20 * 2**20 would overflow before the 0.
  EXPECT_FALSE(fits({pyk::KernelArgument::of(broadcastView({1 << 20, 1 << 20, 0}))}));
}

TEST(Index32Variant, ArraysInsideTuplesCount) {
  const pyk::AnyDeviceArray eight = broadcastView({8}), past = broadcastView({kLimit + 1});
  const pyk::KernelArgument small = pyk::KernelArgument::of(eight); // views `eight`
  const pyk::KernelArgument large = pyk::KernelArgument::of(past);
  EXPECT_TRUE(fits({pyk::KernelArgument::tuple_of({small, small})}));
  EXPECT_FALSE(fits({pyk::KernelArgument::tuple_of({small, large})}));
}

TEST(Index32Variant, EachGridAxisUnder2To31Threads) {
  using pyk::LaunchShape;
  EXPECT_TRUE(pyk::detail::gridFitsIndex32(LaunchShape{{(1 << 21) - 1, 1, 1}, {1024, 1, 1}}));
  EXPECT_FALSE(pyk::detail::gridFitsIndex32(LaunchShape{{1 << 21, 1, 1}, {1024, 1, 1}}));
  EXPECT_FALSE(pyk::detail::gridFitsIndex32(LaunchShape{{1, 1 << 22, 1}, {1, 512, 1}}));
  EXPECT_TRUE(pyk::detail::gridFitsIndex32(LaunchShape{{1, 1, 65535}, {1, 1, 64}}));
}

} // namespace
