// jagged_field: the starting image of seed 001's diffusion, made as the seed makes it with numpy:
// uniform noise, Fourier-transformed, its spectrum scaled by radius**-1.7 (radius: 1 + the
// distance from the zero frequency), transformed back, cut to a disc of radius 0.45 * rows, and
// kept only where it is above its 70th percentile (zero elsewhere): bright, jagged islands.
#pragma once

#include <cstdint>
#include <vector>

namespace example {

// A rows x cols float32 field, row-major, from a mt19937_64 seeded with `seed`.
std::vector<float> jaggedField(int rows, int cols, std::uint64_t seed);

} // namespace example
