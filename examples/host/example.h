// example: what every example's host program shares. Where the .pyk files are and where images
// go, wall-clock timing that waits for the device, the backend's name, and the one line per
// result that scripts/run_examples.sh gathers into its table:
//
//   RESULT <what> <backend> <seconds> <yes|no>
//
// An example's main is `return example::run(argc, argv, body);`: body does the work and calls
// example::result for each thing it verifies; run turns a pyk::Error into a message and exit 1.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pyk/pyk.hpp"

namespace example {

struct Options {
  std::filesystem::path examples; // the folder of the .pyk files (argv[1], else the source tree's)
  std::filesystem::path output;   // where images go (argv[2], else ./example-output)
};

inline bool& anyFailed() {
  static bool failed = false;
  return failed;
}

inline const char* backend() {
  return pyk::backend_name(pyk::current_backend());
}

inline bool onGpu() {
  return pyk::current_backend() == pyk::Backend::Cuda;
}

// Seconds `work` takes, counting until everything it queued on the device has finished.
template <typename Work>
double seconds(Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  pyk::synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One row of the main job's table: `what` ran on the current backend in `secs`, and its result
// was (or was not) what it should be.
// `where` names what ran it when that was not the backend (a plain C++ loop: "host").
inline void result(const std::string& what, double secs, bool verified,
                   const char* where = backend()) {
  std::printf("RESULT %s %s %.6f %s\n", what.c_str(), where, secs, verified ? "yes" : "no");
  std::fflush(stdout);
  if (!verified)
    anyFailed() = true;
}

// The largest |got - want| relative to max(|want|, floor), over two equally long ranges.
template <typename Got, typename Want>
double maxRelativeError(const Got& got, const Want& want, double floor = 1.0) {
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double w = static_cast<double>(want[i]);
    worst =
        std::max(worst, std::abs(static_cast<double>(got[i]) - w) / std::max(std::abs(w), floor));
  }
  return worst;
}

inline int run(int argc, char** argv, const std::function<void(const Options&)>& body) {
  Options options;
  options.examples = argc > 1 ? argv[1] : PYK_EXAMPLES_DIR;
  options.output = argc > 2 ? argv[2] : "example-output";
  try {
    body(options);
  } catch (const std::exception& e) { // pyk::Error, or the example's own
    std::cerr << argv[0] << ": error: " << e.what() << '\n';
    return 1;
  }
  return anyFailed() ? 1 : 0;
}

} // namespace example
