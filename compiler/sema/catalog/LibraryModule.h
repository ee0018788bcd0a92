// LibraryModule: a module of pyk's standard library written in pyk (`numba.cuda.random`), parsed
// and resolved once per process from its embedded source; user modules call its device functions
// as they call their own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "diag/SourceFile.h"
#include "sema/resolve/ResolvedModule.h"
#include "syntax/Parser.h"

namespace pyk::sema {

// Also a module of the user's that a file imports (`from helpers import clamp`, `import config`:
// resolve/UserModules.h), with `user` set: what is wrong in it is the user's to hear of.
struct LibraryModule {
  std::string qualifiedName; // `numba.cuda.random`, `helpers`
  SourceFile file;           // the embedded source or the user's file; named in `#line` directives
  ParseResult parsed;        // owns the syntax tree the functions point into
  ResolvedModule resolved;   // every function's `library` points back here
  bool user = false;
  // A user module's front-end errors, each with its file: reported where the importing file
  // uses something of the module (Python would not import it; numba never sees its kernels).
  std::vector<Diagnostic> errors;
};

// The stdlib's modules (LibraryModules.def).
enum class Library : uint8_t {
#define LIBRARY_MODULE(Id, Name, SourceText) Id,
#include "sema/catalog/LibraryModules.def"
};

// The library module, built on first use (thread-safe) and kept for the life of the process.
const LibraryModule& libraryModule(Library library);

// The device function a canonical qualified name denotes in a library module
// (`numba.cuda.random.xoroshiro128p_uniform_float32`), or nullptr.
const CompiledFunction* libraryFunction(std::string_view qualifiedName);

// The module's qualified name (`numba.cuda.random`).
std::string_view libraryName(Library library);

// The library module's source: for the runtime, which loads it as an ordinary module to launch
// its kernels.
std::string_view librarySourceText(Library library);

// The path a library module's source goes by in diagnostics and `#line` directives.
std::string libraryPath(Library library);

} // namespace pyk::sema
