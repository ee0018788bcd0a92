// ModuleState: a loaded .pyk module (its source, syntax tree and resolved functions, kept alive
// for specialization) and its kernels' states (module/KernelState.h).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "diag/SourceFile.h"
#include "module/KernelState.h"
#include "pyk/kernel.hpp"
#include "sema/ResolvedModule.h"
#include "syntax/Parser.h"

namespace pyk::detail {

struct ModuleState {
  explicit ModuleState(SourceFile f) : file(std::move(f)) {}
  SourceFile file;
  ParseResult parsed;
  sema::ResolvedModule resolved;
  std::mutex compileMutex; // the front end and code generation run one at a time per module
  // Each kernel's state, made at its first module["name"] and kept with the module, so that every
  // Kernel handle of one kernel shares its compiled specializations.
  std::mutex kernelsMutex;
  std::map<std::string, std::shared_ptr<KernelState>> kernels;
};

} // namespace pyk::detail
