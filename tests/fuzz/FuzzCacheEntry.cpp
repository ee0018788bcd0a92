// FuzzCacheEntry: libFuzzer target for the disk-cache entry reader: any bytes are an entry of the
// key (payload returned) or not (nullopt); the label reader never reads past what it is given.
#include <cstddef>
#include <cstdint>
#include <span>

#include "jit/CacheEntry.h"
#include "jit/CacheKey.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pyk::jit::CacheKey key = pyk::jit::CacheKey::of({"fuzz"});
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  (void)pyk::jit::payloadOfEntry(bytes, key);
  (void)pyk::jit::labelOfEntry(bytes);
  return 0;
}
