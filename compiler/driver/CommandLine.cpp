// CommandLine: the options of `pykc`, parsed from argv.
#include "driver/CommandLine.h"

#include "codegen/cpu/CpuPipeline.h"

#include <algorithm>

namespace pyk::driver {

const char* usageText() {
  return R"(usage: pykc <command> [options]

Compiles numba.cuda kernels written in Python (.pyk files).

commands:
  check FILE [--kernel NAME [--sig SIG]]
                             report every error in FILE (every function is checked; those with
                             signatures are typed for them, as numba compiles them eagerly);
                             with --kernel, type that function for its signatures or for --sig;
                             print nothing when it is clean
  emit FILE --emit=KIND      print an intermediate form of FILE:
                               ast      the syntax tree, with source ranges
                               symbols  imports, folded module constants and the kernels,
                                        device functions and ufuncs found, with signatures
                               typed    each function typed for its signature (or --sig),
                                        every expression with numba's type
                               ir       the typed IR each of them is lowered to (and the
                                        device functions it calls), verified
                               cuda     the CUDA C++ pykc generates for each function
                               ptx      that, compiled by NVRTC (--arch, default sm_90)
                               cubin    the same as a CUBIN (needs -o FILE)
                               cpu      the C++ the CPU backend compiles for each function,
                                        with how it runs the block's threads and why
                               so       that, compiled by the host C++ compiler into the
                                        shared object a CPU launch loads (needs -o FILE),
                                        through the disk cache as the runtime compiles it
  report FILE [--kernel NAME] [--sig SIG | --from-log LOG] [--arch sm_XX] -o PAGE.html
                             write one HTML page (style and script inline): for each
                             specialization, the Python source with each line's numba types,
                             the CUDA C++ and CPU C++ beside the lines they came from (linked
                             both ways), the CPU backend's mode and why, the index32
                             variant's difference, PTX (NVRTC) and SASS with registers
                             (cuobjdump), each where its tool is installed
  run FILE KERNEL --grid G --block B [--shared BYTES] [--backend cpu|cuda] [--out DIR] ARG...
                             launch KERNEL once: G and B are N, X,Y or X,Y,Z; --shared is the
                             dynamic shared memory in bytes; each ARG is
                               x.npy            an array, read from the file (Fortran
                                                order kept: numba's layout F)
                               record:x.npy     one record (a np.void): the only item of a
                                                .npy of a structured dtype, by reference
                               pointer:x.npy    a CPointer to the array's items (numba's
                                                ffi.from_buffer), written back as x.npy is
                               TYPE:VALUE       a scalar: float32:0.25, int64:-7, uint32:3,
                                                bool:true, complex128:1.5,-2,
                                                datetime64[D]:12800 (a count of the
                                                unit since 1970), timedelta64[h]:NaT
                               @I               the array or record of argument I again
                                                (the same memory, as one device array
                                                passed twice)
                               (ARG, ...)       a tuple: `()` empty, `(ARG,)` one element;
                                                inside one a file name ends at `,` or `)`
                               NAME(F=ARG, ...) a named tuple of class NAME, fields F
                               enum:CLASS.M     member M of the file's Enum or IntEnum
                                                class CLASS (`enum:Color.red`)
                             after the run each array or record argument i is written to
                             DIR/arg<i>.npy (element j of tuple argument i to arg<i>_<j>.npy);
                             without --out, a warning says they are not saved
  build FILE... --out-dir DIR [--signature 'KERNEL(TYPE, ...)']... [--arch CC]...
        [--fatbinary PATH] [--no-cpu]
                             compile kernels ahead of time, into C++ a program builds with
                             (CMake: pyk_add_kernels): for each FILE, DIR/STEM.hpp (namespace
                             STEM, a typed launch function per signature), DIR/STEM.cpp (the
                             module: source, fatbins, CPU entry points), DIR/STEM_cpu.cpp (the
                             CPU backend's code) and DIR/pyk_cpu_support.h. Each --signature
                             goes to the file defining KERNEL, e.g. 'saxpy(float32,
                             float32[::1], float32[::1])'; kernels' declared signatures are
                             built too. --arch 80 --arch 90: a CUBIN each and PTX of the last,
                             packed by the CUDA toolkit's fatbinary; --no-cpu: CUDA only
  cache list                 the compiled kernels in the disk cache ($PYK_CACHE_DIR, else
                             $XDG_CACHE_HOME/pyk, else ~/.cache/pyk), least recently used
                             first: last use, size, target, kernel and signature, source file
  cache prune [--unused-for DURATION] [--max-bytes N]
                             remove the entries unused for DURATION (30d, 12h, 90m, 3600s;
                             default 30d), then the least recently used above N bytes
  cache clear                remove them all
  --help                     show this help
  --version                  show pykc's version

options:
  --kernel NAME              (emit, report) only this function (a top-level def)
  --sig SIG                  (emit, report) a numba signature, e.g. 'void(float32[::1], int64)'
  --from-log LOG             (emit, report; repeatable) also each signature a program
                             compiled FILE's functions for, from the file its
                             PYK_SPECIALIZATION_LOG named (a lazily compiled kernel has no
                             other); the functions it does not list are left out
  --arch sm_XX               (emit=ptx|cubin, report) target architecture, default sm_90
  --index32                  (emit=ptx|cubin) the variant the runtime launches when every array
                             has under 2**31 elements and each grid axis under 2**31 threads:
                             thread indices and sizes computed in 32 bits (PYK_INDEX32)
  --print-after PASS         (emit=ir) also run the CPU backend's pipeline on each kernel and
                             print what it has concluded after PASS: ThreadModelScan,
                             ExecutionModeDecision, UniformityAnalysis, BarrierRegions,
                             Rematerialization, RegionDistribution, UniformHoisting,
                             LocalPlacement, RegionNarrowing (with --block: for that shape)
  --block X[,Y[,Z]]          (emit=cpu) the block shape a split-mode kernel is compiled for,
                             as the runtime does at each launch (default: any shape)
  -o FILE                    (emit) write the output to FILE instead of standard output;
                             (report) the page
  --include-dir DIR          (check, emit, report, run, build; repeatable) where `import
                             helpers` and `from helpers import f` look for helpers.pyk or
                             helpers.py after FILE's directory, before the directories of
                             PYK_PATH (`:`-separated)
  --link FILE.cu             (check, emit, report, run, build; repeatable) CUDA C++ compiled
                             and linked with every kernel, as numba's link=: what
                             cuda.declare_device declares (on the CPU backend compiled as C++,
                             without CUDA's built-ins)
  --color=auto|always|never  colour diagnostics (auto: only on a terminal)

exit status: 0 on success, 1 when the input or the command line has an error.
)";
}

bool parseBlockShape(const std::string& text, uint32_t (&shape)[3]) {
  uint32_t parts[3] = {1, 1, 1};
  size_t count = 0, start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string piece =
        text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (count == 3 || piece.empty() || piece.size() > 4 ||
        !std::all_of(piece.begin(), piece.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return false;
    parts[count++] = static_cast<uint32_t>(std::stoul(piece));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  const uint64_t threads = uint64_t{parts[0]} * parts[1] * parts[2];
  if (parts[0] == 0 || parts[1] == 0 || parts[2] == 0 || parts[2] > 64 || threads > 1024)
    return false;
  std::copy(parts, parts + 3, shape);
  return true;
}

namespace {

// `NAME VALUE` or `NAME=VALUE` at args[i] (i moves past VALUE): true with VALUE added to
// `values`; false for another argument; nullopt with `error` set when VALUE is missing.
std::optional<bool> takeRepeatedOption(const std::vector<std::string>& args, size_t& i,
                                       const std::string& name, const char* what,
                                       std::vector<std::string>& values, std::string& error) {
  const std::string& arg = args[i];
  if (arg == name) {
    if (i + 1 >= args.size() || args[i + 1].empty()) {
      error = "option `" + name + "` needs " + what;
      return std::nullopt;
    }
    values.push_back(args[++i]);
    return true;
  }
  if (arg.rfind(name + "=", 0) == 0) {
    if (arg.size() == name.size() + 1) {
      error = "option `" + name + "` needs " + what;
      return std::nullopt;
    }
    values.push_back(arg.substr(name.size() + 1));
    return true;
  }
  return false;
}

// `--include-dir DIR` and `--link FILE.cu`, each as often as given.
std::optional<bool> takeIncludeDir(const std::vector<std::string>& args, size_t& i,
                                   Options& options, std::string& error) {
  std::optional<bool> r =
      takeRepeatedOption(args, i, "--include-dir", "a directory", options.includeDirs, error);
  if (!r || *r)
    return r;
  return takeRepeatedOption(args, i, "--link", "a CUDA C++ file (.cu)", options.links, error);
}

// `pykc run FILE KERNEL --grid G --block B [--shared BYTES] [--backend cpu|cuda] [--out DIR]
// ARG...`: options anywhere; the first two other words are FILE and KERNEL, the rest ARGs (a
// negative scalar such as `int64:-3` is an ARG, not an option).
std::optional<Options> parseRunCommand(const std::vector<std::string>& args, std::string& error) {
  Options options;
  options.command = Command::Run;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    bool matched = false;
    for (auto [name, target] : {std::pair<const char*, std::string*>{"--grid", &options.grid},
                                {"--block", &options.block},
                                {"--shared", &options.shared},
                                {"--backend", &options.backend},
                                {"--out", &options.outDir}}) {
      const std::string n = name;
      if (arg == n) {
        if (i + 1 >= args.size()) {
          error = "option `" + n + "` needs a value";
          return std::nullopt;
        }
        *target = args[++i];
        matched = true;
      } else if (arg.rfind(n + "=", 0) == 0) {
        *target = arg.substr(n.size() + 1);
        matched = true;
      }
      if (matched)
        break;
    }
    if (std::optional<bool> r = takeIncludeDir(args, i, options, error); !r)
      return std::nullopt;
    else if (*r)
      continue;
    if (matched && arg.rfind("--out", 0) == 0 && options.outDir.empty()) {
      error = "`--out` needs a folder to write the arrays to, not an empty name";
      return std::nullopt;
    }
    if (matched)
      continue;
    if (arg == "--help" || arg == "-h") {
      options.command = Command::Help;
      return options;
    }
    if (arg.size() > 1 && arg[0] == '-' && arg[1] == '-') {
      error = "unknown option `" + arg + "` for `pykc run`";
      return std::nullopt;
    }
    if (options.file.empty())
      options.file = arg;
    else if (options.kernel.empty())
      options.kernel = arg;
    else
      options.runArgs.push_back(arg);
  }
  if (options.file.empty() || options.kernel.empty()) {
    error = "`pykc run` needs a file and a kernel: pykc run FILE KERNEL --grid G --block B ARG...";
    return std::nullopt;
  }
  if (options.grid.empty() || options.block.empty()) {
    error = "`pykc run` needs `--grid` and `--block` (N, X,Y or X,Y,Z)";
    return std::nullopt;
  }
  if (!options.backend.empty() && options.backend != "cpu" && options.backend != "cuda" &&
      options.backend != "auto") {
    error = "`--backend` takes cpu, cuda or auto, not `" + options.backend + "`";
    return std::nullopt;
  }
  return options;
}

} // namespace

namespace {

// `30d`, `12h`, `90m`, `3600s` (a bare number is days) as seconds; nullopt when malformed.
std::optional<std::int64_t> parseDuration(const std::string& text) {
  std::string digits = text;
  std::int64_t unit = 24 * 3600;
  if (!digits.empty() && std::string("smhd").find(digits.back()) != std::string::npos) {
    const char suffix = digits.back();
    unit = suffix == 's' ? 1 : suffix == 'm' ? 60 : suffix == 'h' ? 3600 : 24 * 3600;
    digits.pop_back();
  }
  if (digits.empty() || digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoll(digits) * unit;
}

std::optional<Options> parseCacheCommand(const std::vector<std::string>& args, std::string& error) {
  Options options;
  const std::string what = args.size() >= 2 ? args[1] : "";
  if (what != "list" && what != "clear" && what != "prune") {
    error = "`pykc cache` takes `list`, `prune` or `clear`";
    return std::nullopt;
  }
  options.command = what == "list"    ? Command::CacheList
                    : what == "clear" ? Command::CacheClear
                                      : Command::CachePrune;
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool olderThan = arg == "--unused-for", max_bytes = arg == "--max-bytes";
    if (options.command != Command::CachePrune || (!olderThan && !max_bytes)) {
      error = "unknown argument `" + arg + "` for `pykc cache " + what + "`" +
              (options.command == Command::CachePrune
                   ? " (it takes --unused-for DURATION and --max-bytes N)"
                   : "");
      return std::nullopt;
    }
    if (i + 1 >= args.size()) {
      error = "option `" + arg + "` needs a value";
      return std::nullopt;
    }
    const std::string& value = args[++i];
    if (olderThan) {
      std::optional<std::int64_t> seconds = parseDuration(value);
      if (!seconds) {
        error =
            "`--unused-for` takes a duration such as 30d, 12h, 90m or 3600s, not `" + value + "`";
        return std::nullopt;
      }
      options.pruneUnusedSeconds = *seconds;
    } else {
      if (value.empty() || value.size() > 19 ||
          !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        error = "`--max-bytes` takes a byte count, not `" + value + "`";
        return std::nullopt;
      }
      options.pruneMaxBytes = std::stoull(value);
    }
  }
  return options;
}

// `--arch`: empty, or sm_XX / compute_XX (a trailing `a` or `f` allowed).
bool archIsValid(const std::string& a, std::string& error) {
  if (a.empty())
    return true;
  size_t digits = a.rfind("sm_", 0) == 0 ? 3 : a.rfind("compute_", 0) == 0 ? 8 : 0;
  bool ok = digits != 0 && a.size() > digits;
  for (size_t i = digits; ok && i < a.size(); ++i)
    ok = (a[i] >= '0' && a[i] <= '9') || (i + 1 == a.size() && (a[i] == 'a' || a[i] == 'f'));
  if (!ok)
    error = "`--arch` takes a GPU architecture such as sm_90 or compute_90, not `" + a + "`";
  return ok;
}

} // namespace

std::optional<Options> parseCommandLine(const std::vector<std::string>& args, std::string& error) {
  Options options;
  if (args.empty()) {
    error = "no command given (try `pykc --help`)";
    return std::nullopt;
  }
  size_t i = 0;
  const std::string& first = args[0];
  if (first == "--help" || first == "-h" || first == "help") {
    options.command = Command::Help;
    return options;
  }
  if (first == "--version" || first == "version") {
    options.command = Command::Version;
    return options;
  }
  if (first == "cache")
    return parseCacheCommand(args, error);
  if (first == "run")
    return parseRunCommand(args, error);
  if (first == "build") {
    std::optional<BuildOptions> build =
        parseBuildCommand(std::vector<std::string>(args.begin() + 1, args.end()), error);
    if (!build)
      return std::nullopt;
    options.command = Command::Build;
    options.build = std::move(*build);
    return options;
  }
  if (first == "check") {
    options.command = Command::Check;
  } else if (first == "emit") {
    options.command = Command::Emit;
  } else if (first == "report") {
    options.command = Command::Report;
  } else {
    error = "unknown command `" + first +
            "` (commands: check, emit, report, run, build, cache; try `pykc --help`)";
    return std::nullopt;
  }
  ++i;

  // Options take their value as `--opt=value` or `--opt value`.
  auto value = [&](const std::string& arg, const std::string& name,
                   std::string& out) -> std::optional<bool> {
    if (arg == name) {
      if (i + 1 >= args.size()) {
        error = "option `" + name + "` needs a value";
        return std::nullopt;
      }
      out = args[++i];
      return true;
    }
    if (arg.rfind(name + "=", 0) == 0) {
      out = arg.substr(name.size() + 1);
      return true;
    }
    return false;
  };

  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string color;
    bool matched = false;
    for (auto [name, target] : {std::pair<const char*, std::string*>{"--emit", &options.emit},
                                {"--kernel", &options.kernel},
                                {"--sig", &options.sig},
                                {"--arch", &options.arch},
                                {"--block", &options.block},
                                {"--print-after", &options.printAfter},
                                {"-o", &options.output},
                                {"--color", &color}}) {
      std::optional<bool> r = value(arg, name, *target);
      if (!r)
        return std::nullopt;
      if (*r) {
        matched = true;
        break;
      }
    }
    if (matched) {
      if (!color.empty()) {
        if (color == "auto")
          options.color = ColorMode::Auto;
        else if (color == "always")
          options.color = ColorMode::Always;
        else if (color == "never")
          options.color = ColorMode::Never;
        else {
          error = "`--color` takes auto, always or never, not `" + color + "`";
          return std::nullopt;
        }
      }
      continue;
    }
    if (arg == "--index32") {
      options.index32 = true;
      continue;
    }
    if (std::optional<bool> r = takeIncludeDir(args, i, options, error); !r)
      return std::nullopt;
    else if (*r)
      continue;
    if (std::optional<bool> r =
            takeRepeatedOption(args, i, "--from-log", "a log file", options.fromLogs, error);
        !r)
      return std::nullopt;
    else if (*r)
      continue;
    if (arg == "--help" || arg == "-h") {
      options.command = Command::Help;
      return options;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      error = "unknown option `" + arg + "`";
      return std::nullopt;
    }
    if (!options.file.empty()) {
      error = "more than one input file (`" + options.file + "` and `" + arg + "`)";
      return std::nullopt;
    }
    options.file = arg;
  }

  if (options.file.empty()) {
    error = "no input file";
    return std::nullopt;
  }
  if (options.command == Command::Emit) {
    if (options.emit.empty()) {
      error = "`pykc emit` needs `--emit=KIND` (one of: ast, symbols, typed, ir, cuda, ptx, "
              "cubin, cpu, so)";
      return std::nullopt;
    }
    if (std::find(kEmitKinds.begin(), kEmitKinds.end(), options.emit) == kEmitKinds.end()) {
      error = "unknown `--emit=" + options.emit +
              "`; pykc emits: ast, symbols, typed, ir, cuda, ptx, cubin, cpu, so";
      return std::nullopt;
    }
    const bool typed = options.emit == "typed" || options.emit == "ir" || options.emit == "cuda" ||
                       options.emit == "ptx" || options.emit == "cubin" || options.emit == "cpu" ||
                       options.emit == "so";
    if (!options.sig.empty() && !typed) {
      error = "`--sig` applies to --emit=typed, ir, cuda, ptx, cubin, cpu and so";
      return std::nullopt;
    }
    if (!options.fromLogs.empty() && !typed) {
      error = "`--from-log` applies to --emit=typed, ir, cuda, ptx, cubin, cpu and so";
      return std::nullopt;
    }
    if (!options.arch.empty() && options.emit != "ptx" && options.emit != "cubin") {
      error = "`--arch` applies to --emit=ptx and cubin";
      return std::nullopt;
    }
    if (options.index32 && options.emit != "ptx" && options.emit != "cubin") {
      error = "`--index32` applies to --emit=ptx and cubin";
      return std::nullopt;
    }
    if (!archIsValid(options.arch, error))
      return std::nullopt;
    uint32_t shape[3];
    if (!options.printAfter.empty() && options.emit != "ir") {
      error = "`--print-after` applies to --emit=ir";
      return std::nullopt;
    }
    if (!options.printAfter.empty() && codegen::cpuPassNamed(options.printAfter) == nullptr) {
      error = "`--print-after` takes a pass of the CPU pipeline (";
      for (const codegen::CpuPass& pass : codegen::cpuPasses())
        error += std::string(&pass == &codegen::cpuPasses().front() ? "" : ", ") + pass.name;
      error += "), not `" + options.printAfter + "`";
      return std::nullopt;
    }
    if (!options.block.empty() && options.emit != "cpu" && options.emit != "so" &&
        options.printAfter.empty()) {
      error = "`--block` applies to --emit=cpu and so";
      return std::nullopt;
    }
    if (!options.block.empty() && !parseBlockShape(options.block, shape)) {
      error = "`--block` takes a block shape X, X,Y or X,Y,Z of at most 1024 threads, not `" +
              options.block + "`";
      return std::nullopt;
    }
    if ((options.emit == "cubin" || options.emit == "so") && options.output.empty()) {
      error = "`--emit=" + options.emit + "` writes a binary: give the file with `-o FILE`";
      return std::nullopt;
    }
  } else if (options.command == Command::Report) {
    if (!options.emit.empty() || options.index32 || !options.printAfter.empty() ||
        !options.block.empty()) {
      error = "`--emit`, `--index32`, `--print-after` and `--block` go with `pykc emit` (a report "
              "shows every form, the index32 variant's difference too)";
      return std::nullopt;
    }
    if (options.output.empty()) {
      error = "`pykc report` writes an HTML page: give its file with `-o page.html`";
      return std::nullopt;
    }
    if (!archIsValid(options.arch, error))
      return std::nullopt;
  } else if (options.command == Command::Check) {
    if (!options.emit.empty() || !options.arch.empty() || !options.output.empty() ||
        !options.fromLogs.empty()) {
      error = "`--emit`, `--arch`, `--from-log` and `-o` go with `pykc emit`";
      return std::nullopt;
    }
    if (!options.sig.empty() && options.kernel.empty()) {
      error = "`pykc check --sig` types the function `--kernel NAME` names";
      return std::nullopt;
    }
  } else if (!options.emit.empty() || !options.kernel.empty() || !options.sig.empty() ||
             !options.arch.empty() || !options.output.empty()) {
    error = "`--emit`, `--kernel`, `--sig`, `--arch` and `-o` go with `pykc emit`";
    return std::nullopt;
  }
  return options;
}

} // namespace pyk::driver
