// AotModuleWriter: the C++ `pykc build` writes for one .pyk module built ahead of time (the
// runtime reads it through pyk/aot.hpp): the header with typed launch functions, the module image
// (source, fatbins, CPU entry points) and the CPU backend's units in one translation unit.
#pragma once

#include <string>
#include <vector>

#include "base/FunctionSignature.h"
#include "codegen/emit/CpuEmitter.h"
#include "sema/resolve/CompiledFunction.h"

namespace pyk::aot {

// One specialization built ahead: its kernel, its parameters and what was compiled.
struct AotSpecialization {
  const sema::CompiledFunction* function = nullptr;
  types::FunctionSignature signature;
  bool hasCpu = false;
  base::CpuUnit cpu; // hasCpu
  // CUDA, when architectures were asked for: the fatbin of each variant (64-bit, then 32-bit
  // index arithmetic), the entry point, and what the fatbins hold.
  std::string fatbin[2];
  std::string cudaEntry;
  std::string cudaTargets; // "sm_80 sm_90 compute_90"
  bool cooperative = false;
};

struct AotModule {
  std::string name;       // the file stem (a C identifier); the namespace is moduleNamespace(name)
  std::string sourcePath; // as given to pykc build
  std::string source;     // the file's text
  std::vector<AotSpecialization> specializations;
  // The modules of the user's it imports, directly or not, as read (embedded in the module).
  struct Import {
    std::string module, path, text;
  };
  std::vector<Import> imports;
};

// `(float32, float32[::1])`: the signature-string spelling the runtime parses back (and matches a
// launch's parameters with).
std::string parameterSpelling(const std::vector<types::NumbaType>& params);

// A kernel's launch function name and a module's namespace as C++ allows them: the Python name,
// with a `_` after one C++ reserves (a keyword; `module`; `pyk`, `std` for a namespace).
std::string launchFunctionName(const std::string& kernel);
std::string moduleNamespace(const std::string& stem);

// <name>.hpp, <name>.cpp and <name>_cpu.cpp.
std::string headerText(const AotModule& m);
std::string imageText(const AotModule& m);
std::string cpuUnitsText(const AotModule& m);

} // namespace pyk::aot
