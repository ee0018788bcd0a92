// GpuRuntimeTest: the runtime API on a real GPU: kernels computing (checked against the host),
// strided views as kernel arguments, shared memory and atomics, dynamic shared memory over 48 KiB,
// a grid-synchronizing kernel, streams with pinned memory, events, managed memory, memory from
// outside pyk, every device computing on its own thread, copies between devices (where there
// are two), PTX linked with a kernel by nvJitLink (numba's link=) and called through a CPointer
// from ffi.from_buffer. Exits 77 (skipped) with the reason where CUDA cannot run.
#include <pyk/pyk.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

namespace {

const char* const kKernels = R"(import math
from numba import cuda, float32, int32, vectorize


@cuda.jit
def axpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def scale2d(x, s):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        x[i, j] = x[i, j] * s


@cuda.jit
def block_sum(a, total):
    tile = cuda.shared.array(256, float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    tile[t] = a[i] if i < a.size else float32(0)
    cuda.syncthreads()
    s = 128
    while s > 0:
        if t < s:
            tile[t] += tile[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(total, 0, tile[0])


@cuda.jit
def dynamic_shared(out):
    buf = cuda.shared.array(0, int32)
    t = cuda.threadIdx.x
    n = buf.size
    k = t
    while k < n:
        buf[k] = k
        k += cuda.blockDim.x
    cuda.syncthreads()
    out[t] = buf[n - 1 - t]


@vectorize(['float64(float64, float64)'], target='cuda')
def hypot_ufunc(x, y):
    return math.sqrt(x * x + y * y)


@cuda.jit
def two_phase(x, y):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    x[i] = i
    g.sync()
    y[i] = x[x.size - 1 - i]
)";

// numba's link= of PTX (a cuda.PTXSource, nvcc's output for two functions in numba's calling
// convention), one function reached through ffi.from_buffer's CPointer.
const char* const kLinkedPtx = R"pyk(import cffi
from numba import cuda, types

ffi = cffi.FFI()
code = cuda.PTXSource("""
.version 6.5
.target sm_75
.address_size 64
.visible .func (.param .b32 func_retval0) triple_i32(.param .b64 p0, .param .b32 p1)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p0];
  ld.param.u32 %r1, [p1];
  mul.lo.s32 %r2, %r1, 3;
  st.u32 [%rd1], %r2;
  mov.u32 %r3, 0;
  st.param.b32 [func_retval0+0], %r3;
  ret;
}
.visible .func (.param .b32 func_retval0) accumulate_pair(.param .b64 p0, .param .b64 p1)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p1];
  ld.u32 %r1, [%rd1+4];
  ld.u32 %r2, [%rd1];
  add.s32 %r3, %r2, %r1;
  st.u32 [%rd1], %r3;
  mov.u32 %r4, 0;
  st.param.b32 [func_retval0+0], %r4;
  ret;
}
""", name="gpu_code.ptx")
triple = cuda.declare_device("triple_i32", "int32(int32)")
accumulate = cuda.declare_device("accumulate_pair", types.void(types.CPointer(types.int32)))


@cuda.jit(link=[code])
def linked(r, x):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = triple(x[i])
    cuda.syncthreads()
    if i == 0:
        accumulate(ffi.from_buffer(r))
)pyk";

const pyk::Module& module() {
  static const pyk::Module m = pyk::loads(kKernels, "gpu_runtime.pyk");
  return m;
}

TEST(GpuRuntime, KernelsComputeOnTheDevice) {
  const int n = 100003;
  std::vector<float> x(n), y(n);
  std::iota(x.begin(), x.end(), 0.0f);
  std::iota(y.begin(), y.end(), 1.0f);
  auto dx = pyk::to_device(x), dy = pyk::to_device(y);
  auto out = pyk::device_array_like(dx);
  module()["axpy"][pyk::LaunchShape{(n + 255) / 256, 256}](out, 2.0f, dx, dy);
  const std::vector<float> got = out.copy_to_host();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(got[i], 2.0f * x[i] + y[i]) << i;
  EXPECT_EQ(out.untyped().backend(), pyk::Backend::Cuda);
}

TEST(GpuRuntime, LinkedPtxIsCalledThroughFromBuffer) {
  const pyk::Module m = pyk::loads(kLinkedPtx, "linked_ptx.pyk");
  std::vector<int32_t> x = {1, 2, 3, 4};
  auto dx = pyk::to_device(x);
  auto r = pyk::device_array_like(dx);
  m["linked"][pyk::LaunchShape{1, 4}](r, dx);
  EXPECT_EQ(r.copy_to_host(), (std::vector<int32_t>{9, 6, 9, 12}));
}

TEST(GpuRuntime, StridedViewsAreKernelArguments) {
  std::vector<double> h(64 * 48);
  std::iota(h.begin(), h.end(), 0.0);
  auto m = pyk::to_device<double, 2>(h, {64, 48});
  auto view = m.slice(0, 1, 64, 3).slice(1, 0, 48, 2); // m[1::3, ::2]
  module()["scale2d"][pyk::LaunchShape{{3, 2}, {16, 16}}](view, -1.0);
  const std::vector<double> got = m.copy_to_host();
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 48; ++j) {
      const bool inView = i % 3 == 1 && j % 2 == 0;
      ASSERT_EQ(got[i * 48 + j], (inView ? -1.0 : 1.0) * h[i * 48 + j]) << i << "," << j;
    }
}

TEST(GpuRuntime, SharedMemoryAndAtomics) {
  const int n = 1 << 20;
  std::vector<float> h(n, 0.5f);
  auto a = pyk::to_device(h);
  auto total = pyk::to_device(std::vector<float>{0.0f});
  module()["block_sum"][pyk::LaunchShape{n / 256, 256}](a, total);
  EXPECT_EQ(total.copy_to_host()[0], 0.5f * n);
}

TEST(GpuRuntime, DynamicSharedMemoryBeyond48KiB) {
  const int words = 64 * 1024 / 4; // 64 KiB
  auto out = pyk::device_array<std::int32_t>(256);
  module()["dynamic_shared"].launch(1, 256, pyk::Stream(), words * 4)(out);
  const std::vector<std::int32_t> got = out.copy_to_host();
  for (int t = 0; t < 256; ++t)
    ASSERT_EQ(got[t], words - 1 - t);
}

TEST(GpuRuntime, GridSynchronizationRunsCooperatively) {
  const int n = 64 * 128;
  auto x = pyk::device_array<std::int64_t>(n), y = pyk::device_array<std::int64_t>(n);
  module()["two_phase"][pyk::LaunchShape{64, 128}](x, y);
  const std::vector<std::int64_t> got = y.copy_to_host();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(got[i], n - 1 - i);
}

TEST(GpuRuntime, StreamsPinnedMemoryAndEvents) {
  const int n = 1 << 22;
  pyk::PinnedHostArray<float> in = pyk::pinned_array<float>(n), out = pyk::pinned_array<float>(n);
  std::iota(in.begin(), in.end(), 0.0f);
  pyk::Stream s = pyk::stream();
  pyk::Event start = pyk::event(), end = pyk::event();
  auto d = pyk::device_array<float>(n);
  auto r = pyk::device_array<float>(n);
  start.record(s);
  d.copy_from_host(in.data(), s);
  module()["axpy"].launch((n + 255) / 256, 256, s)(r, 3.0f, d, d);
  r.copy_to_host(out.data(), s);
  end.record(s);
  s.synchronize();
  EXPECT_TRUE(end.query());
  EXPECT_GT(start.elapsed_time(end), 0.0f);
  for (int i = 0; i < n; i += 4097)
    ASSERT_EQ(out[i], 4.0f * in[i]) << i;
}

TEST(GpuRuntime, ManagedAndExternalMemory) {
  auto managed = pyk::managed_array<float>(1024);
  for (int i = 0; i < 1024; ++i)
    managed.host_data()[i] = static_cast<float>(i);
  auto owner = std::make_shared<pyk::DeviceArray<float>>(pyk::device_array<float>(1024));
  auto external = pyk::from_device_pointer<float, 1>(owner->device_data(), {1024}, owner);
  module()["axpy"][pyk::LaunchShape{4, 256}](external, 1.0f, managed, managed);
  pyk::synchronize();
  const std::vector<float> got = owner->copy_to_host();
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(got[i], 2.0f * i);
}

TEST(GpuRuntime, UfuncsBroadcastOnTheDevice) {
  std::vector<double> values(6 * 5);
  std::iota(values.begin(), values.end(), 1.0);
  auto m = pyk::to_device<double, 2>(values, {6, 5});
  // A strided operand (the transpose, copied on the device by pyk's copy kernel) against a row.
  pyk::HostArray row;
  row.dtype = pyk::Dtype::Float64;
  row.shape = {6};
  row.bytes.resize(6 * sizeof(double));
  const double rowValues[6] = {3, 4, 5, 6, 7, 8};
  std::memcpy(row.bytes.data(), rowValues, sizeof rowValues);
  const pyk::AnyDeviceArray r = module()["hypot_ufunc"](m.transpose(), row);
  ASSERT_EQ(r.shape(), (std::vector<std::int64_t>{5, 6}));
  std::vector<double> got(30);
  r.copy_to_host(got.data(), got.size() * sizeof(double));
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j)
      ASSERT_DOUBLE_EQ(got[i * 6 + j], std::hypot(values[j * 5 + i], rowValues[j]))
          << i << "," << j;
}

// Every device computes, each thread on the device it selected; a device's arrays stay its own.
TEST(GpuRuntime, EveryDeviceComputesOnItsThread) {
  const int count = pyk::device_count();
  ASSERT_EQ(static_cast<std::size_t>(count), pyk::gpus().size());
  ASSERT_GE(count, 1);
  EXPECT_FALSE(pyk::can_access_peer(0, 0));
  std::vector<std::thread> threads;
  std::vector<int> ok(static_cast<std::size_t>(count), 0);
  for (int d = 0; d < count; ++d)
    threads.emplace_back([&, d] {
      pyk::select_device(d);
      std::vector<float> x(4096, 1.5f);
      auto dx = pyk::to_device(x);
      auto out = pyk::device_array_like(dx);
      module()["axpy"][pyk::LaunchShape{16, 256}](out, 2.0f, dx, dx);
      const std::vector<float> got = out.copy_to_host();
      ok[static_cast<std::size_t>(d)] =
          out.untyped().device_id() == d && pyk::current_device() == d &&
          std::all_of(got.begin(), got.end(), [](float v) { return v == 4.5f; });
    });
  for (std::thread& t : threads)
    t.join();
  for (int d = 0; d < count; ++d)
    EXPECT_TRUE(ok[static_cast<std::size_t>(d)]) << "device " << d;
}

TEST(GpuRuntime, CopiesBetweenTwoDevices) {
  if (pyk::device_count() < 2)
    GTEST_SKIP() << "one device here: copies between devices need two";
  std::vector<float> x(1 << 20);
  std::iota(x.begin(), x.end(), 0.0f);
  auto on0 = pyk::to_device(x);
  pyk::DeviceArray<float> on1;
  {
    const pyk::DeviceScope scope(1);
    on1 = pyk::device_array<float>(x.size());
  }
  on1.copy_from_device(on0);
  EXPECT_EQ(on1.copy_to_host(), x);
  EXPECT_EQ(pyk::can_access_peer(0, 1), pyk::can_access_peer(1, 0));
}

} // namespace

int main(int argc, char** argv) {
  const std::string why = pyk::cuda_unavailable();
  if (!why.empty()) {
    std::printf("SKIPPED: the `gpu` tests need a CUDA device: %s\n", why.c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
