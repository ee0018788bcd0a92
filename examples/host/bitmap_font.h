// bitmap_font: a small 5 x 9 pixel font for the titles of the examples' figures (the digits, the
// lowercase letters a c e g i l m n o p r s t, the capitals L O, and the space: what the titles
// use).
#pragma once

#include <string_view>

#include "png_image.h"

namespace example {

// Draws `text` in black with its top-left corner at (x, y), each font pixel `scale` pixels wide.
// Throws std::invalid_argument for a character the font lacks.
void drawText(RgbImage& image, int x, int y, std::string_view text, int scale);
// The width `text` takes at `scale` (6 font pixels a character, one of them the gap).
int textWidth(std::string_view text, int scale);
constexpr int kTextHeight = 9; // font pixels, descenders included

} // namespace example
