// KernelFault: the fault handler, its jump points and the alternate signal stacks.
#include "cpu/KernelFault.h"

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <pthread.h>
#include <ucontext.h>

namespace pyk::cpu {

namespace {

// The jump point of the block this thread is running, null outside one.
struct JumpPoint {
  sigjmp_buf jump;
  MemoryFault fault;
};
thread_local JumpPoint* tFaultJumpPoint = nullptr;
thread_local bool tFaultAltStackSet = false;

struct sigaction previousSegvAction;
struct sigaction previousBusAction;

// A fault's stack may be the one that overflowed: the handler runs on a stack of its own.
constexpr std::size_t kFaultAltStackBytes = 64 * 1024;

void setFaultAltStack() {
  stack_t existing{};
  if (::sigaltstack(nullptr, &existing) == 0 && !(existing.ss_flags & SS_DISABLE)) {
    tFaultAltStackSet = true; // the program (or a sanitizer) gave this thread one already
    return;
  }
  // Kept for the thread's life: a worker thread lives as long as the process's engine.
  void* memory = std::malloc(kFaultAltStackBytes);
  if (memory == nullptr)
    return;
  stack_t stack{};
  stack.ss_sp = memory;
  stack.ss_size = kFaultAltStackBytes;
  if (::sigaltstack(&stack, nullptr) == 0)
    tFaultAltStackSet = true;
  else
    std::free(memory);
}

int faultAccessOf([[maybe_unused]] void* context) {
#if defined(__x86_64__)
  const auto* uc = static_cast<const ucontext_t*>(context);
  // The page-fault error code: bit 1 is set for a write.
  return (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0 ? 2 : 1;
#else
  return 0;
#endif
}

void onMemoryFault(int signal, siginfo_t* info, void* context) {
  if (JumpPoint* point = tFaultJumpPoint) {
    tFaultJumpPoint = nullptr;
    point->fault.address = info->si_addr;
    point->fault.signal = signal;
    point->fault.access = faultAccessOf(context);
    siglongjmp(point->jump, 1);
  }
  // Not a kernel's: what was there before pyk's handler. Returning re-runs the faulting
  // instruction under it (the default action ends the process as it would have).
  const struct sigaction& previous = signal == SIGBUS ? previousBusAction : previousSegvAction;
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != nullptr) {
    previous.sa_sigaction(signal, info, context);
    return;
  }
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN &&
      previous.sa_handler != nullptr) {
    previous.sa_handler(signal);
    return;
  }
  ::signal(signal, SIG_DFL);
}

void installFaultHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = &onMemoryFault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGSEGV, &action, &previousSegvAction);
    ::sigaction(SIGBUS, &action, &previousBusAction);
  });
}

} // namespace

bool runCatchingFaults(void (*body)(void*), void* context, MemoryFault& fault) {
  installFaultHandler();
  if (!tFaultAltStackSet)
    setFaultAltStack();
  JumpPoint point;
  JumpPoint* const outer = tFaultJumpPoint;
  // No signal mask saved (a system call each block otherwise): after the jump, the signal the
  // handler ran for is unblocked here.
  if (sigsetjmp(point.jump, 0) != 0) {
    tFaultJumpPoint = outer;
    fault = point.fault;
    sigset_t faults;
    sigemptyset(&faults);
    sigaddset(&faults, fault.signal);
    ::pthread_sigmask(SIG_UNBLOCK, &faults, nullptr);
    return false;
  }
  tFaultJumpPoint = &point;
  try {
    body(context);
  } catch (...) {
    tFaultJumpPoint = outer;
    throw;
  }
  tFaultJumpPoint = outer;
  return true;
}

std::string describeFault(const char* kernel, const MemoryFault& fault, uint32_t blockX,
                          uint32_t blockY, uint32_t blockZ) {
  char address[32];
  std::snprintf(address, sizeof address, "%p", fault.address);
  const char* what = fault.access == 2 ? "wrote to" : fault.access == 1 ? "read from" : "accessed";
  return "kernel `" + std::string(kernel) + "`: a thread of block (" + std::to_string(blockX) +
         ", " + std::to_string(blockY) + ", " + std::to_string(blockZ) + ") " + what + " " +
         address + ", which is not memory it may use" +
         (fault.signal == SIGBUS ? " (bus error)" : "") +
         ": an index out of bounds, most likely (on a GPU, CUDA reports an illegal address); "
         "PYK_BOUNDSCHECK=1 names the index and the array. The launch was stopped";
}

} // namespace pyk::cpu
