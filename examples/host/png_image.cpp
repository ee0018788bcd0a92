// png_image: see png_image.h. A PNG is the signature, then chunks (length, type, data, CRC-32):
// IHDR (size, 8-bit RGB), IDAT (the rows, each after a filter byte 0, deflated by zlib), IEND.
// zlib is optional (PYK_EXAMPLES_HAVE_ZLIB): without it the rows go into the zlib stream as stored
// (uncompressed) deflate blocks, a valid PNG three times larger.
#include "png_image.h"

#ifdef PYK_EXAMPLES_HAVE_ZLIB
#include <zlib.h>
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

namespace example {

namespace {

using Rgb = std::array<float, 3>;

// Samples of matplotlib's colour maps at 0, 0.1, ..., 1 (viridis and inferno are perceptually
// uniform, so linear interpolation between eleven samples is indistinguishable by eye).
constexpr std::array<std::uint32_t, 11> kViridis = {0x440154, 0x482475, 0x414487, 0x355f8d,
                                                    0x2a788e, 0x21918c, 0x22a884, 0x44bf70,
                                                    0x7ad151, 0xbddf26, 0xfde725};
constexpr std::array<std::uint32_t, 11> kInferno = {0x000004, 0x160b39, 0x420a68, 0x6a176e,
                                                    0x932667, 0xbc3754, 0xdd513a, 0xf37819,
                                                    0xfca50a, 0xf6d746, 0xfcffa4};

Rgb channels(std::uint32_t hex) {
  return {float((hex >> 16) & 0xff), float((hex >> 8) & 0xff), float(hex & 0xff)};
}

void colour(ColourMap map, float t, std::uint8_t* out) {
  const auto& samples = map == ColourMap::Viridis ? kViridis : kInferno;
  t = std::isnan(t) ? 0.0f : std::clamp(t, 0.0f, 1.0f) * 10.0f;
  const int i = std::min(static_cast<int>(t), 9);
  const float f = t - static_cast<float>(i);
  const Rgb a = channels(samples[i]), b = channels(samples[i + 1]);
  for (int c = 0; c < 3; ++c)
    out[c] = static_cast<std::uint8_t>(std::lround(a[c] + (b[c] - a[c]) * f));
}

void putU32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out += static_cast<char>((v >> shift) & 0xff);
}

// CRC-32 (the PNG chunk checksum): zlib's, or computed bit by bit without it.
std::uint32_t crcOf(const std::string& bytes) {
#ifdef PYK_EXAMPLES_HAVE_ZLIB
  return static_cast<std::uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
#else
  std::uint32_t crc = 0xffffffffu;
  for (unsigned char c : bytes) {
    crc ^= c;
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
#endif
}

void putChunk(std::string& out, const char type[4], const std::string& data) {
  putU32(out, static_cast<std::uint32_t>(data.size()));
  const std::string typed = std::string(type, 4) + data;
  out += typed;
  putU32(out, crcOf(typed));
}

} // namespace

RgbImage colourImage(const std::vector<float>& values, int rows, int cols, ColourMap map,
                     float vmin, float vmax) {
  RgbImage image(cols, rows);
  const float scale = vmax > vmin ? 1.0f / (vmax - vmin) : 0.0f;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x)
      colour(map, (values[static_cast<std::size_t>(y) * cols + x] - vmin) * scale, image.at(x, y));
  return image;
}

RgbImage shrink(const RgbImage& image, int factor) {
  RgbImage out(image.width / factor, image.height / factor);
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x)
      for (int c = 0; c < 3; ++c) {
        int sum = 0;
        for (int dy = 0; dy < factor; ++dy)
          for (int dx = 0; dx < factor; ++dx)
            sum += image.at(x * factor + dx, y * factor + dy)[c];
        out.at(x, y)[c] = static_cast<std::uint8_t>(sum / (factor * factor));
      }
  return out;
}

RgbImage sideBySide(const std::vector<RgbImage>& images, int gap) {
  int width = gap, height = 0;
  for (const RgbImage& image : images) {
    width += image.width + gap;
    height = std::max(height, image.height);
  }
  RgbImage out(width, height + 2 * gap);
  int left = gap;
  for (const RgbImage& image : images) {
    for (int y = 0; y < image.height; ++y)
      std::copy_n(&image.pixels[static_cast<std::size_t>(y) * image.width * 3], image.width * 3,
                  out.at(left, y + gap));
    left += image.width + gap;
  }
  return out;
}

namespace {

// The zlib stream (RFC 1950) of `raw`: deflated by zlib when the example has it, else stored.
std::string zlibStream(const std::string& raw, const std::filesystem::path& path) {
#ifdef PYK_EXAMPLES_HAVE_ZLIB
  uLongf deflatedSize = compressBound(raw.size());
  std::string deflated(deflatedSize, '\0');
  if (compress2(reinterpret_cast<Bytef*>(deflated.data()), &deflatedSize,
                reinterpret_cast<const Bytef*>(raw.data()), raw.size(), 6) != Z_OK)
    throw std::runtime_error(path.string() + ": zlib could not compress the image");
  deflated.resize(deflatedSize);
  return deflated;
#else
  (void)path;
  std::string out = "\x78\x01"; // deflate, 32 KiB window, no dictionary
  std::size_t at = 0;
  do {
    const std::size_t n = std::min<std::size_t>(raw.size() - at, 65535);
    out += static_cast<char>(at + n == raw.size() ? 1 : 0); // BFINAL, BTYPE 00 (stored)
    const auto len = static_cast<std::uint16_t>(n);
    const auto nlen = static_cast<std::uint16_t>(~len);
    out += {static_cast<char>(len & 0xff), static_cast<char>(len >> 8),
            static_cast<char>(nlen & 0xff), static_cast<char>(nlen >> 8)};
    out.append(raw, at, n);
    at += n;
  } while (at < raw.size());
  std::uint32_t a = 1, b = 0; // Adler-32 of the uncompressed bytes
  for (unsigned char c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  putU32(out, (b << 16) | a);
  return out;
#endif
}

} // namespace

void writePng(const std::filesystem::path& path, const RgbImage& image) {
  // The rows, each preceded by filter type 0 (none).
  std::string raw;
  raw.reserve(static_cast<std::size_t>(image.height) * (image.width * 3 + 1));
  for (int y = 0; y < image.height; ++y) {
    raw += '\0';
    raw.append(
        reinterpret_cast<const char*>(&image.pixels[static_cast<std::size_t>(y) * image.width * 3]),
        static_cast<std::size_t>(image.width) * 3);
  }
  const std::string deflated = zlibStream(raw, path);

  std::string png = "\x89PNG\r\n\x1a\n";
  std::string header;
  putU32(header, static_cast<std::uint32_t>(image.width));
  putU32(header, static_cast<std::uint32_t>(image.height));
  header += std::string("\x08\x02\x00\x00\x00", 5); // 8 bits, RGB, deflate, no filter, no interlace
  putChunk(png, "IHDR", header);
  putChunk(png, "IDAT", deflated);
  putChunk(png, "IEND", "");

  std::filesystem::create_directories(path.parent_path().empty() ? "." : path.parent_path());
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(png.data(), static_cast<std::streamsize>(png.size()));
  if (!file.flush())
    throw std::runtime_error(path.string() + ": cannot write the image");
}

} // namespace example
