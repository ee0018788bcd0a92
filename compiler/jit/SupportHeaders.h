// SupportHeaders: the support headers emitted code includes (stdlib/), each embedded once, here,
// at build time, so pykc and programs linked with pyk compile kernels wherever they run.
#pragma once

#include <string>
#include <string_view>

namespace pyk::jit {

// The name CUDA units include (`#include "pyk_support.h"`), handed to NVRTC as an in-memory
// header, and its text ($PYK_CUDA_SUPPORT_HEADER when pyk was built: stdlib/cuda/pyk_support.h
// assembled).
inline constexpr std::string_view kCudaSupportHeaderName = "pyk_support.h";
std::string_view cudaSupportHeaderText();

// The CPU backend's header ($PYK_CPU_SUPPORT_HEADER: stdlib/cpu/pyk_cpu_support.h assembled into
// one self-contained text), all a host compile needs beside the unit.
std::string_view cpuSupportHeaderText();

// Each text's SHA-256 in hex, computed once a process: what cache keys hash in its place (the
// texts are 140 KiB; hashing them at every compile cost a third of a disk-cache hit).
const std::string& cudaSupportHeaderDigest();
const std::string& cpuSupportHeaderDigest();

} // namespace pyk::jit
