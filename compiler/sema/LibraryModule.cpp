// LibraryModule: a module of pyk's standard library written in pyk (`numba.cuda.random`), parsed
// and resolved once per process from its embedded source; user modules call its device functions
// as they call their own.
#include "sema/LibraryModule.h"

#include <memory>
#include <sstream>
#include <stdexcept>

#include "sema/LibrarySourceText.h"
#include "sema/ModuleResolver.h"

namespace pyk::sema {

namespace {

// Parses and resolves the embedded source. The stdlib is part of pyk: an error in it is pyk's bug,
// reported as an internal error with the diagnostics.
std::unique_ptr<LibraryModule> buildLibrary(std::string_view qualifiedName) {
  auto library = std::unique_ptr<LibraryModule>(new LibraryModule{
      std::string(qualifiedName),
      SourceFile(libraryPath(qualifiedName), std::string(librarySourceText(qualifiedName))),
      {},
      {}});
  DiagnosticEngine diags(&library->file);
  library->parsed = parseModule(library->file, diags);
  if (library->parsed.module != nullptr)
    library->resolved = resolveModule(*library->parsed.module, diags);
  if (diags.hasErrors()) {
    std::ostringstream out;
    diags.render(out, false);
    throw std::logic_error("internal error: pyk's stdlib module `" + std::string(qualifiedName) +
                           "` does not compile:\n" + out.str());
  }
  for (CompiledFunction& function : library->resolved.functions)
    function.library = library.get();
  return library;
}

} // namespace

std::string_view librarySourceText(std::string_view qualifiedName) {
  if (qualifiedName == "numba.cuda.random")
    return numbaCudaRandomSourceText();
  return {};
}

std::string libraryPath(std::string_view qualifiedName) {
  std::string path = "<pyk stdlib>/";
  for (char c : qualifiedName)
    path += c == '.' ? '/' : c;
  return path + ".pyk";
}

const LibraryModule* libraryModule(std::string_view qualifiedName) {
  if (qualifiedName == "numba.cuda.random") {
    static const std::unique_ptr<LibraryModule> random = buildLibrary("numba.cuda.random");
    return random.get();
  }
  return nullptr;
}

const CompiledFunction* libraryFunction(std::string_view qualifiedName) {
  size_t dot = qualifiedName.rfind('.');
  if (dot == std::string_view::npos)
    return nullptr;
  const LibraryModule* library = libraryModule(qualifiedName.substr(0, dot));
  if (library == nullptr)
    return nullptr;
  const CompiledFunction* function = library->resolved.function(qualifiedName.substr(dot + 1));
  return function != nullptr && function->kind == CompiledFunctionKind::DeviceFunction ? function
                                                                                       : nullptr;
}

} // namespace pyk::sema
