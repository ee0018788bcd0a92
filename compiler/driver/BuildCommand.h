// BuildCommand: `pykc build` — kernels compiled ahead of time into C++ that a program compiles
// and links (CMake's pyk_add_kernels runs it; compiler/aot/ writes the files).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "driver/JitSettingsSource.h"

namespace pyk::driver {

struct BuildOptions {
  std::vector<std::string> files;
  std::vector<std::string> signatures; // `kernel(types)`
  std::vector<std::string> archs;      // compute capabilities: 80, 90 (sm_/compute_ accepted)
  std::string outDir;
  std::string fatbinary; // the toolkit's fatbinary, needed with archs
  bool cpu = true;
  std::vector<std::string> includeDirs; // --include-dir: where imported modules are looked for
  std::vector<std::string> links;       // --link: CUDA C++ linked with every kernel
};

// `pykc build` after the command word; nullopt and `error` for a malformed command line.
std::optional<BuildOptions> parseBuildCommand(const std::vector<std::string>& args,
                                              std::string& error);

// Builds every file; diagnostics to stderr. The exit status. `runtimeSettings` gives NVRTC for
// --arch.
int runBuildCommand(const BuildOptions& options, bool color,
                    const JitSettingsSource& runtimeSettings);

} // namespace pyk::driver
