// diffusion: seed 001's 2-D diffusion on its 2000 x 2000 jagged image, 10,000 steps on a GPU
// (1,000 on the CPU backend; PYK_DIFFUSION_STEPS sets another count). Each step is one launch of
// the shared-memory kernel, reading one field and writing the next (the seed updates the field
// in place, which races between blocks). Checked three ways: the first steps against the same
// arithmetic in double precision on the host; the total, which a zero-flux boundary conserves;
// and the maximum principle (an average of neighbours never leaves the original range). Writes
// the seed's figure: diffusion_original.png, diffusion_result.png, diffusion_laplacian.png and
// the three side by side, titled as the seed's, in diffusion_figure.png.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "bitmap_font.h"
#include "example.h"
#include "jagged_field.h"
#include "png_image.h"

namespace {

constexpr int kSize = 2000, kTpb = 8;

// One step of the kernel's arithmetic in double precision (a missing neighbour is the cell).
std::vector<double> referenceStep(const std::vector<double>& field) {
  std::vector<double> next(field.size());
  auto at = [&](int x, int y) {
    return field[static_cast<std::size_t>(std::clamp(x, 0, kSize - 1)) * kSize +
                 std::clamp(y, 0, kSize - 1)];
  };
  for (int x = 0; x < kSize; ++x)
    for (int y = 0; y < kSize; ++y) {
      const double lapl = 4 * at(x, y) - at(x - 1, y) - at(x + 1, y) - at(x, y - 1) - at(x, y + 1);
      next[static_cast<std::size_t>(x) * kSize + y] = at(x, y) - lapl * 0.25;
    }
  return next;
}

// The panels side by side with a title centred above each, as matplotlib's subplots show them.
example::RgbImage titledPanels(const std::vector<example::RgbImage>& panels,
                               const std::vector<std::string>& titles) {
  const int gap = 20, scale = 2, band = example::kTextHeight * scale + gap / 2;
  const example::RgbImage row = example::sideBySide(panels, gap);
  example::RgbImage figure(row.width, row.height + band);
  std::copy(row.pixels.begin(), row.pixels.end(), figure.at(0, band));
  int left = gap;
  for (size_t i = 0; i < panels.size(); ++i) {
    const int x = left + (panels[i].width - example::textWidth(titles[i], scale)) / 2;
    example::drawText(figure, x, gap / 2 + gap / 4, titles[i], scale);
    left += panels[i].width + gap;
  }
  return figure;
}

float percentile(std::vector<float> values, double q) {
  const std::size_t rank = static_cast<std::size_t>(q / 100 * (values.size() - 1));
  std::nth_element(values.begin(), values.begin() + rank, values.end());
  return values[rank];
}

} // namespace

int main(int argc, char** argv) {
  return example::run(argc, argv, [](const example::Options& o) {
    const char* stepsText = std::getenv("PYK_DIFFUSION_STEPS");
    const int steps = stepsText != nullptr ? std::atoi(stepsText) : example::onGpu() ? 10000 : 1000;
    const int checkedSteps = std::min(steps, 5);

    std::vector<float> original;
    const double making =
        example::seconds([&] { original = example::jaggedField(kSize, kSize, 3966789); });
    std::printf("the jagged image: %d x %d, made in %.2f s\n", kSize, kSize, making);

    pyk::Kernel diffusion = pyk::load(o.examples / "diffusion.pyk")["diffusion"];
    auto field = pyk::to_device<float, 2>(original, {kSize, kSize});
    auto next = pyk::device_array_like(field);
    auto lapl = pyk::device_array_like(field);
    const pyk::Dim3 blocks((kSize + kTpb - 1) / kTpb, (kSize + kTpb - 1) / kTpb);
    const pyk::Dim3 threads(kTpb, kTpb);
    auto step = [&] {
      diffusion[{blocks, threads}](field, lapl, next);
      std::swap(field, next);
    };

    // The first steps (the first launch compiles), checked against double precision.
    for (int s = 0; s < checkedSteps; ++s)
      step();
    std::vector<double> expected(original.begin(), original.end());
    for (int s = 0; s < checkedSteps; ++s)
      expected = referenceStep(expected);
    const float top = *std::max_element(original.begin(), original.end());
    const float bottom = *std::min_element(original.begin(), original.end());
    const double firstStepsError =
        example::maxRelativeError(field.copy_to_host(), expected, std::max(1e-30f, top));

    // The rest, timed.
    const double secs = example::seconds([&] {
      for (int s = checkedSteps; s < steps; ++s)
        step();
    });
    const std::vector<float> result = field.copy_to_host();
    const std::vector<float> laplacian = lapl.copy_to_host();

    const double before = std::accumulate(original.begin(), original.end(), 0.0);
    const double after = std::accumulate(result.begin(), result.end(), 0.0);
    const double drift = std::abs(after - before) / std::max(1e-30, std::abs(before));
    const auto [low, high] = std::minmax_element(result.begin(), result.end());
    const float slack = 1e-5f * top;
    const bool inRange = *low >= bottom - slack && *high <= top + slack;
    const int timed = steps - checkedSteps;
    std::printf("%d steps in %.3f s (%.1f us per step); first %d steps within %.1e of double "
                "precision; total drifted %.1e; range [%g, %g] within [%g, %g]: %s\n",
                timed, secs, timed > 0 ? secs / timed * 1e6 : 0.0, checkedSteps, firstStepsError,
                drift, *low, *high, bottom, top, inRange ? "yes" : "no");

    // The seed's figure: imshow's default colours (viridis over each image's own range) and the
    // Laplacian in inferno between its 5th and 95th percentiles.
    using example::ColourMap;
    const example::RgbImage originalImage =
        example::colourImage(original, kSize, kSize, ColourMap::Viridis, bottom, top);
    const example::RgbImage resultImage =
        example::colourImage(result, kSize, kSize, ColourMap::Viridis, *low, *high);
    const example::RgbImage laplacianImage =
        example::colourImage(laplacian, kSize, kSize, ColourMap::Inferno, percentile(laplacian, 5),
                             percentile(laplacian, 95));
    example::writePng(o.output / "diffusion_original.png", originalImage);
    example::writePng(o.output / "diffusion_result.png", resultImage);
    example::writePng(o.output / "diffusion_laplacian.png", laplacianImage);
    example::writePng(
        o.output / "diffusion_figure.png",
        titledPanels({example::shrink(originalImage, 5), example::shrink(resultImage, 5),
                      example::shrink(laplacianImage, 5)},
                     {"Original image", std::to_string(steps) + " iterations", "Laplacian"}));
    std::printf("images: %s/diffusion_{original,result,laplacian,figure}.png\n", o.output.c_str());
    example::result("diffusion_2000x2000_" + std::to_string(timed) + "_steps", secs,
                    firstStepsError < 1e-5 && drift < 1e-3 && inRange);
  });
}
