// CompiledFunction: a function numba compiles (kernel, device function, vectorize or guvectorize
// ufunc), with its decorator's options and parsed signatures.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/FunctionKind.h"
#include "base/FunctionSignature.h"
#include "base/GufuncLayout.h"
#include "base/LinkedSource.h"
#include "diag/SourceLocation.h"
#include "sema/resolve/NameBinding.h"
#include "syntax/Ast.h"

namespace pyk::sema {

struct LibraryModule;

// Options given to the decorator; unset ones keep numba's defaults.
struct DecoratorOptions {
  std::optional<bool> device;
  std::optional<bool> debug;
  std::optional<bool> lineinfo;
  std::optional<bool> cache;
  std::optional<bool> opt;
  std::optional<bool> fastmath;           // `fastmath=True/False`
  std::vector<std::string> fastmathFlags; // `fastmath={'nsz', 'arcp'}`
  // `inline=`: "always" (True), "never" (False) or the string given.
  std::optional<std::string> inlineMode;
  std::optional<int64_t> maxRegisters;
  std::vector<int64_t> launchBounds;            // `launch_bounds=128` or `(128, 2)`
  std::vector<std::string> link;                // as written
  std::vector<types::LinkedSource> linkSources; // those found and read (LinkedSources.h)
  std::optional<bool> lto;
  std::optional<bool> boundscheck;
  std::optional<bool> nopython;
  std::optional<bool> forceobj;
  std::optional<bool> forceinline;
  std::string target;                  // vectorize/guvectorize: "cuda", "cpu" or "parallel"
  std::optional<std::string> identity; // vectorize/guvectorize `identity=`, as written
  std::vector<int64_t> writableArgs;   // guvectorize `writable_args=`
};

struct CompiledFunction {
  std::string name;
  const ast::FunctionDef* def = nullptr;
  CompiledFunctionKind kind = CompiledFunctionKind::Kernel;
  std::string decoratorName;  // as written: `cuda.jit`, `numba.cuda.jit`, `vectorize`
  SourceRange decoratorRange; // the decorator expression
  // Signatures given to the decorator, parsed; empty with `lazy` set when none was given
  // (numba then compiles one specialization per distinct argument types).
  std::vector<FunctionSignature> signatures;
  bool lazy = true;
  DecoratorOptions options;
  std::optional<GufuncLayout> layout; // guvectorize
  FunctionScope scope;                // filled by name resolution
  // The decorator had errors (a misspelt `device=`, say), so `kind` may not be what the user
  // meant: checks that depend on it stay quiet rather than add a second, misleading error.
  bool decoratorHasErrors = false;
  // A later top-level definition rebinds the name (Python keeps the last one): nothing can call
  // or launch this one.
  bool shadowed = false;
  // Defined inside a (host) function, a kernel factory (EnclosingScope.h): `qualifiedName` is
  // Python's `make.<locals>.k`, and `enclosingNames` maps the free variables it may use to their
  // hidden names in the module's symbol table.
  std::string qualifiedName;
  std::unordered_map<std::string, std::string> enclosingNames;
  // The functions it is defined in, outermost first (a factory's; a compiled function's, for a
  // function defined inside one: InnerFunctions.h).
  std::vector<const ast::FunctionDef*> enclosingDefs;
  // The functions defined in its body (numba's closures, InnerFunctions.h): name → hidden name.
  std::unordered_map<std::string, std::string> innerFunctions;
  bool nested() const {
    return !enclosingNames.empty() || qualifiedName.find('.') != std::string::npos;
  }
  // Decorated with `@numba.njit` / `@numba.jit`: compiled for the CPU by numba, and as a device
  // function when GPU code calls it (numba does the same). Resolved and checked only then.
  bool cpuJit = false;
  // numba-cuda compiles a kernel (`@cuda.jit` without device=True) that device code calls as a
  // device function there. Such a kernel has a twin, a DeviceFunction over the same `def`,
  // resolved and checked where called as @njit functions are (`calledAsDevice`): the kernel's
  // `deviceTwin` is the twin's index, the twin's `kernelOf` the kernel's.
  std::optional<size_t> deviceTwin;
  std::optional<size_t> kernelOf;
  // Resolved, and its errors reported, only where device code calls it: @njit functions and
  // kernels' device twins.
  bool calledAsDevice() const { return cpuJit || kernelOf.has_value(); }
  // Set for a function of pyk's stdlib (`numba.cuda.random`): the module that defines it, whose
  // constants, functions and source its body refers to. Null for the user's own functions.
  const LibraryModule* library = nullptr;
};

} // namespace pyk::sema
