// LibraryModule: a module of pyk's standard library written in pyk (`numba.cuda.random`), parsed
// and resolved once per process from its embedded source; user modules call its device functions
// as they call their own.
#pragma once

#include <string>
#include <string_view>

#include "diag/SourceFile.h"
#include "sema/ResolvedModule.h"
#include "syntax/Parser.h"

namespace pyk::sema {

struct LibraryModule {
  std::string qualifiedName; // `numba.cuda.random`
  SourceFile file;           // the embedded source; its path names it in `#line` directives
  ParseResult parsed;        // owns the syntax tree the functions point into
  ResolvedModule resolved;   // every function's `library` points back here
};

// The library module of that qualified name, or nullptr when pyk's stdlib has none. Built on first
// use (thread-safe) and kept for the life of the process.
const LibraryModule* libraryModule(std::string_view qualifiedName);

// The device function a canonical qualified name denotes in a library module
// (`numba.cuda.random.xoroshiro128p_uniform_float32`), or nullptr.
const CompiledFunction* libraryFunction(std::string_view qualifiedName);

// The library module's source, by qualified name ("" for none): for the runtime, which loads
// it as an ordinary module to launch its kernels.
std::string_view librarySourceText(std::string_view qualifiedName);

// The path a library module's source goes by in diagnostics and `#line` directives.
std::string libraryPath(std::string_view qualifiedName);

} // namespace pyk::sema
