// KernelRunCommand: `pykc run`, one launch of a kernel with .npy arrays and typed scalars, through
// the runtime's host API (the same path a C++ program takes).
#pragma once

#include "driver/CommandLine.h"

namespace pyk::driver {

// Returns the exit status: 0 after a run, 1 for a user error (printed as `pykc: error: ...`).
int runKernelCommand(const Options& options);

} // namespace pyk::driver
