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

struct LibraryModule {
  std::string qualifiedName; // `numba.cuda.random`
  SourceFile file;           // the embedded source; its path names it in `#line` directives
  ParseResult parsed;        // owns the syntax tree the functions point into
  ResolvedModule resolved;   // every function's `library` points back here
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
