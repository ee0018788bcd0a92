// ReportCommand: `pykc report FILE [--kernel K] [--sig S] [--arch sm_XX] -o page.html`: each
// selected specialization typed, emitted as CUDA C++ (and its index32 variant) and CPU C++,
// compiled to PTX and a CUBIN where NVRTC is there (SASS where cuobjdump is), into one HTML page
// (driver/ReportPage.h).
#pragma once

#include <ostream>

#include "diag/DiagnosticEngine.h"
#include "driver/CommandLine.h"
#include "jit/JitSettings.h"
#include "sema/resolve/FrontEnd.h"

namespace pyk::driver {

// Errors (typing, emission) go to `diags`; the page is written only without them.
void writeReport(const sema::ResolvedModule& resolved, const SourceFile& file,
                 const Options& options, const jit::JitSettings& settings, DiagnosticEngine& diags,
                 std::ostream& out);

} // namespace pyk::driver
