// CacheEntry: the file format of one disk-cache entry: a fixed header (magic, format version, the
// full key, the payload's size and SHA-256) followed by the payload.
#include "jit/CacheEntry.h"

#include <cstring>

#include "jit/Sha256.h"

namespace pyk::jit {

namespace {

constexpr std::string_view kMagic = "PYKCACHE";
constexpr std::size_t kVersionOffset = 8;
constexpr std::size_t kKeyOffset = 12;
constexpr std::size_t kSizeOffset = kKeyOffset + 64;
constexpr std::size_t kChecksumOffset = kSizeOffset + 8;
constexpr std::size_t kLabelSizeOffset = kChecksumOffset + 32;

void appendLittleEndian(std::vector<std::byte>& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xff));
}

std::uint64_t loadLittleEndian(std::span<const std::byte> bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = bytes.size(); i-- > 0;)
    value = (value << 8) | std::to_integer<std::uint64_t>(bytes[i]);
  return value;
}

void appendText(std::vector<std::byte>& out, std::string_view text) {
  for (char c : text)
    out.push_back(static_cast<std::byte>(c));
}

bool equalsText(std::span<const std::byte> bytes, std::string_view text) {
  return bytes.size() == text.size() && std::memcmp(bytes.data(), text.data(), text.size()) == 0;
}

} // namespace

std::vector<std::byte> formatEntryHeader(const CacheKey& key, std::string_view payload,
                                         std::string_view label) {
  label = label.substr(0, kMaxLabelSize);
  std::vector<std::byte> header;
  header.reserve(kEntryHeaderSize + label.size());
  appendText(header, kMagic);
  appendLittleEndian(header, kEntryFormatVersion, 4);
  appendText(header, key.hex());
  appendLittleEndian(header, payload.size(), 8);
  Sha256::Digest checksum = Sha256::of(payload);
  for (std::uint8_t byte : checksum)
    header.push_back(static_cast<std::byte>(byte));
  appendLittleEndian(header, label.size(), 2);
  appendText(header, label);
  return header;
}

std::string labelOfEntry(std::span<const std::byte> start) {
  if (start.size() < kEntryHeaderSize || !equalsText(start.first(kMagic.size()), kMagic) ||
      loadLittleEndian(start.subspan(kVersionOffset, 4)) != kEntryFormatVersion)
    return "";
  const std::size_t size = loadLittleEndian(start.subspan(kLabelSizeOffset, 2));
  if (size > kMaxLabelSize || start.size() < kEntryHeaderSize + size)
    return "";
  return std::string(reinterpret_cast<const char*>(start.data()) + kEntryHeaderSize, size);
}

std::optional<std::string> payloadOfEntry(std::span<const std::byte> entry, const CacheKey& key) {
  if (entry.size() < kEntryHeaderSize || !equalsText(entry.first(kMagic.size()), kMagic) ||
      loadLittleEndian(entry.subspan(kVersionOffset, 4)) != kEntryFormatVersion ||
      !equalsText(entry.subspan(kKeyOffset, 64), key.hex()) ||
      loadLittleEndian(entry.subspan(kLabelSizeOffset, 2)) > kMaxLabelSize)
    return std::nullopt;
  const std::size_t labelSize = loadLittleEndian(entry.subspan(kLabelSizeOffset, 2));
  if (entry.size() < kEntryHeaderSize + labelSize ||
      loadLittleEndian(entry.subspan(kSizeOffset, 8)) !=
          entry.size() - kEntryHeaderSize - labelSize)
    return std::nullopt;
  std::span<const std::byte> payloadBytes = entry.subspan(kEntryHeaderSize + labelSize);
  std::string payload(reinterpret_cast<const char*>(payloadBytes.data()), payloadBytes.size());
  Sha256::Digest checksum = Sha256::of(payload);
  if (std::memcmp(checksum.data(), entry.data() + kChecksumOffset, checksum.size()) != 0)
    return std::nullopt;
  return payload;
}

} // namespace pyk::jit
