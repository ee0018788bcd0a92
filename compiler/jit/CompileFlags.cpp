// CompileFlags: decorator options to NVRTC and host compiler flags (see the header's table).
#include "jit/CompileFlags.h"

#include <algorithm>
#include <filesystem>

namespace pyk::jit {

std::vector<std::string> nvrtcFlags(const sema::DecoratorOptions& options) {
  std::vector<std::string> flags;
  const bool debug = options.debug.value_or(false);
  const bool opt = options.opt.value_or(true); // numba's default: NUMBA_OPT=3
  if (options.fastmath.value_or(false))
    flags.push_back("--use_fast_math");
  if (options.lineinfo.value_or(false))
    flags.push_back("-lineinfo");
  if (debug) {
    flags.push_back("-G");
    if (opt)
      flags.push_back("--dopt=on");
  } else if (!opt) {
    flags.insert(flags.end(), {"-Xnvvm", "-opt=0"});
  }
  if (options.maxRegisters)
    flags.push_back("--maxrregcount=" + std::to_string(*options.maxRegisters));
  return flags;
}

std::vector<std::string> hostFlags(const sema::DecoratorOptions& options) {
  if (options.debug.value_or(false))
    return {"-g"};
  if (options.lineinfo.value_or(false))
    return {"-g1"};
  return {};
}

} // namespace pyk::jit

namespace pyk::jit {

std::vector<std::string> linkedSourceIncludes(const std::vector<types::LinkedSource>& sources) {
  std::vector<std::string> flags;
  for (const types::LinkedSource& source : sources) {
    std::string dir = std::filesystem::path(source.path).parent_path().string();
    if (dir.empty())
      dir = ".";
    const std::string flag = "-I" + dir;
    if (std::find(flags.begin(), flags.end(), flag) == flags.end())
      flags.push_back(flag);
  }
  return flags;
}

std::string linkedSourceInError(const std::string& unit, const std::string& log) {
  const std::size_t marker = unit.find("// The CUDA C++ linked with the kernel");
  if (marker == std::string::npos)
    return "";
  for (std::size_t at = unit.find("#line 1 \"", marker); at != std::string::npos;
       at = unit.find("#line 1 \"", at + 1)) {
    const std::size_t begin = at + 9, end = unit.find('"', begin);
    if (end == std::string::npos)
      break;
    const std::string path = unit.substr(begin, end - begin);
    for (const char* after : {":", "("})
      for (std::size_t hit = log.find(path + after); hit != std::string::npos;
           hit = log.find(path + after, hit + 1)) {
        const std::size_t lineEnd = log.find('\n', hit);
        if (log.substr(hit, lineEnd - hit).find(" error: ") != std::string::npos ||
            log.substr(hit, lineEnd - hit).find("): error") != std::string::npos)
          return path;
      }
  }
  return "";
}

} // namespace pyk::jit
