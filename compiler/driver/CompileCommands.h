// CompileCommands: `pykc check` and `pykc emit`, which compile without running anything; every
// stage of the compiler printed on demand (--emit=ast|symbols|typed|ir|cuda|cpu|ptx|cubin|so).
#pragma once

#include "driver/CommandLine.h"
#include "driver/JitSettingsSource.h"

namespace pyk::driver {

// Whether diagnostics are coloured: --color, else when stderr is a terminal and NO_COLOR is unset.
bool useColor(ColorMode mode);

// `check` or `emit` with `options`: diagnostics to stderr, the emitted text to stdout or -o. The
// exit status: 0, or 1 after an error.
int runCompileCommand(const Options& options, const JitSettingsSource& runtimeSettings);

} // namespace pyk::driver
