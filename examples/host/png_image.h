// png_image: writes RGB images as PNG files (zlib's deflate inside), and colours values through
// matplotlib's viridis and inferno colour maps, so the examples' figures look like the seeds'
// imshow plots.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace example {

struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels; // row by row, 3 bytes (r, g, b) a pixel

  RgbImage(int w, int h, std::uint8_t fill = 255)
      : width(w), height(h), pixels(static_cast<std::size_t>(w) * h * 3, fill) {}
  std::uint8_t* at(int x, int y) { return &pixels[(static_cast<std::size_t>(y) * width + x) * 3]; }
  const std::uint8_t* at(int x, int y) const {
    return &pixels[(static_cast<std::size_t>(y) * width + x) * 3];
  }
};

enum class ColourMap { Viridis, Inferno };

// `values` (rows x cols, row-major, as imshow shows an array: row 0 at the top) coloured by
// `map` between vmin and vmax (values outside are clipped, as imshow clips).
RgbImage colourImage(const std::vector<float>& values, int rows, int cols, ColourMap map,
                     float vmin, float vmax);
// `image` shrunk by an integer factor (each pixel the mean of a factor x factor square).
RgbImage shrink(const RgbImage& image, int factor);
// The images side by side on white, `gap` pixels apart, aligned at the top.
RgbImage sideBySide(const std::vector<RgbImage>& images, int gap);

// Writes `image` to `path` (an 8-bit RGB PNG); throws std::runtime_error when it cannot.
void writePng(const std::filesystem::path& path, const RgbImage& image);

} // namespace example
