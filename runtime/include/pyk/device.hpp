// device: which backend runs kernels and which GPUs there are, as numba.cuda's gpus and
// select_device. PYK_BACKEND=cuda|cpu|auto chooses the backend (auto: CUDA when a device is
// present).
#pragma once

#include <string>
#include <vector>

namespace pyk {

enum class Backend { Cpu, Cuda };

// The backend launches use. Throws pyk::Error (Device) when PYK_BACKEND asks for CUDA and this
// pyk has no CUDA backend or no device, and (InvalidArgument) for an unknown PYK_BACKEND.
Backend currentBackend();
const char* backendName(Backend backend); // "cpu", "cuda"

struct GpuInfo {
  int id;
  std::string name;
};
// The CUDA devices pyk can use (none on the CPU backend).
std::vector<GpuInfo> gpus();
// Makes device `id` current. Throws pyk::Error (Device) when there is no such device.
void select_device(int id);

} // namespace pyk
