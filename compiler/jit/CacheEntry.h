// CacheEntry: the file format of one disk-cache entry: a fixed header (magic, format version, the
// full key, the payload's size and SHA-256, the label's size), the label (what the entry is, for
// `pykc cache list`: never trusted for a lookup), then the payload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jit/CacheKey.h"

namespace pyk::jit {

// Header layout, integers little-endian: "PYKCACHE" (8 bytes), format version (4), key in hex
// (64), payload size (8), payload SHA-256 (32), label size (2); then the label.
inline constexpr std::size_t kEntryHeaderSize = 8 + 4 + 64 + 8 + 32 + 2;
inline constexpr std::uint32_t kEntryFormatVersion = 2;
inline constexpr std::size_t kMaxLabelSize = 1024; // a longer label is cut

// The header (label included) to write before `payload` in the entry for `key`.
std::vector<std::byte> formatEntryHeader(const CacheKey& key, std::string_view payload,
                                         std::string_view label = {});

// The label of an entry from its first bytes (at least kEntryHeaderSize + kMaxLabelSize, or the
// whole file); empty when it is not an entry of this format.
std::string labelOfEntry(std::span<const std::byte> start);

// The payload of a whole entry file, if it is a well-formed entry of this format for `key`: right
// magic, version and key, a size matching the file's, a matching checksum. std::nullopt otherwise.
std::optional<std::string> payloadOfEntry(std::span<const std::byte> entry, const CacheKey& key);

} // namespace pyk::jit
