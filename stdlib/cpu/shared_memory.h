// shared_memory.h: shared arrays on the CPU, at offsets into the block's shared memory (the static
// ones at offsets codegen computes, the dynamic one after them).
#pragma once

#include "../common/arrays.h"
#include "engine_abi.h"

#include <cstddef>

namespace pyk::cpu {

// A shared array placed at `byteOffset` in the block's shared memory.
template <typename T>
T* shared_pointer(Block& block, std::size_t byteOffset) {
  return reinterpret_cast<T*>(block.sharedMemory + byteOffset);
}

// `cuda.shared.array(0, T)`: the dynamic part, as long as the launch's dynamic size allows.
template <typename T>
Array<T, 1, Layout::C> dynamic_shared_array(Block& block) {
  return {shared_pointer<T>(block, block.dynamicSharedOffset),
          {static_cast<int64>(block.dynamicSharedBytes / sizeof(T))},
          {static_cast<int64>(sizeof(T))}};
}

} // namespace pyk::cpu
