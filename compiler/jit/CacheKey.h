// CacheKey: the name of a compiled artifact in the disk cache, a SHA-256 over everything that
// decides the artifact (emitted source, compile options, target, pyk and NVRTC versions).
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace pyk::jit {

class CacheKey {
public:
  // The key of the parts, in order. Each part is hashed with its length, so no two different
  // lists of parts ({"ab", "c"} and {"a", "bc"}) share a key.
  static CacheKey of(std::initializer_list<std::string_view> parts);
  static CacheKey of(std::span<const std::string> parts);

  // The key whose hex() is `hex` (64 lower-case hexadecimal digits); std::nullopt otherwise.
  static std::optional<CacheKey> fromHex(std::string_view hex);

  // 64 lower-case hexadecimal digits.
  const std::string& hex() const { return hex_; }

  bool operator==(const CacheKey&) const = default;

private:
  explicit CacheKey(std::string hex) : hex_(std::move(hex)) {}

  std::string hex_;
};

} // namespace pyk::jit
