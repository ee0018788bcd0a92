// local_memory.h: `cuda.local.array`s too large for a thread's stack. Small ones are C arrays on
// the stack of the thread (or fiber) running the CUDA thread; one of more than
// kMaxStackLocalBytes (a fiber's stack is 64 KiB by default, a CUDA thread may have 512 KiB of
// local memory, and the CPU backend allows more) lives on the heap for the call that made it,
// aligned to 64 bytes or to the array's `alignment=` (numba-cuda's keyword) when larger.
#pragma once

#include <cstddef>
#include <new>

namespace pyk::cpu {

inline constexpr std::size_t kMaxStackLocalBytes = 8 * 1024;

template <typename T, std::size_t Alignment = 0>
class HeapLocalArray {
public:
  explicit HeapLocalArray(std::size_t count)
      : data_(static_cast<T*>(::operator new(count * sizeof(T), kAlignment))) {}
  ~HeapLocalArray() { ::operator delete(data_, kAlignment); }
  HeapLocalArray(const HeapLocalArray&) = delete;
  HeapLocalArray& operator=(const HeapLocalArray&) = delete;
  T* data() const { return data_; }

private:
  static constexpr std::size_t kLeast = alignof(T) > 64 ? alignof(T) : 64;
  static constexpr std::align_val_t kAlignment{Alignment > kLeast ? Alignment : kLeast};
  T* data_;
};

} // namespace pyk::cpu
