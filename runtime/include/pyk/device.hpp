// device: which backend runs kernels and which GPUs there are, as numba.cuda's gpus and
// select_device. The backend setting (PYK_BACKEND=cuda|cpu|auto, pyk/settings.hpp) chooses the
// backend (auto: CUDA when a device is present).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace pyk {

enum class Backend { Cpu, Cuda };

// The backend new arrays, streams and events belong to, and that launches without array arguments
// use (a launch runs where its arrays are). Throws pyk::Error (Device) when the settings ask for
// CUDA and there is no driver, device or NVRTC, and as pyk::settings() does when the environment
// has a malformed PYK_* variable.
Backend current_backend();
const char* backend_name(Backend backend); // "cpu", "cuda"

struct GpuInfo {
  int id;
  std::string name;
  int compute_capability_major = 0; // 9 for sm_90
  int compute_capability_minor = 0;
  int multiprocessors = 0;
  std::size_t total_memory_bytes = 0;
};
// The CUDA devices the driver reports, as numba.cuda.gpus: none when there is no NVIDIA driver
// (libcuda.so.1, loaded at run time; $PYK_LIBCUDA names another file) or no device.
std::vector<GpuInfo> gpus();

// The devices of the current backend, numbered 0 to device_count() - 1: on CUDA the driver's (as
// CUDA_VISIBLE_DEVICES leaves them); on the CPU backend one, device 0 (the whole machine's worker
// pool), unless PYK_CPU_DEVICES asks for one per NUMA node or N groups of CPUs, each with workers
// of its own bound to its CPUs. A program that picks `rank % device_count()` runs unchanged on
// both.
int device_count();
// The calling thread's device (numba's cuda.get_current_device().id): the one it selected, else 0.
int current_device();
// Makes device `id` of the current backend the calling thread's (on CUDA its primary context
// current; among several CPU devices, the thread bound to the device's CPUs), as
// numba.cuda.select_device: its new arrays, streams and launches go there. Throws pyk::Error
// (Device) when there is no such device, naming the ones there are.
void select_device(int id);

// Device `id` for a scope, the thread's previous device again at its end: numba's
// `with cuda.gpus[id]:`.
class DeviceScope {
public:
  explicit DeviceScope(int id);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

private:
  int previous_;
};

// Whether kernels and copies on `device` can address `peer`'s memory directly (NVLink or PCIe peer
// access, CUDA's cuDeviceCanAccessPeer; two CPU devices always can, one address space); false for
// a device and itself. Copies between devices work either way (AnyDeviceArray::copy_from_device:
// on CUDA a peer copy, staged by the driver where there is no direct path); a CUDA kernel's arrays
// must be on its launch's device (a CPU kernel's may be on any CPU device: NUMA makes it slower).
bool can_access_peer(int device, int peer);
// Why kernels cannot run on CUDA in this process (no driver, no device, no NVRTC); empty when they
// can. What `gpu` tests print when they skip.
std::string cuda_unavailable();

} // namespace pyk
