// KernelRunCommand: parses launch extents and arguments, launches, writes the arrays back.
#include "driver/KernelRunCommand.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <deque>
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
      std::int64_t base = 0, exponent = 0;
      ok = number(piece.substr(0, power), base) && number(piece.substr(power + 2), exponent) &&
           exponent >= 0 && exponent < 63;
      value = 1;
      for (std::int64_t e = 0; ok && e < exponent; ++e) {
        if (value > std::numeric_limits<std::int64_t>::max() / std::max<std::int64_t>(base, 1))
          ok = false;
        value *= base;
      }
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

template <typename T>
KernelArgument integerScalar(const std::string& text, const std::string& arg) {
  using Wide = std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;
  Wide v = 0;
  const char* begin = text.data();
  if (!text.empty() && text[0] == '+')
    ++begin;
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() ||
      v < static_cast<Wide>(std::numeric_limits<T>::min()) ||
      v > static_cast<Wide>(std::numeric_limits<T>::max()))
    throw Error(ErrorKind::InvalidArgument,
                "argument `" + arg + "`: `" + text + "` is not a value of its type");
  return KernelArgument::of(static_cast<T>(v));
}

double floatValue(const std::string& text, const std::string& arg) {
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    throw Error(ErrorKind::InvalidArgument,
                "argument `" + arg + "`: `" + text + "` is not a number");
  return v;
}

// `x.npy`, or `dtype:value`.
// Arrays are kept in `arrays` (a launch refers to its arrays).
KernelArgument parseArgument(const std::string& arg, std::deque<AnyDeviceArray>& arrays) {
  const size_t colon = arg.find(':');
  if (colon == std::string::npos || (arg.size() > 4 && arg.substr(arg.size() - 4) == ".npy"))
    return KernelArgument::of(arrays.emplace_back(to_device(readNpy(arg))));
  const std::string type = arg.substr(0, colon);
  const std::string text = arg.substr(colon + 1);
  if (type == "bool") {
    if (text == "true" || text == "True" || text == "1")
      return KernelArgument::of(true);
    if (text == "false" || text == "False" || text == "0")
      return KernelArgument::of(false);
    throw Error(ErrorKind::InvalidArgument, "argument `" + arg + "`: a bool is true or false");
  }
  if (type == "int8")
    return integerScalar<std::int8_t>(text, arg);
  if (type == "int16")
    return integerScalar<std::int16_t>(text, arg);
  if (type == "int32")
    return integerScalar<std::int32_t>(text, arg);
  if (type == "int64")
    return integerScalar<std::int64_t>(text, arg);
  if (type == "uint8")
    return integerScalar<std::uint8_t>(text, arg);
  if (type == "uint16")
    return integerScalar<std::uint16_t>(text, arg);
  if (type == "uint32")
    return integerScalar<std::uint32_t>(text, arg);
  if (type == "uint64")
    return integerScalar<std::uint64_t>(text, arg);
  if (type == "float16")
    return KernelArgument::of(float16(floatValue(text, arg)));
  if (type == "float32")
    return KernelArgument::of(static_cast<float>(floatValue(text, arg)));
  if (type == "float64")
    return KernelArgument::of(floatValue(text, arg));
  if (type == "complex64" || type == "complex128") {
    // `re,im`
    const size_t comma = text.find(',');
    if (comma == std::string::npos)
      throw Error(ErrorKind::InvalidArgument,
                  "argument `" + arg + "`: a complex scalar is written `" + type + ":RE,IM`");
    const double re = floatValue(text.substr(0, comma), arg);
    const double im = floatValue(text.substr(comma + 1), arg);
    if (type == "complex64")
      return KernelArgument::of(
          std::complex<float>(static_cast<float>(re), static_cast<float>(im)));
    return KernelArgument::of(std::complex<double>(re, im));
  }
  throw Error(
      ErrorKind::InvalidArgument,
      "argument `" + arg + "`: `" + type +
          "` is not a scalar type (bool, int8..int64, uint8..uint64, float16, float32, float64, "
          "complex64, complex128), and the argument is not a .npy file");
}

} // namespace

int runKernelCommand(const Options& options) {
  try {
    if (!options.backend.empty()) {
      // --backend wins over the environment: its PYK_BACKEND is not even read.
      RuntimeSettings settings =
          RuntimeSettings::fromEnvironment([](const char* name) -> std::optional<std::string> {
            const char* value = std::getenv(name);
            if (value == nullptr || std::string_view(name) == "PYK_BACKEND")
              return std::nullopt;
            return value;
          });
      settings.backend = options.backend == "cpu"    ? BackendChoice::Cpu
                         : options.backend == "cuda" ? BackendChoice::Cuda
                                                     : BackendChoice::Auto;
      setSettings(settings);
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
    std::deque<AnyDeviceArray> arrays;
    std::vector<KernelArgument> args;
    for (const std::string& a : options.runArgs)
      args.push_back(parseArgument(a, arrays));
    Module module = load(options.file);
    Kernel kernel = module[options.kernel];
    kernel.launchWith(shape, shared, args);
    if (!options.outDir.empty()) {
      std::filesystem::create_directories(options.outDir);
      for (size_t i = 0; i < args.size(); ++i)
        if (args[i].kind == KernelArgument::Kind::Array)
          writeNpy(std::filesystem::path(options.outDir) / ("arg" + std::to_string(i) + ".npy"),
                   args[i].array->copy_to_host());
    }
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
