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
// Makes device `id` current on the calling thread (its primary context), as
// numba.cuda.select_device. Throws pyk::Error (Device) when there is no such device, naming why.
void select_device(int id);
// Why kernels cannot run on CUDA in this process (no driver, no device, no NVRTC); empty when they
// can. What `gpu` tests print when they skip.
std::string cuda_unavailable();

} // namespace pyk
