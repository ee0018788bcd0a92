// CudaBackendScenarios: the CUDA backend end to end against the fake driver and the fake NVRTC
// (tests/unit/runtime/fake_driver, fake_nvrtc): arrays in device, managed and pinned memory,
// views, copies, streams and events; kernels (and gufunc calls) compiled, cached on disk and in
// memory, loaded and launched with their arguments laid out as the generated entry points read
// them; and the errors a user can cause. CTest runs it with PYK_LIBCUDA and PYK_LIBNVRTC naming
// the fakes; the disk cache is a fresh folder per run. What a real GPU computes is the `gpu`
// tests' part.
#include "FakeCuda.h"
#include "pyk/pyk.hpp"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <stdlib.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace pyk_fake_cuda;

TEST(CudaBackend, AutoPicksCudaAndArraysLiveInDeviceMemory) {
  EXPECT_EQ(pyk::current_backend(), pyk::Backend::Cuda);
  EXPECT_EQ(pyk::cuda_unavailable(), "");
  const std::size_t before = fakes().liveAllocations();
  {
    std::vector<float> host(1000);
    std::iota(host.begin(), host.end(), 0.5f);
    pyk::DeviceArray<float> a = pyk::to_device(host);
    EXPECT_EQ(a.untyped().backend(), pyk::Backend::Cuda);
    EXPECT_EQ(a.untyped().memory_kind(), pyk::MemoryKind::Device);
    EXPECT_EQ(a.untyped().device_id(), 0);
    EXPECT_EQ(a.host_data(), nullptr);
    EXPECT_EQ(fakes().liveAllocations(), before + 1);
    EXPECT_EQ(a.copy_to_host(), host);
    pyk::DeviceArray<float> b = pyk::device_array_like(a);
    b.copy_from_device(a);
    EXPECT_EQ(b.copy_to_host(), host);
  }
  EXPECT_EQ(fakes().liveAllocations(), before); // freed with the last reference
}

TEST(CudaBackend, StridedViewsCopyTheirOwnElements) {
  std::vector<std::int32_t> host(4 * 6);
  std::iota(host.begin(), host.end(), 0);
  pyk::DeviceArray<std::int32_t, 2> m = pyk::to_device<std::int32_t, 2>(host, {4, 6});
  // m[1:4:2, ::-2]
  pyk::DeviceArray<std::int32_t, 2> v = m.slice(0, 1, 4, 2).slice(1, -1, -7, -2);
  EXPECT_EQ(v.shape(), (std::array<std::int64_t, 2>{2, 3}));
  EXPECT_EQ(v.copy_to_host(), (std::vector<std::int32_t>{11, 9, 7, 23, 21, 19}));
  const std::vector<std::int32_t> row2 = m[2].copy_to_host();
  EXPECT_EQ(row2, (std::vector<std::int32_t>{12, 13, 14, 15, 16, 17}));
  const std::vector<std::int32_t> column = m.transpose()[5].copy_to_host();
  EXPECT_EQ(column, (std::vector<std::int32_t>{5, 11, 17, 23}));
  // Writing through a view changes only its elements.
  const std::vector<std::int32_t> minus{-1, -2, -3, -4, -5, -6};
  v.copy_from_host(minus.data());
  std::vector<std::int32_t> want = host;
  want[11] = -1, want[9] = -2, want[7] = -3, want[23] = -4, want[21] = -5, want[19] = -6;
  EXPECT_EQ(m.copy_to_host(), want);
  EXPECT_TRUE(errorOf([&] { (void)m.slice(1, 0, 6, 0); }, pyk::ErrorKind::InvalidArgument)
                  .find("the step is 0") != std::string::npos);
}

TEST(CudaBackend, ManagedPinnedAndExternalMemory) {
  pyk::DeviceArray<double> managed = pyk::managed_array<double>(8);
  EXPECT_EQ(managed.untyped().memory_kind(), pyk::MemoryKind::Managed);
  ASSERT_NE(managed.host_data(), nullptr);
  managed.host_data()[3] = 2.5;
  EXPECT_EQ(managed.copy_to_host()[3], 2.5);

  pyk::PinnedHostArray<float> pinned = pyk::pinned_array<float>(16);
  std::iota(pinned.begin(), pinned.end(), 1.0f);
  pyk::Stream s = pyk::stream();
  EXPECT_NE(s.handle(), nullptr);
  pyk::DeviceArray<float> a = pyk::device_array<float>(16);
  a.copy_from_host(pinned.data(), s);
  std::vector<float> back(16);
  a.copy_to_host(back.data(), s);
  s.synchronize();
  EXPECT_EQ(back, std::vector<float>(pinned.begin(), pinned.end()));

  // Memory another library allocated, viewed by pyk, kept alive by pyk while it needs it.
  auto owner = std::make_shared<pyk::DeviceArray<float>>(pyk::device_array<float>(6));
  pyk::DeviceArray<float, 2> wrapped =
      pyk::from_device_pointer<float, 2>(owner->device_data(), {2, 3}, owner);
  EXPECT_EQ(wrapped.untyped().memory_kind(), pyk::MemoryKind::External);
  std::vector<float> six{1, 2, 3, 4, 5, 6};
  wrapped.copy_from_host(six.data());
  EXPECT_EQ(owner->copy_to_host(), six);
  // Host memory is not device memory.
  EXPECT_NE(errorOf([&] { (void)pyk::from_device_pointer<float, 1>(six.data(), {6}); },
                    pyk::ErrorKind::InvalidArgument)
                .find("not device memory the CUDA driver knows"),
            std::string::npos);
}

TEST(CudaBackend, EventsTimeStreams) {
  pyk::Stream s = pyk::stream();
  pyk::Event start = pyk::event();
  pyk::Event end = pyk::event();
  start.record(s);
  end.record(s);
  EXPECT_GE(start.elapsed_time(end), 0.0f);
  pyk::Event untimed = pyk::event(false);
  untimed.record(s);
  EXPECT_NE(errorOf([&] { (void)start.elapsed_time(untimed); }, pyk::ErrorKind::InvalidArgument)
                .find("does not time"),
            std::string::npos);
  pyk::synchronize();
  pyk::Stream external = pyk::Stream::external(s.handle());
  EXPECT_EQ(external.handle(), s.handle());
}

TEST(CudaBackend, LaunchLaysOutArgumentsAsTheEntryPointReadsThem) {
  const pyk::Module m = pyk::loads(kVectorAdd, "vector_add.pyk");
  pyk::DeviceArray<float> a = pyk::to_device(std::vector<float>(1000, 1.0f));
  pyk::DeviceArray<float> b = pyk::to_device(std::vector<float>(1000, 2.0f));
  pyk::DeviceArray<float> c = pyk::device_array<float>(1000);
  pyk::Stream s = pyk::stream();
  m["vector_add"].launch(4, 256, s)(a, b, c);
  EXPECT_EQ(fakes().lastFunction(), "pyk_k_vector_add__A1C_f32_A1C_f32_A1C_f32");
  const Fakes::Configuration conf = fakes().configuration();
  EXPECT_EQ(conf.grid[0], 4u);
  EXPECT_EQ(conf.block[0], 256u);
  EXPECT_EQ(conf.stream, s.handle());
  EXPECT_EQ(conf.cooperative, 0);
  const std::vector<unsigned char> p0 = fakes().parameter(0);
  ASSERT_EQ(p0.size(), 24u); // data, shape[0], strides[0]
  EXPECT_EQ(read<void*>(p0, 0), a.device_data());
  EXPECT_EQ(read<std::int64_t>(p0, 8), 1000);
  EXPECT_EQ(read<std::int64_t>(p0, 16), 4);
  EXPECT_EQ(read<void*>(fakes().parameter(2), 0), c.device_data());

  // A strided 2-D view and a scalar converted to the parameter's type (numba types a Python
  // float argument as float64; an int64 passed for it is converted).
  pyk::DeviceArray<float, 2> x = pyk::device_array<float, 2>({8, 10});
  pyk::DeviceArray<float, 2> view = x.slice(1, 0, 10, 2);
  m["scale"][pyk::LaunchShape{{1, 1}, {8, 5}}](view, 3.0);
  EXPECT_EQ(fakes().lastFunction(), "pyk_k_scale__A2A_f32_f64");
  const std::vector<unsigned char> v = fakes().parameter(0);
  ASSERT_EQ(v.size(), 40u);
  EXPECT_EQ(read<std::int64_t>(v, 8), 8);
  EXPECT_EQ(read<std::int64_t>(v, 16), 5);
  EXPECT_EQ(read<std::int64_t>(v, 24), 40);
  EXPECT_EQ(read<std::int64_t>(v, 32), 8);
  EXPECT_EQ(read<double>(fakes().parameter(1), 0), 3.0);
}

TEST(CudaBackend, CompiledOnceThenFoundInMemoryAndOnDisk) {
  const std::string source = std::string(kVectorAdd) + "\n# a unit of its own\n";
  pyk::DeviceArray<float> a = pyk::device_array<float>(64);
  const int compiles = fakes().compiles();
  const int loads = fakes().moduleLoads();
  {
    const pyk::Module m = pyk::loads(source, "cached.pyk");
    for (int i = 0; i < 3; ++i)
      m["vector_add"][pyk::LaunchShape{1, 64}](a, a, a);
    EXPECT_EQ(fakes().compiles(), compiles + 1);
    EXPECT_EQ(fakes().moduleLoads(), loads + 1);
    const pyk::KernelArgument args[] = {pyk::KernelArgument::of(a), pyk::KernelArgument::of(a),
                                        pyk::KernelArgument::of(a)};
    // Arrays of fewer than 2**31 elements: the variant with 32-bit thread indices and sizes.
    EXPECT_EQ(m["vector_add"].cuda_target(args), "cubin sm_90 index32");
    EXPECT_NE(m["vector_add"].cuda_source(args).find("extern \"C\" __global__ void "
                                                     "pyk_k_vector_add__A1C_f32_A1C_f32_A1C_f32"),
              std::string::npos);
  }
  // A new module of the same source (as a new process would be): the disk cache has it.
  const pyk::Module again = pyk::loads(source, "cached.pyk");
  again["vector_add"][pyk::LaunchShape{1, 64}](a, a, a);
  EXPECT_EQ(fakes().compiles(), compiles + 1);
  EXPECT_EQ(fakes().moduleLoads(), loads + 2);
}

TEST(CudaBackend, AGridOf2To31ThreadsOnAnAxisRunsThe64BitVariant) {
  const pyk::Module m = pyk::loads(std::string(kVectorAdd) + "\n# index variants\n", "wide.pyk");
  pyk::DeviceArray<float> a = pyk::device_array<float>(64);
  const int compiles = fakes().compiles();
  m["vector_add"][pyk::LaunchShape{4, 64}](a, a, a);
  EXPECT_EQ(fakes().compiles(), compiles + 1);                             // the 32-bit variant
  m["vector_add"][pyk::LaunchShape{std::int64_t{1} << 21, 1024}](a, a, a); // 2**31 threads
  EXPECT_EQ(fakes().compiles(), compiles + 2); // the 64-bit one, compiled once
  m["vector_add"][pyk::LaunchShape{std::int64_t{1} << 21, 1024}](a, a, a);
  m["vector_add"][pyk::LaunchShape{(std::int64_t{1} << 21) - 1, 1024}](a, a, a); // 2**31 - 1024
  EXPECT_EQ(fakes().compiles(), compiles + 2);
}

TEST(CudaBackend, ADeviceNvrtcDoesNotKnowGetsPtx) {
  pyk::select_device(1); // the fake A100 (8.0); the fake NVRTC knows 75, 80 and 90
  const pyk::Module m = pyk::loads(kVectorAdd, "vector_add.pyk");
  pyk::DeviceArray<float> a = pyk::device_array<float>(64);
  const pyk::KernelArgument args[] = {pyk::KernelArgument::of(a), pyk::KernelArgument::of(a),
                                      pyk::KernelArgument::of(a)};
  EXPECT_EQ(m["vector_add"].cuda_target(args), "cubin sm_80 index32");
  m["vector_add"][pyk::LaunchShape{1, 64}](a, a, a);
  EXPECT_EQ(fakes().configuration().device, 1);
  pyk::select_device(0);
  // An array of device 1 cannot be launched on device 0.
  EXPECT_NE(errorOf(
                [&] {
                  m["vector_add"][pyk::LaunchShape{1, 64}](a, a, a);
                },
                pyk::ErrorKind::InvalidArgument)
                .find("is in the memory of device 1, but the launch runs on device 0"),
            std::string::npos);
}

TEST(CudaBackend, SelectDeviceMakesItsPrimaryContextCurrentForTheThread) {
  auto current = fakes().get<int()>(fakes().driver, "pykFakeCurrentDevice");
  EXPECT_EQ(pyk::device_count(), 2);
  pyk::select_device(1);
  EXPECT_EQ(current(), 1);
  EXPECT_EQ(pyk::current_device(), 1);
  {
    const pyk::DeviceScope scope(0); // numba's `with cuda.gpus[0]:`
    EXPECT_EQ(current(), 0);
    EXPECT_EQ(pyk::device_array<float>(4).untyped().device_id(), 0);
  }
  EXPECT_EQ(current(), 1);
  // Another thread starts on device 0.
  int other = -1;
  std::thread([&] { other = pyk::current_device(); }).join();
  EXPECT_EQ(other, 0);
  pyk::select_device(0);
  EXPECT_EQ(current(), 0);
  EXPECT_EQ(errorOf([] { pyk::select_device(2); }, pyk::ErrorKind::Device),
            "select_device(2): there are 2 CUDA devices (ids 0 to 1)");
}

// Arrays are bound to the device that allocated them; a copy between devices is a peer copy in
// the two devices' contexts (the fake refuses cuMemcpyDtoD across devices), on either thread.
TEST(CudaBackend, CopiesBetweenDevicesArePeerCopies) {
  EXPECT_TRUE(pyk::can_access_peer(0, 1));
  EXPECT_FALSE(pyk::can_access_peer(1, 1));
  auto peerCopies = fakes().get<int()>(fakes().driver, "pykFakePeerCopies");
  std::vector<float> values(100);
  std::iota(values.begin(), values.end(), 1.0f);
  pyk::DeviceArray<float> on0 = pyk::to_device(values);
  pyk::DeviceArray<float> on1;
  {
    const pyk::DeviceScope scope(1);
    on1 = pyk::device_array<float>(100);
  }
  EXPECT_EQ(on1.untyped().device_id(), 1);
  const int before = peerCopies();
  on1.copy_from_device(on0);
  EXPECT_EQ(peerCopies(), before + 1);
  EXPECT_EQ(on1.copy_to_host(), values); // read in device 1's context from device 0's thread
  const pyk::Stream s = pyk::stream();
  on0.copy_from_device(on1.slice(0, 0, 100), s); // on a stream
  s.synchronize();
  EXPECT_EQ(peerCopies(), before + 2);
  EXPECT_EQ(on0.copy_to_host(), values);
}

TEST(CudaBackend, FailingCallsNameTheCallTheKernelAndCudasError) {
  const pyk::Module m = pyk::loads(kVectorAdd, "vector_add.pyk");
  pyk::DeviceArray<float> a = pyk::device_array<float>(64);
  ::setenv("PYK_FAKE_CUDA_FAIL", "cuLaunchKernel", 1);
  const std::string message = errorOf(
      [&] {
        m["vector_add"][pyk::LaunchShape{1, 64}](a, a, a);
      },
      pyk::ErrorKind::Device);
  ::unsetenv("PYK_FAKE_CUDA_FAIL");
  EXPECT_EQ(message, "cuLaunchKernel failed for kernel vector_add(float32[::1], float32[::1], "
                     "float32[::1]) -> none: CUDA_ERROR_LAUNCH_FAILED: unspecified launch failure");
  // An error the kernel leaves behind, reported by a later call, names the kernel too.
  m["vector_add"][pyk::LaunchShape{1, 64}](a, a, a);
  ::setenv("PYK_FAKE_CUDA_FAIL", "cuCtxSynchronize", 1);
  const std::string later = errorOf([] { pyk::synchronize(); }, pyk::ErrorKind::Device);
  ::unsetenv("PYK_FAKE_CUDA_FAIL");
  EXPECT_EQ(later, "cuCtxSynchronize failed for device 0: CUDA_ERROR_LAUNCH_FAILED: unspecified "
                   "launch failure (the last kernel this thread launched: vector_add(float32[::1], "
                   "float32[::1], float32[::1]) -> none)");
  ::setenv("PYK_FAKE_CUDA_FAIL", "cuMemAlloc_v2", 1);
  const std::string alloc =
      errorOf([] { (void)pyk::device_array<float>(10); }, pyk::ErrorKind::Device);
  ::unsetenv("PYK_FAKE_CUDA_FAIL");
  EXPECT_EQ(alloc, "cuMemAlloc failed for 40 bytes on device 0: CUDA_ERROR_OUT_OF_MEMORY: out of "
                   "memory");
}

TEST(CudaBackend, LaunchesOutsideTheDevicesLimitsAreRefused) {
  const pyk::Module m = pyk::loads(kVectorAdd, "vector_add.pyk");
  pyk::DeviceArray<float> a = pyk::device_array<float>(64);
  // Dynamic shared memory over 48 KiB is opted into; over the device's 227 KiB, refused.
  m["vector_add"].launch(1, 64, pyk::Stream(), 100 * 1024)(a, a, a);
  EXPECT_EQ(fakes().configuration().shared, 100u * 1024);
  EXPECT_NE(errorOf([&] { m["vector_add"].launch(1, 64, pyk::Stream(), 228 * 1024)(a, a, a); },
                    pyk::ErrorKind::InvalidLaunch)
                .find("a block may have at most 232448 on this device (sharedMemPerBlockOptin)"),
            std::string::npos);
  // A grid that synchronizes is launched cooperatively, and only when every block fits.
  m["whole_grid"][pyk::LaunchShape{132, 256}](a);
  EXPECT_EQ(fakes().configuration().cooperative, 1);
  const std::string tooMany = errorOf(
      [&] {
        m["whole_grid"][pyk::LaunchShape{2000, 256}](a);
      },
      pyk::ErrorKind::InvalidLaunch);
  EXPECT_NE(tooMany.find("holds at most 1056 blocks of 256 threads, and the grid has 2000"),
            std::string::npos)
      << tooMany;
}

TEST(CudaBackend, ArraysOfTheCpuBackendAreNotMixedWithDeviceArrays) {
  pyk::DeviceArray<float> onDevice = pyk::device_array<float>(8);
  pyk::DeviceArray<float> on_host = [] {
    pyk::RuntimeSettings settings = pyk::settings();
    settings.backend = pyk::BackendChoice::Cpu;
    const pyk::ScopedSettings cpu(settings);
    return pyk::device_array<float>(8);
  }();
  EXPECT_EQ(on_host.untyped().backend(), pyk::Backend::Cpu);
  const pyk::Module m = pyk::loads(kVectorAdd, "vector_add.pyk");
  EXPECT_NE(errorOf(
                [&] {
                  m["vector_add"][pyk::LaunchShape{1, 8}](onDevice, on_host, onDevice);
                },
                pyk::ErrorKind::InvalidArgument)
                .find("argument 1 is an array on the cpu backend, but an earlier one is on the "
                      "cuda backend"),
            std::string::npos);
}

const char* const kGufuncs = R"pyk(from numba import guvectorize


@guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()", target="cuda")
def dot(a, b, r):
    r[0] = 0
    for i in range(a.shape[0]):
        r[0] += a[i] * b[i]


@guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="cpu")
def copy_rows(a, r):
    for i in range(a.shape[0]):
        r[i] = a[i]
)pyk";

TEST(CudaBackend, GufuncCallsLaunchTheGufuncKernelOnTheDevice) {
  const pyk::Module m = pyk::loads(kGufuncs, "gufuncs.pyk");
  // Host operands: copied to the device, one thread per loop element, each operand laid out as
  // the gufunc kernel reads it (the loop dimension, then the core ones); a host result back.
  std::vector<double> rows(4 * 3);
  std::iota(rows.begin(), rows.end(), 0.0);
  pyk::HostArray a;
  a.dtype = pyk::Dtype::Float64;
  a.shape = {4, 3};
  a.bytes.resize(rows.size() * sizeof(double));
  std::memcpy(a.bytes.data(), rows.data(), a.bytes.size());
  const std::vector<double> b = {1.0, 2.0, 3.0};
  const int launches = fakes().launches();
  const pyk::HostArray r = m["dot"](a, b);
  EXPECT_EQ(fakes().launches(), launches + 1);
  EXPECT_EQ(r.shape, (std::vector<std::int64_t>{4}));
  EXPECT_EQ(fakes().lastFunction(), "pyk_g_dot__A1A_f64_A1A_f64_A1A_f64");
  const Fakes::Configuration conf = fakes().configuration();
  EXPECT_EQ(conf.grid[0], 1u);
  EXPECT_EQ(conf.block[0], 256u);
  const std::vector<unsigned char> p0 = fakes().parameter(0), p1 = fakes().parameter(1),
                                   p2 = fakes().parameter(2);
  ASSERT_EQ(p0.size(), 40u); // data, shape[2], strides[2]
  EXPECT_EQ(read<std::int64_t>(p0, 8), 4);
  EXPECT_EQ(read<std::int64_t>(p0, 16), 3);
  EXPECT_EQ(read<std::int64_t>(p0, 24), 24);
  EXPECT_EQ(read<std::int64_t>(p0, 32), 8);
  ASSERT_EQ(p1.size(), 40u); // the vector broadcast along the loop: stride 0
  EXPECT_EQ(read<std::int64_t>(p1, 8), 4);
  EXPECT_EQ(read<std::int64_t>(p1, 24), 0);
  EXPECT_EQ(read<std::int64_t>(p1, 32), 8);
  ASSERT_EQ(p2.size(), 40u); // the `()` output: one element per loop index
  EXPECT_EQ(read<std::int64_t>(p2, 8), 4);
  EXPECT_EQ(read<std::int64_t>(p2, 16), 1);
  EXPECT_EQ(read<std::int64_t>(p2, 24), 8);

  // Device operands: nothing copied, the output allocated on the device and returned there.
  const pyk::DeviceArray<double, 2> d = pyk::to_device<double, 2>(rows, {4, 3});
  const pyk::AnyDeviceArray onDevice = m["dot"](d, d);
  EXPECT_EQ(onDevice.backend(), pyk::Backend::Cuda);
  EXPECT_EQ(read<void*>(fakes().parameter(0), 0), d.device_data());
  EXPECT_EQ(read<void*>(fakes().parameter(2), 0), onDevice.device_data());

  // A target='cpu' gufunc runs on the CPU backend: CUDA device arrays are refused.
  EXPECT_NE(errorOf([&] { (void)m["copy_rows"](d); }, pyk::ErrorKind::InvalidArgument)
                .find("the gufunc `copy_rows` has target='cpu': give it host arrays or "
                      "CPU-backend arrays, not CUDA device arrays"),
            std::string::npos);
}

} // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // A disk cache of this run's own.
  char folder[] = "/tmp/pyk-cuda-backend-XXXXXX";
  if (::mkdtemp(folder) == nullptr)
    return 2;
  pyk::RuntimeSettings settings = pyk::settings();
  settings.cache_folder = folder;
  pyk::set_settings(settings);
  const int result = RUN_ALL_TESTS();
  std::filesystem::remove_all(folder);
  return result;
}

namespace {

// forall's block size comes from the occupancy calculator (the fake's: 2048 threads resident a
// multiprocessor, so the largest block that divides it, 1024, wins); a specialized kernel's
// cooperative limit is the device's multiprocessors times the blocks each holds.
TEST(CudaBackend, ForallChoosesTheBlockByOccupancyAndSpecializeCompilesNow) {
  const pyk::Module m = pyk::loads(kVectorAdd, "vector_add.pyk");
  pyk::DeviceArray<float> a = pyk::to_device(std::vector<float>(5000, 1.0f));
  pyk::DeviceArray<float> c = pyk::device_array<float>(5000);
  m["vector_add"].forall(5000)(a, a, c);
  Fakes::Configuration conf = fakes().configuration();
  EXPECT_EQ(conf.grid[0], 5u);
  EXPECT_EQ(conf.block[0], 1024u);
  m["vector_add"].forall(5000, 128)(a, a, c);
  conf = fakes().configuration();
  EXPECT_EQ(conf.grid[0], 40u);
  EXPECT_EQ(conf.block[0], 128u);

  pyk::DeviceArray<float> x = pyk::to_device(std::vector<float>(64, 1.0f));
  const int loads = fakes().moduleLoads();
  pyk::Kernel whole = m["whole_grid"].specialize(x);
  EXPECT_EQ(fakes().moduleLoads(), loads + 1); // compiled and loaded by specialize
  EXPECT_EQ(whole.max_cooperative_grid_blocks({256}), 8 * 132);
  EXPECT_EQ(whole.overloads(),
            std::vector<std::string>{"whole_grid(float32[::1]) -> none on cuda device 0 index32"});
}

} // namespace

namespace {

// PYK_FAKE_CUDA_TWO_H100 (its own CTest run): a kernel is compiled once for the two devices of one
// architecture, loaded on each, and launched where the thread's device is.
TEST(TwoH100s, AModuleIsCompiledOncePerArchitecture) {
  pyk::RuntimeSettings settings = pyk::settings();
  settings.cache_folder.clear(); // no disk cache: a second compile would show
  const pyk::ScopedSettings noDiskCache(settings);
  ASSERT_EQ(pyk::device_count(), 2); // (loads the driver, which fakes() finds loaded)
  EXPECT_EQ(pyk::gpus()[1].compute_capability_major, 9);
  const pyk::Module m = pyk::loads(kVectorAdd, "two_devices.pyk");
  const int compiles = fakes().compiles();
  const int loads = fakes().moduleLoads();
  for (int device = 0; device < 2; ++device) {
    const pyk::DeviceScope scope(device);
    pyk::DeviceArray<float> a = pyk::device_array<float>(64);
    m["vector_add"][pyk::LaunchShape{1, 64}](a, a, a);
    EXPECT_EQ(fakes().configuration().device, device);
  }
  EXPECT_EQ(fakes().compiles(), compiles + 1);
  EXPECT_EQ(fakes().moduleLoads(), loads + 2);
  // Each thread on its own device, at once.
  std::vector<std::thread> threads;
  for (int device = 0; device < 2; ++device)
    threads.emplace_back([&, device] {
      pyk::select_device(device);
      pyk::DeviceArray<float> a = pyk::device_array<float>(128);
      for (int i = 0; i < 20; ++i)
        m["vector_add"][pyk::LaunchShape{2, 64}](a, a, a);
    });
  for (std::thread& t : threads)
    t.join();
  EXPECT_EQ(fakes().compiles(), compiles + 1);
  EXPECT_EQ(fakes().moduleLoads(), loads + 2);
}

} // namespace
