// FiberStacks: the stacks a worker's fibers run on, allocated once and reused, each above a guard
// page so that an overflow faults instead of writing over its neighbour.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pyk::cpu {

class FiberStacks {
public:
  // Each stack holds `stackBytes` (rounded up to whole pages) above its guard page.
  explicit FiberStacks(std::size_t stackBytes);
  ~FiberStacks();
  FiberStacks(const FiberStacks&) = delete;
  FiberStacks& operator=(const FiberStacks&) = delete;

  // Makes sure `count` stacks exist (a pyk::Error when the memory cannot be mapped).
  void reserve(uint32_t count);
  uint32_t count() const { return static_cast<uint32_t>(tops_.size()); }
  std::size_t stackBytes() const { return stackBytes_; }
  // The highest address of stack `index` (stacks grow down), 16-byte aligned.
  void* top(uint32_t index) const { return tops_[index]; }

private:
  struct Mapping {
    void* base;
    std::size_t bytes;
  };
  std::size_t pageBytes_;
  std::size_t stackBytes_;
  std::vector<Mapping> mappings_;
  std::vector<void*> tops_;
};

} // namespace pyk::cpu
