// FuzzNpy: libFuzzer target for the .npy reader (pyk::decode_npy): any bytes give a HostArray
// consistent with its dtype and shape, or a pyk::Error; never a crash or a huge allocation.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "pyk/error.hpp"
#include "pyk/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    pyk::HostArray a = pyk::decode_npy(
        std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size), "fuzz.npy");
    if (!a.is_consistent())
      std::abort();
    (void)pyk::encode_npy(a);
  } catch (const pyk::Error&) {
  }
  return 0;
}
