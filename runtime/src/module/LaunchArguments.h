// LaunchArguments: a launch's arguments laid out as the generated entry points read them, the same
// on both backends: an array as pyk::Array (data pointer, shape, strides in bytes, all 64-bit), a
// record as a pointer to it, a tuple as the struct of its elements (base/ParameterLayout), a
// scalar converted to its parameter's type; and the array of pointers to them an entry point (or
// cuLaunchKernel) takes. Up to ArgumentSignature::kMaxArguments live inline (a launch allocates
// nothing); more, and tuples larger than a slot, go on the heap.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "base/NumbaType.h"
#include "module/ArgumentTypes.h"
#include "pyk/kernel.hpp"

namespace pyk::detail {

class LaunchArguments {
public:
  // Room for `count` arguments.
  explicit LaunchArguments(std::size_t count);
  LaunchArguments(const LaunchArguments&) = delete;
  LaunchArguments& operator=(const LaunchArguments&) = delete;

  // Lays out argument `i` for a parameter of type `param`. Throws pyk::Error (InvalidArgument) for
  // a scalar pyk does not convert.
  void set(std::size_t i, const KernelArgument& argument, const types::NumbaType& param);

  // One pointer per argument, to its bytes.
  void** pointers() { return pointers_; }

private:
  // One argument's bytes: the largest is a pyk::Array of 16 dimensions.
  struct alignas(16) Slot {
    unsigned char bytes[8 + 16 * 8];
  };
  static constexpr std::size_t kInline = ArgumentSignature::kMaxArguments;

  Slot inlineSlots_[kInline];
  void* inlinePointers_[kInline];
  std::vector<Slot> heapSlots_;
  std::vector<std::unique_ptr<Slot[]>> large_;
  std::vector<void*> heapPointers_;
  Slot* slots_ = inlineSlots_;
  void** pointers_ = inlinePointers_;
};

} // namespace pyk::detail
