// DeviceBuffer: host allocations (64-byte aligned, large ones in huge pages, between guard pages)
// for the CPU backend; cuMemAlloc / cuMemAllocManaged on CUDA, in the owning device's context.
#include "memory/DeviceBuffer.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

#include <cstring>
#include <new>

#include "cpu/CpuDevices.h"
#include "cuda/CudaContext.h"
#include "cuda/CudaDriver.h"
#include "pyk/error.hpp"

namespace pyk::detail {

namespace {

// Buffers from this size up sit in 2 MiB-aligned memory the kernel is asked to back with
// transparent huge pages (as numpy does for large arrays): kernels streaming through them take
// fewer TLB misses (measured on bench/cpu's vector add: 8-10 % on two threads).
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
constexpr std::size_t kHugePageThreshold = std::size_t{4} << 20;

std::size_t alignmentFor(std::size_t bytes) {
  return bytes >= kHugePageThreshold ? kHugePageBytes : 64;
}

std::string describeBytes(std::size_t bytes) {
  return std::to_string(bytes) + " bytes";
}

std::size_t roundUp(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

// The CPU backend's arrays sit between two inaccessible pages, so that a kernel's access just past
// either end faults (cpu/KernelFault.h makes that an error naming the kernel) instead of reaching
// other memory of the program. Under 4 MiB the data ends at the upper guard page (its size rounded
// up to 64 bytes, the alignment); from 4 MiB it starts on a 2 MiB boundary, for huge pages, and
// the upper guard follows its last page. False (nothing mapped) where the system refuses, e.g.
// past its count of mappings: the buffer is then allocated as before, without guards.
bool mapBetweenGuardPages(DeviceBuffer& b) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const bool huge = b.hostAlignment == kHugePageBytes;
  const std::size_t dataBytes = roundUp(b.bytes == 0 ? 1 : b.bytes, 64);
  const std::size_t dataPages = roundUp(dataBytes, page);
  const std::size_t length = dataPages + 2 * page + (huge ? kHugePageBytes : 0);
  void* mapped =
      ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED)
    return false;
  auto* base = static_cast<unsigned char*>(mapped);
  unsigned char* first = huge ? reinterpret_cast<unsigned char*>(roundUp(
                                    reinterpret_cast<std::uintptr_t>(base + page), kHugePageBytes))
                              : base + page;
  unsigned char* upperGuard = first + dataPages;
  if (::mprotect(first - page, page, PROT_NONE) != 0 ||
      ::mprotect(upperGuard, page, PROT_NONE) != 0) {
    (void)::munmap(mapped, length);
    return false;
  }
  b.mapping = mapped;
  b.mappingBytes = length;
  b.data = huge ? first : upperGuard - dataBytes;
  return true;
}

// Asks the kernel to place `bytes` at `mapping` (page-aligned) in `node`'s memory when they are
// first touched (mbind's MPOL_PREFERRED, as a system call: no libnuma). Advice only: nothing for
// node -1, and a refusal leaves the memory where the kernel puts it.
void preferNumaNode(void* mapping, std::size_t bytes, int node) {
  constexpr int kMpolPreferred = 1;
  constexpr std::size_t kMaskLongs = 16; // nodes 0 to 1023
  if (node < 0 || static_cast<std::size_t>(node) >= kMaskLongs * 64)
    return;
  unsigned long mask[kMaskLongs] = {};
  mask[node / 64] |= 1UL << (node % 64);
  (void)::syscall(SYS_mbind, mapping, bytes, kMpolPreferred, mask, kMaskLongs * 64 + 1, 0);
}

cuda::CUdeviceptr address(const void* p) {
  return reinterpret_cast<cuda::CUdeviceptr>(p);
}

// The CUDA stream of `stream`, checking it belongs to CUDA.
cuda::CUstream cudaStreamOf(const Stream& stream) {
  return static_cast<cuda::CUstream>(stream.handle());
}

const cuda::CudaDriver& driver() {
  return *cuda::CudaDriver::shared();
}

// The copy runs in the buffer's device's context (the thread may be on another device).
class InContextOf {
public:
  explicit InContextOf(const DeviceBuffer& buffer) : scope_(driver(), buffer.device->context) {
    if (!scope_.ok())
      throw Error(ErrorKind::Device, "cannot make device " + std::to_string(buffer.device->id) +
                                         "'s context current for a copy");
  }

private:
  cuda::ScopedContext scope_;
};

} // namespace

std::shared_ptr<DeviceBuffer> DeviceBuffer::allocate(Backend backend, MemoryKind kind,
                                                     std::size_t bytes) {
  auto b = std::make_shared<DeviceBuffer>();
  b->backend = backend;
  b->kind = kind;
  b->bytes = bytes;
  if (backend == Backend::Cpu) {
    b->kind = MemoryKind::Host;
    b->hostAlignment = alignmentFor(bytes);
    if (!mapBetweenGuardPages(*b))
      b->data = ::operator new[](bytes == 0 ? 64 : bytes, std::align_val_t(b->hostAlignment));
    if (b->hostAlignment == kHugePageBytes)
      // Advice only: where transparent huge pages are off, the memory stays in small pages.
      (void)::madvise(b->data, bytes / kHugePageBytes * kHugePageBytes, MADV_HUGEPAGE);
    b->cpuDevice = cpu::currentCpuDevice();
    if (b->mapping != nullptr && cpu::cpuDeviceCount() > 1)
      preferNumaNode(b->mapping, b->mappingBytes, cpu::cpuDeviceGroup(b->cpuDevice).numaNode);
    return b;
  }
  const cuda::DeviceContext& device = cuda::currentDevice();
  const cuda::CudaDriver& driver = *cuda::CudaDriver::shared();
  b->device = &device;
  cuda::CUdeviceptr pointer = 0;
  // (currentDevice() made the device's context current on this thread.)
  // A zero-byte request still gets an address of its own (CUDA refuses size 0).
  const std::size_t request = bytes == 0 ? 1 : bytes;
  const std::string what = describeBytes(bytes) + " on device " + std::to_string(device.id);
  if (kind == MemoryKind::Managed)
    driver.check(driver.cuMemAllocManaged(&pointer, request, cuda::kMemAttachGlobal),
                 "cuMemAllocManaged", what);
  else
    driver.check(driver.cuMemAlloc(&pointer, request), "cuMemAlloc", what);
  b->data = reinterpret_cast<void*>(pointer);
  return b;
}

DeviceBuffer::~DeviceBuffer() {
  if (kind == MemoryKind::External || data == nullptr)
    return;
  if (backend == Backend::Cpu) {
    if (mapping != nullptr)
      (void)::munmap(mapping, mappingBytes);
    else
      ::operator delete[](data, std::align_val_t(hostAlignment));
    return;
  }
  cuda::releaseInContext(device->context, [&](const cuda::CudaDriver& driver) {
    (void)driver.cuMemFree(address(data));
  });
}

void copyToBuffer(const DeviceBuffer& buffer, void* at, const void* from, std::size_t bytes,
                  const Stream& stream) {
  if (bytes == 0)
    return;
  if (buffer.backend == Backend::Cpu) {
    std::memcpy(at, from, bytes);
    return;
  }
  const InContextOf scope(buffer);
  const std::string what = "a copy of " + describeBytes(bytes) + " to the device";
  if (stream.is_default())
    driver().check(driver().cuMemcpyHtoD(address(at), from, bytes), "cuMemcpyHtoD", what);
  else
    driver().check(driver().cuMemcpyHtoDAsync(address(at), from, bytes, cudaStreamOf(stream)),
                   "cuMemcpyHtoDAsync", what);
}

void copyFromBuffer(const DeviceBuffer& buffer, void* to, const void* at, std::size_t bytes,
                    const Stream& stream) {
  if (bytes == 0)
    return;
  if (buffer.backend == Backend::Cpu) {
    std::memcpy(to, at, bytes);
    return;
  }
  const InContextOf scope(buffer);
  const std::string what = "a copy of " + describeBytes(bytes) + " to the host";
  if (stream.is_default())
    driver().check(driver().cuMemcpyDtoH(to, address(at), bytes), "cuMemcpyDtoH", what);
  else
    driver().check(driver().cuMemcpyDtoHAsync(to, address(at), bytes, cudaStreamOf(stream)),
                   "cuMemcpyDtoHAsync", what);
}

void copyBetweenBuffers(const DeviceBuffer& to, void* toAt, const DeviceBuffer& from,
                        const void* fromAt, std::size_t bytes, const Stream& stream) {
  if (to.backend != from.backend)
    throw Error(ErrorKind::InvalidArgument,
                std::string("copy_from_device: the arrays are on different backends (") +
                    backend_name(to.backend) + " and " + backend_name(from.backend) + ")");
  if (bytes == 0)
    return;
  if (to.backend == Backend::Cpu) {
    std::memmove(toAt, fromAt, bytes);
    return;
  }
  if (to.device != from.device) {
    // Between devices: a peer copy, direct where the devices can reach each other's memory, else
    // staged by the driver; on a stream, the stream's device orders it.
    const InContextOf scope(to);
    const std::string what = "a copy of " + describeBytes(bytes) + " from device " +
                             std::to_string(from.device->id) + " to device " +
                             std::to_string(to.device->id);
    if (stream.is_default())
      driver().check(driver().cuMemcpyPeer(address(toAt), to.device->context, address(fromAt),
                                           from.device->context, bytes),
                     "cuMemcpyPeer", what);
    else
      driver().check(driver().cuMemcpyPeerAsync(address(toAt), to.device->context, address(fromAt),
                                                from.device->context, bytes, cudaStreamOf(stream)),
                     "cuMemcpyPeerAsync", what);
    return;
  }
  const InContextOf scope(to);
  const std::string what = "a device-to-device copy of " + describeBytes(bytes);
  if (stream.is_default())
    driver().check(driver().cuMemcpyDtoD(address(toAt), address(fromAt), bytes), "cuMemcpyDtoD",
                   what);
  else
    driver().check(
        driver().cuMemcpyDtoDAsync(address(toAt), address(fromAt), bytes, cudaStreamOf(stream)),
        "cuMemcpyDtoDAsync", what);
}

} // namespace pyk::detail
