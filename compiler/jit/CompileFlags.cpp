// CompileFlags: decorator options to NVRTC and host compiler flags (see the header's table).
#include "jit/CompileFlags.h"

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
