// KernelRunCommand: parses launch extents (and the arguments, RunArguments), launches, writes the
// arrays back.
#include "pykc/KernelRunCommand.h"

#include "pykc/RunArguments.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>

#include "pyk/pyk.hpp"

namespace pyk::driver {

namespace {

// `N`, `X,Y` or `X,Y,Z` (decimal, or a power written `2**50`).
Dim3 parseExtent(const std::string& text, const char* what) {
  std::int64_t parts[3] = {1, 1, 1};
  size_t count = 0;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string piece =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (count == 3)
      throw Error(ErrorKind::InvalidArgument,
                  std::string("`--") + what + " " + text + "` has more than three extents");
    std::int64_t value = 0;
    const size_t power = piece.find("**");
    auto number = [&](const std::string& digits, std::int64_t& out) {
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
      return ec == std::errc() && end == digits.data() + digits.size() && !digits.empty();
    };
    bool ok = false;
    if (power != std::string::npos) {
      // As in Python, `**` binds tighter than a sign: `-2**2` is -(2**2).
      const bool negative = !piece.empty() && piece[0] == '-';
      std::int64_t base = 0, exponent = 0;
      ok = number(piece.substr(negative ? 1 : 0, power - (negative ? 1 : 0)), base) &&
           number(piece.substr(power + 2), exponent) && base >= 0 && exponent >= 0 && exponent < 63;
      value = 1;
      for (std::int64_t e = 0; ok && e < exponent; ++e) {
        if (value > std::numeric_limits<std::int64_t>::max() / std::max<std::int64_t>(base, 1))
          ok = false;
        value *= base;
      }
      if (negative)
        value = -value;
    } else {
      ok = number(piece, value);
    }
    if (!ok)
      throw Error(ErrorKind::InvalidArgument, std::string("`--") + what + " " + text + "`: `" +
                                                  piece + "` is not a whole number");
    parts[count++] = value;
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return Dim3(parts[0], parts[1], parts[2]);
}

} // namespace

int runKernelCommand(const Options& options) {
  try {
    if (!options.backend.empty()) {
      // --backend wins over the environment: its PYK_BACKEND is not even read.
      RuntimeSettings settings =
          RuntimeSettings::from_environment([](const char* name) -> std::optional<std::string> {
            const char* value = std::getenv(name);
            if (value == nullptr || std::string_view(name) == "PYK_BACKEND")
              return std::nullopt;
            return value;
          });
      settings.backend = options.backend == "cpu"    ? BackendChoice::Cpu
                         : options.backend == "cuda" ? BackendChoice::Cuda
                                                     : BackendChoice::Auto;
      set_settings(settings);
    }
    const LaunchShape shape{parseExtent(options.grid, "grid"), parseExtent(options.block, "block")};
    std::size_t shared = 0;
    if (!options.shared.empty()) {
      std::int64_t v = 0;
      auto [end, ec] =
          std::from_chars(options.shared.data(), options.shared.data() + options.shared.size(), v);
      if (ec != std::errc() || end != options.shared.data() + options.shared.size() || v < 0)
        throw Error(ErrorKind::InvalidArgument,
                    "`--shared " + options.shared + "` is not a byte count");
      shared = static_cast<std::size_t>(v);
    }
    LoadOptions loadOptions;
    for (const std::string& dir : options.includeDirs)
      loadOptions.include_dirs.push_back(dir);
    for (const std::string& file : options.links)
      loadOptions.link.push_back(file);
    Module module = load(options.file, loadOptions);
    std::cerr << module.warnings();
    const RunArguments args(options.runArgs, &module);
    Kernel kernel = module[options.kernel];
    kernel.launch_with(shape, shared, args.arguments());
    if (!options.outDir.empty())
      args.writeBack(options.outDir);
    else if (args.arrayCount() != 0)
      std::cerr << "pykc: warning: no `--out DIR`: what the kernel left in its "
                << args.arrayCount() << " array argument(s) is not saved (`--out DIR` writes "
                << "them as DIR/arg<i>.npy)\n";
    return 0;
  } catch (const Error& e) {
    std::string message = e.what();
    // Diagnostics already carry their own `file:line:col: error:` lines.
    if (message.find(": error: ") != std::string::npos)
      std::cerr << message;
    else
      std::cerr << "pykc: error: " << message << '\n';
    return 1;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "pykc: error: " << e.what() << '\n';
    return 1;
  }
}

} // namespace pyk::driver
