// Sha256: the SHA-256 hash of FIPS 180-4, fed incrementally, for compile-cache keys and checksums.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace pyk::jit {

class Sha256 {
public:
  using Digest = std::array<std::uint8_t, 32>;

  Sha256();

  // Feeds more bytes; any split of the message into updates gives the same digest.
  Sha256& update(std::span<const std::byte> bytes);
  Sha256& update(std::string_view text);

  // The digest of everything fed so far. The hash cannot be fed again afterwards.
  Digest finish();

  // The digest of one message.
  static Digest of(std::string_view text);

private:
  void compressBlock(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> pending_{}; // bytes of the block not yet compressed
  std::size_t pendingSize_ = 0;
  std::uint64_t totalBytes_ = 0;
};

// Lower-case hexadecimal, two digits per byte.
std::string toHex(std::span<const std::uint8_t> bytes);

} // namespace pyk::jit
