// CacheKey: the name of a compiled artifact in the disk cache, a SHA-256 over everything that
// decides the artifact (emitted source, compile options, target, pyk and NVRTC versions).
#include "jit/CacheKey.h"

#include <cstdint>

#include "jit/Sha256.h"

namespace pyk::jit {

namespace {

// Names the hashing scheme, so a change to it never reuses an old key.
constexpr std::string_view kKeyDomain = "pyk compile cache key v1";

void addPart(Sha256& hash, std::string_view part) {
  std::uint8_t length[8];
  for (int i = 0; i < 8; ++i)
    length[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(part.size()) >> (8 * i));
  hash.update(std::as_bytes(std::span<const std::uint8_t>(length)));
  hash.update(part);
}

template <typename Parts>
CacheKey keyOf(const Parts& parts) {
  Sha256 hash;
  addPart(hash, kKeyDomain);
  for (std::string_view part : parts)
    addPart(hash, part);
  Sha256::Digest digest = hash.finish();
  return *CacheKey::fromHex(toHex(digest));
}

} // namespace

CacheKey CacheKey::of(std::initializer_list<std::string_view> parts) {
  return keyOf(parts);
}

CacheKey CacheKey::of(std::span<const std::string> parts) {
  return keyOf(parts);
}

std::optional<CacheKey> CacheKey::fromHex(std::string_view hex) {
  if (hex.size() != 64)
    return std::nullopt;
  for (char c : hex)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return std::nullopt;
  return CacheKey(std::string(hex));
}

} // namespace pyk::jit
