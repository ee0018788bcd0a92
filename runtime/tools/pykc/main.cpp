// main: the `pykc` command. Its compile commands (check, emit, build) are the compiler's
// (compiler/driver/); `run` launches a kernel through the runtime's C++ API and `cache` looks
// after the runtime's disk cache, so the program lives here, above both: the compiler knows
// nothing of the runtime, and pykc hands it the runtime's settings (JitSettingsSource).
#include <iostream>

#include "driver/BuildCommand.h"
#include "driver/CommandLine.h"
#include "driver/CompileCommands.h"
#include "jit/NvJitLinker.h"
#include "jit/NvrtcCompiler.h"
#include "pyk/error.hpp"
#include "pyk/settings.hpp"
#include "pyk/version.hpp"
#include "pykc/CacheCommand.h"
#include "pykc/KernelRunCommand.h"

namespace {

using namespace pyk;

// The jit's part of the runtime's settings (PYK_LIBNVRTC, PYK_CXX, PYK_CACHE_DIR, ...).
jit::JitSettings runtimeJitSettings() {
  return jit::jitSettingsOf(pyk::settings());
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string error;
  std::optional<driver::Options> options = driver::parseCommandLine(args, error);
  if (!options) {
    std::cerr << "pykc: error: " << error << '\n';
    return 1;
  }
  switch (options->command) {
  case driver::Command::Help:
    std::cout << driver::usageText();
    return 0;
  case driver::Command::Run:
    return driver::runKernelCommand(*options);
  case driver::Command::Build:
    try {
      return driver::runBuildCommand(options->build, driver::useColor(options->color),
                                     runtimeJitSettings);
    } catch (const std::exception& e) {
      std::cerr << "pykc: error: " << e.what() << '\n';
      return 1;
    }
  case driver::Command::CacheList:
  case driver::Command::CacheClear:
  case driver::Command::CachePrune:
    try {
      return driver::runCacheCommand(*options);
    } catch (const pyk::Error& e) {
      std::cerr << "pykc: error: " << e.what() << '\n';
      return 1;
    }
  case driver::Command::Version:
    try {
      const std::string nvrtc = jit::nvrtcVersion(jit::Nvrtc::load(pyk::settings().libnvrtc));
      const jit::NvJitLinker* linker = jit::NvJitLinker::load(pyk::settings().libnvjitlink);
      std::cout << "pykc " << kVersion.major << '.' << kVersion.minor << '.' << kVersion.patch
                << " (Python 3.11 syntax, numba.cuda kernel language; NVRTC " << nvrtc
                << ", nvJitLink " << (linker != nullptr ? linker->version() : "none") << ")\n";
      return 0;
    } catch (const pyk::Error& e) {
      std::cerr << "pykc: error: " << e.what() << '\n';
      return 1;
    }
  default:
    try {
      return driver::runCompileCommand(*options, runtimeJitSettings);
    } catch (const std::exception& e) {
      std::cerr << "pykc: internal compiler error: " << e.what() << '\n';
      return 70;
    }
  }
}
