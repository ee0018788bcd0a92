// thread_context.h: pyk::cpu::Context, what generated code sees of its thread (indices, block,
// fiber), and how a thread stops the kernel (trap).
#pragma once

#include "engine_abi.h"

#include <cstring>

namespace pyk::cpu {

// What device code sees of its thread: the hidden first parameter of every generated function.
// Loop and split mode keep one Context per block and move threadIdx from thread to thread;
// fiber mode has one per fiber, with the fiber's Thread for barriers and warp operations.
struct Context {
  Dim3 threadIdx;
  Dim3 blockIdx;
  Dim3 blockDim;
  Dim3 gridDim;
  Block* block;
  Thread* thread; // fiber mode only
};

inline Context blockContext(Block& block) {
  return {Dim3{0, 0, 0}, block.blockIdx, block.blockDim, block.gridDim, &block, nullptr};
}
inline Context threadContext(Thread& thread) {
  Block& b = *thread.block;
  return {thread.threadIdx, b.blockIdx, b.blockDim, b.gridDim, &b, &thread};
}

inline constexpr uint32 kNoThread = 0xFFFFFFFFu;

inline uint32 linearIndexOf(const Context& c) {
  return c.threadIdx.x + c.blockDim.x * (c.threadIdx.y + c.blockDim.y * c.threadIdx.z);
}
inline Dim3 threadIndexOf(const Context& c, uint32 linear) {
  return Dim3{linear % c.blockDim.x, linear / c.blockDim.x % c.blockDim.y,
              linear / (c.blockDim.x * c.blockDim.y)};
}
// The first thread that has not exited (`exited` null: none has), or kNoThread.
inline uint32 firstLiveThread(const Context& c, const uint8* exited) {
  const uint32 n = static_cast<uint32>(volumeOf(c.blockDim));
  for (uint32 t = 0; t < n; ++t)
    if (exited == nullptr || exited[t] == 0)
      return t;
  return kNoThread;
}

// A thread ended where it was, as if it had returned from the kernel: numba.cuda's exceptions
// without debug=True (an Optional that is None used as a value). The thread's entry catches it.
struct ThreadExit {};

// A failed debug assertion (numba's debug=True assert/raise): the thread stops; the launch fails.
struct KernelTrap {};
[[noreturn]] inline void trap(Context& c) {
  c.block->trapped = 1;
  throw KernelTrap{};
}
// The same with a message for the launch's error (the first of the block's is kept).
[[noreturn]] inline void trapWith(Context& c, const char* message) {
  if (c.block->trapped == 0) {
    std::strncpy(c.block->trapMessage, message, sizeof c.block->trapMessage - 1);
    c.block->trapMessage[sizeof c.block->trapMessage - 1] = '\0';
  }
  trap(c);
}

} // namespace pyk::cpu
