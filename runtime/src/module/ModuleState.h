// ModuleState: a loaded .pyk module (its source, syntax tree and resolved functions, kept alive
// for specialization) and, per kernel, the specializations compiled so far.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "cpu/CpuEngine.h"
#include "cpu/SharedObject.h"
#include "diag/SourceFile.h"
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
};

// One specialization, compiled and loaded for the CPU backend.
struct CpuKernelInstance {
  std::string description; // `name(float32[::1], int64)`
  std::string mode;        // loop, split, fiber (with the reason)
  cpu::SharedObject object;
  cpu::KernelEntry entry;
  std::size_t staticSharedBytes = 0;
  std::vector<sema::NumbaType> params;
};

struct KernelState {
  std::shared_ptr<ModuleState> module;
  const sema::CompiledFunction* function = nullptr;
  std::mutex mutex; // guards instances
  // By argument types (and environment flags), plus the block shape for split-mode kernels.
  std::map<std::string, std::shared_ptr<CpuKernelInstance>> instances;
  std::set<std::string> shapedTypes; // argument types whose kernel runs in split mode
};

} // namespace pyk::detail
