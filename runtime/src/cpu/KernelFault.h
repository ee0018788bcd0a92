// KernelFault: a memory fault (SIGSEGV, SIGBUS) inside a kernel's code on the CPU backend made a
// pyk::Error naming the kernel, rather than the death of the program that embeds pyk (numba on a
// GPU reports an illegal address, and CUDA ends the launch). The CPU backend's arrays sit between
// guard pages (memory/DeviceBuffer.cpp), so a write just past either end faults here instead of
// landing in the host's heap.
//
// How: the worker sets a jump point before it runs a block; the process's handler, when the
// faulting thread is inside such a block, records the address and jumps back to it, on an
// alternate signal stack (a fiber that overflows its stack faults too). A fault anywhere else
// goes to the handler that was installed before pyk's, or to the default action. Whatever the
// block's threads had not done is not done; memory they wrote before the fault stays written.
#pragma once

#include "pyk/error.hpp"

#include <cstdint>
#include <string>

namespace pyk::cpu {

struct MemoryFault {
  const void* address = nullptr; // the address the access faulted on (si_addr)
  int signal = 0;                // SIGSEGV or SIGBUS
  int access = 0;                // 1 read, 2 write, 0 not known
};

// Runs body(context) on this thread with faults caught: true when it returned, false when a
// fault stopped it (then `fault` says where). `body` must not be left by a jump of its own.
bool runCatchingFaults(void (*body)(void*), void* context, MemoryFault& fault);

template <typename Body>
bool runCatchingFaults(Body& body, MemoryFault& fault) {
  return runCatchingFaults([](void* b) { (*static_cast<Body*>(b))(); }, &body, fault);
}

// The error a launch ends with: kind Kernel, the kernel and block named, the address kept so the
// launcher can say which argument it lies past.
class KernelFaultError : public Error {
public:
  KernelFaultError(const std::string& message, const MemoryFault& fault)
      : Error(ErrorKind::Kernel, message), fault_(fault) {}
  const MemoryFault& fault() const { return fault_; }

private:
  MemoryFault fault_;
};

// "kernel `k`: a thread of block (3, 0, 0) wrote to 0x7f12... (an invalid address) ...".
std::string describeFault(const char* kernel, const MemoryFault& fault, uint32_t blockX,
                          uint32_t blockY, uint32_t blockZ);

} // namespace pyk::cpu
