// oversized_grid_launch: seed 002's empty kernel launched with a legal grid ("Running Success!"),
// then with 2**50 blocks, which CUDA's grid limit forbids: pyk refuses it before anything runs,
// with an error naming the limit, on every backend (a GPU would answer
// CUDA_ERROR_INVALID_VALUE).
#include "example.h"

int main(int argc, char** argv) {
  return example::run(argc, argv, [](const example::Options& o) {
    pyk::Kernel gpu = pyk::load(o.examples / "oversized_grid_launch.pyk")["gpu"];
    // The seed's legal launches: 2**30 blocks (fewer on the CPU, where every block is a call).
    const std::int64_t blocks = std::int64_t{1} << (example::onGpu() ? 30 : 20);
    const double secs = example::seconds([&] { gpu[{blocks, 1}](); });
    std::cout << "Running Success! (" << blocks << " blocks of 1 thread)\n";
    example::result("legal_grid", secs, true);

    bool refused = false;
    const double refusal = example::seconds([&] {
      try {
        gpu[{std::int64_t{1} << 50, 1}]();
      } catch (const pyk::Error& e) {
        std::cout << "gpu[2**50, 1]() refused: " << e.what() << '\n';
        refused = e.kind() == pyk::ErrorKind::InvalidLaunch &&
                  std::string(e.what()).find("maxGridSize") != std::string::npos;
      }
    });
    example::result("oversized_grid_refused", refusal, refused);
  });
}
