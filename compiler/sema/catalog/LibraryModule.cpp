// LibraryModule: a module of pyk's standard library written in pyk (`numba.cuda.random`), parsed
// and resolved once per process from its embedded source; user modules call its device functions
// as they call their own.
#include "sema/catalog/LibraryModule.h"

#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "sema/catalog/LibrarySourceText.h"
#include "sema/resolve/FrontEnd.h"

namespace pyk::sema {

namespace {

struct LibraryEntry {
  Library id;
  std::string_view name;
  std::string_view (*sourceText)();
};

constexpr LibraryEntry kLibraries[] = {
#define LIBRARY_MODULE(Id, Name, SourceText) {Library::Id, Name, SourceText},
#include "sema/catalog/LibraryModules.def"
};

const LibraryEntry& entryOf(Library library) {
  return kLibraries[static_cast<size_t>(library)];
}

// Parses and resolves the embedded source. The stdlib is part of pyk: an error in it is pyk's bug,
// reported as an internal error with the diagnostics.
std::unique_ptr<LibraryModule> buildLibrary(Library id) {
  const LibraryEntry& entry = entryOf(id);
  auto library = std::unique_ptr<LibraryModule>(
      new LibraryModule{std::string(entry.name),
                        SourceFile(libraryPath(id), std::string(entry.sourceText())),
                        {},
                        {},
                        false,
                        {}});
  DiagnosticEngine diags(&library->file);
  FrontEndResult front = runFrontEnd(library->file, diags);
  library->parsed = std::move(front.parsed);
  library->resolved = std::move(front.resolved);
  if (diags.hasErrors()) {
    std::ostringstream out;
    diags.render(out, false);
    throw std::logic_error("internal error: pyk's stdlib module `" + std::string(entry.name) +
                           "` does not compile:\n" + out.str());
  }
  for (CompiledFunction& function : library->resolved.functions)
    function.library = library.get();
  return library;
}

} // namespace

std::string_view libraryName(Library library) {
  return entryOf(library).name;
}

std::string_view librarySourceText(Library library) {
  return entryOf(library).sourceText();
}

std::string libraryPath(Library library) {
  std::string path = "<pyk stdlib>/";
  for (char c : entryOf(library).name)
    path += c == '.' ? '/' : c;
  return path + ".pyk";
}

const LibraryModule& libraryModule(Library library) {
  static std::unique_ptr<LibraryModule> modules[std::size(kLibraries)];
  static std::once_flag once[std::size(kLibraries)];
  const size_t i = static_cast<size_t>(library);
  std::call_once(once[i], [&] { modules[i] = buildLibrary(library); });
  return *modules[i];
}

const CompiledFunction* libraryFunction(std::string_view qualifiedName) {
  const size_t dot = qualifiedName.rfind('.');
  if (dot == std::string_view::npos)
    return nullptr;
  for (const LibraryEntry& entry : kLibraries) {
    if (entry.name != qualifiedName.substr(0, dot))
      continue;
    const CompiledFunction* function =
        libraryModule(entry.id).resolved.function(qualifiedName.substr(dot + 1));
    return function != nullptr && function->kind == CompiledFunctionKind::DeviceFunction ? function
                                                                                         : nullptr;
  }
  return nullptr;
}

} // namespace pyk::sema
