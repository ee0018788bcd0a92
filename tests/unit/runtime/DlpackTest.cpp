// DlpackTest: pyk arrays to and from DLPack on the CPU backend: shared memory both ways, strides
// converted between bytes and elements, the producer's deleter run exactly once when the last
// view is gone, and tensors pyk cannot take refused with the reason.
#include "pyk/dlpack.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace {

// A producer's tensor over `values` (3 x 4 int32, or a view given by shape and strides).
struct Produced {
  std::vector<std::int32_t> values = std::vector<std::int32_t>(12);
  std::vector<std::int64_t> shape{3, 4};
  std::vector<std::int64_t> strides{4, 1};
  DLManagedTensor tensor{};
  int deleted = 0;

  Produced() {
    std::iota(values.begin(), values.end(), 0);
    tensor.dl_tensor.data = values.data();
    tensor.dl_tensor.device = {kDLCPU, 0};
    tensor.dl_tensor.ndim = 2;
    tensor.dl_tensor.dtype = {kDLInt, 32, 1};
    tensor.dl_tensor.shape = shape.data();
    tensor.dl_tensor.strides = strides.data();
    tensor.manager_ctx = this;
    tensor.deleter = [](DLManagedTensor* self) {
      ++static_cast<Produced*>(self->manager_ctx)->deleted;
    };
  }
};

TEST(Dlpack, ImportSharesTheProducersMemoryAndDeletesItOnce) {
  Produced p;
  {
    pyk::AnyDeviceArray a = pyk::from_dlpack(&p.tensor);
    EXPECT_EQ(a.backend(), pyk::Backend::Cpu);
    EXPECT_EQ(a.memory_kind(), pyk::MemoryKind::External);
    EXPECT_EQ(a.dtype(), pyk::Dtype::Int32);
    EXPECT_EQ(a.shape(), (std::vector<std::int64_t>{3, 4}));
    EXPECT_EQ(a.strides(), (std::vector<std::int64_t>{16, 4}));
    EXPECT_EQ(a.device_data(), p.values.data());
    pyk::AnyDeviceArray column = a.transpose()[1]; // a view keeps the tensor alive
    a = pyk::AnyDeviceArray();
    EXPECT_EQ(p.deleted, 0);
    std::vector<std::int32_t> got(3);
    column.copy_to_host(got.data(), 12);
    EXPECT_EQ(got, (std::vector<std::int32_t>{1, 5, 9}));
  }
  EXPECT_EQ(p.deleted, 1);
}

TEST(Dlpack, ImportTakesStridedAndOffsetTensors) {
  Produced p;
  p.shape = {2, 2};
  p.strides = {8, 2}; // rows 0 and 2, columns 0 and 2, from element 1
  p.tensor.dl_tensor.shape = p.shape.data();
  p.tensor.dl_tensor.strides = p.strides.data();
  p.tensor.dl_tensor.byte_offset = 4;
  pyk::AnyDeviceArray a = pyk::from_dlpack(&p.tensor);
  std::vector<std::int32_t> got(4);
  a.copy_to_host(got.data(), 16);
  EXPECT_EQ(got, (std::vector<std::int32_t>{1, 3, 9, 11}));
}

TEST(Dlpack, ExportViewsTheArrayUntilTheConsumerDeletesIt) {
  std::vector<double> h(6);
  std::iota(h.begin(), h.end(), 0.5);
  DLManagedTensor* t = nullptr;
  {
    pyk::DeviceArray<double, 2> a = pyk::to_device<double, 2>(h, {2, 3});
    t = pyk::to_dlpack(a.transpose());
    EXPECT_EQ(t->dl_tensor.data, a.device_data());
  }
  // The array is gone; the tensor still holds its memory.
  EXPECT_EQ(t->dl_tensor.device.device_type, kDLCPU);
  EXPECT_EQ(t->dl_tensor.ndim, 2);
  EXPECT_EQ(t->dl_tensor.dtype.code, kDLFloat);
  EXPECT_EQ(t->dl_tensor.dtype.bits, 64);
  EXPECT_EQ(t->dl_tensor.shape[0], 3);
  EXPECT_EQ(t->dl_tensor.strides[0], 1);
  EXPECT_EQ(t->dl_tensor.strides[1], 3);
  EXPECT_EQ(static_cast<double*>(t->dl_tensor.data)[4], 4.5);
  // And back: a round trip shares the same memory.
  pyk::AnyDeviceArray back = pyk::from_dlpack(t);
  std::vector<double> got(6);
  back.copy_to_host(got.data(), 48);
  EXPECT_EQ(got, (std::vector<double>{0.5, 3.5, 1.5, 4.5, 2.5, 5.5}));
}

TEST(Dlpack, TensorsPykCannotTakeAreRefusedAndStillDeleted) {
  auto refused = [](auto change) {
    Produced p;
    change(p.tensor.dl_tensor);
    std::string message;
    try {
      (void)pyk::from_dlpack(&p.tensor);
    } catch (const pyk::Error& e) {
      message = e.what();
    }
    EXPECT_EQ(p.deleted, 1) << message;
    return message;
  };
  EXPECT_NE(refused([](DLTensor& t) {
              t.dtype = {kDLBfloat, 16, 1};
            }).find("type code 4 of 16 bits"),
            std::string::npos);
  EXPECT_NE(refused([](DLTensor& t) { t.dtype.lanes = 4; }).find("4 lanes"), std::string::npos);
  EXPECT_NE(refused([](DLTensor& t) {
              t.device = {kDLVulkan, 0};
            }).find("device type 7"),
            std::string::npos);
  EXPECT_NE(refused([](DLTensor& t) { t.byte_offset = 2; }).find("not a multiple"),
            std::string::npos);
}

} // namespace
