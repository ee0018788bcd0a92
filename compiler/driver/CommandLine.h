// CommandLine: the options of `pykc`, parsed from argv.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "driver/BuildCommand.h"

namespace pyk::driver {

enum class Command {
  Help,
  Version,
  Check,
  Emit,
  Report,
  Run,
  Build,
  CacheList,
  CacheClear,
  CachePrune
};
enum class ColorMode { Auto, Always, Never };

struct Options {
  Command command = Command::Help;
  std::string file;
  std::string emit;       // --emit=KIND
  std::string kernel;     // --kernel NAME
  std::string sig;        // --sig SIG
  std::string arch;       // --arch sm_XX
  std::string output;     // -o OUT
  bool index32 = false;   // --index32: the 32-bit index variant (PYK_INDEX32) of emit=ptx|cubin
  std::string printAfter; // --print-after=PASS (emit=ir): the CPU pipeline's state after PASS
  ColorMode color = ColorMode::Auto;
  // --include-dir DIR (repeatable): where imports of the user's modules are looked for after
  // FILE's directory, before PYK_PATH's
  std::vector<std::string> includeDirs;
  std::vector<std::string> links; // --link FILE.cu: linked with every kernel (numba's link=)
  // --from-log LOG (repeatable; emit's typed kinds, report): the signatures a program compiled,
  // from its PYK_SPECIALIZATION_LOG, for the functions of FILE
  std::vector<std::string> fromLogs;
  // run: FILE KERNEL --grid G --block B [--shared BYTES] [--backend B] [--out DIR] ARG...
  std::string grid, block, shared, backend, outDir;
  std::vector<std::string> runArgs; // after KERNEL (kept in `kernel`)
  BuildOptions build;               // build
  // cache prune: entries unused for this many seconds go (default 30 days), then the least
  // recently used ones above this many bytes (default: no bound)
  std::int64_t pruneUnusedSeconds = 30 * 24 * 3600;
  std::optional<std::uint64_t> pruneMaxBytes;
};

// The emit kinds this pykc implements.
inline const std::vector<std::string> kEmitKinds = {"ast", "symbols", "typed", "ir", "cuda",
                                                    "ptx", "cubin",   "cpu",   "so"};

// Parses argv; returns nullopt and sets `error` for a malformed command line.
std::optional<Options> parseCommandLine(const std::vector<std::string>& args, std::string& error);

const char* usageText();

// `X`, `X,Y` or `X,Y,Z` (`emit --block`), each 1 to 1024 with at most 1024 threads in all, into
// x, y, z (missing ones 1); false when `text` is not such a shape.
bool parseBlockShape(const std::string& text, uint32_t (&shape)[3]);

} // namespace pyk::driver
