// ReportPage: `pykc report`'s page: one self-contained HTML file (its style and script inline)
// with a section per specialization: the Python source with each line's numba types, the CUDA C++
// and CPU C++ generated for it beside the lines they came from (the `#line` directives, linked
// both ways), the CPU execution mode and why, the index32 variant's difference, PTX and SASS.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sema/typing/SpecializationPrinter.h"

namespace pyk::driver {

struct ReportSection {
  std::string description; // `saxpy(float32, float32[::1], float32[::1]) -> none`
  // The kernel's typing, then the device functions' it calls.
  std::vector<sema::TypedFunctionText> typed;
  std::string cudaTarget; // "sm_90"
  std::string cudaSource;
  std::string cudaIndex32Source; // the 32-bit index variant (empty: the same as cudaSource)
  std::string cpuSource;
  std::string cpuMode; // "loop", "split", "fiber"
  std::string cpuModeReason;
  std::string ptx; // empty: `ptxMissing` says why
  std::string ptxMissing;
  std::string ptxIndex32; // the index32 variant's PTX (with `ptx`)
  std::string sass;       // cuobjdump's SASS and resource usage; empty: `sassMissing` says why
  std::string sassMissing;
  std::string resourceUsage; // cuobjdump's `REG:26 STACK:0 SHARED:1424 LOCAL:0 ...` (with sass)
};

// A source file's lines: the file reported, or a module it imports whose functions it calls.
struct ReportSource {
  std::string name; // as the #line directives name it
  std::vector<std::string> lines;
};

struct ReportInput {
  std::vector<ReportSource> sources; // the file reported first, then the modules it imports
  std::string generator;             // "Made by pykc 0.9.0"
  std::vector<ReportSection> sections;
};

void writeReportPage(const ReportInput& input, std::ostream& out);

// A generated unit's lines, each with the source line it came from: the last `#line N "NAME"`
// before it, NAME the `file`-th of `fileNames`; `sourceLine` 0 for none or a file not listed.
// The directives themselves are dropped.
struct GeneratedLine {
  std::string text;
  unsigned file = 0;
  unsigned sourceLine = 0;
};
std::vector<GeneratedLine> mapGeneratedLines(const std::string& unit,
                                             const std::vector<std::string>& fileNames);

// The lines of `after` against `before`: ' ' kept, '-' only in before, '+' only in after.
std::vector<std::pair<char, std::string>> diffLines(const std::vector<std::string>& before,
                                                    const std::vector<std::string>& after);

} // namespace pyk::driver
