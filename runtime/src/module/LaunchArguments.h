// LaunchArguments: a launch's arguments laid out as the generated entry points read them, the same
// on both backends: an array as pyk::Array (data pointer, shape, strides in bytes, all 64-bit), a
// record as a pointer to it, a tuple as the struct of its elements (base/ParameterLayout), a
// scalar converted to its parameter's type; and the array of pointers to them an entry point (or
// cuLaunchKernel) takes. Up to kInline arguments live inline (a launch allocates nothing); more
// in storage the thread keeps for the next launch of as many (or a fresh allocation while that is
// in use), and tuples larger than a slot on the heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "base/NumbaType.h"
#include "module/ArgumentTypes.h"
#include "pyk/kernel.hpp"

namespace pyk::detail {

// `array` as an array parameter reads it (pyk::Array), written at `out`.
inline void writeArrayParameter(const AnyDeviceArray& array, unsigned char* out) {
  void* data = array.device_data();
  std::memcpy(out, &data, sizeof data);
  // a 0-d array is its pointer alone (and its empty shape may have no storage); element by
  // element, not memcpy: a few words, whose count the compiler does not know
  const std::int64_t* shape = array.shape().data();
  const std::int64_t* strides = array.strides().data();
  const auto n = static_cast<std::size_t>(array.ndim());
  for (std::size_t d = 0; d < n; ++d) {
    std::memcpy(out + 8 + 8 * d, shape + d, 8);
    std::memcpy(out + 8 + 8 * (n + d), strides + d, 8);
  }
}

class LaunchArguments {
public:
  // Room for `count` arguments.
  explicit LaunchArguments(std::size_t count);
  ~LaunchArguments();
  LaunchArguments(const LaunchArguments&) = delete;
  LaunchArguments& operator=(const LaunchArguments&) = delete;

  // Lays out argument `i` for a parameter of type `param`. Throws pyk::Error (InvalidArgument) for
  // a scalar pyk does not convert.
  void set(std::size_t i, const KernelArgument& argument, const types::NumbaType& param);

  // Argument `i` is an array for a parameter that is one: pyk::Array's data, shape and strides.
  void setArray(std::size_t i, const AnyDeviceArray& array) {
    unsigned char* out = next_;
    // the array's own bytes, kept 16-aligned: arguments lie close together
    next_ += (8 + 16 * static_cast<std::size_t>(array.ndim()) + 15) & ~std::size_t{15};
    writeArrayParameter(array, out);
    pointers_[i] = out;
  }
  // Argument `i` is `bytes`, already as its parameter reads them, valid until the launch returns.
  void setInPlace(std::size_t i, const void* bytes) { pointers_[i] = const_cast<void*>(bytes); }

  // One pointer per argument, to its bytes.
  void** pointers() { return pointers_; }

private:
  // One argument's bytes: the largest is a pyk::Array of 16 dimensions.
  struct alignas(16) Slot {
    unsigned char bytes[8 + 16 * 8];
  };
  static constexpr std::size_t kInline = 32;

  Slot inlineSlots_[kInline];
  void* inlinePointers_[kInline];
  struct Storage; // storage for more than kInline arguments
  static Storage& threadStorage();
  Storage* storage_ = nullptr;     // the thread's, or owned_
  std::unique_ptr<Storage> owned_; // a launch inside a launch: storage of its own
  std::vector<std::unique_ptr<Slot[]>> large_;
  unsigned char* next_ = inlineSlots_[0].bytes; // where the next argument's bytes go (at most a
                                                // slot each)
  void** pointers_ = inlinePointers_;
};

} // namespace pyk::detail
