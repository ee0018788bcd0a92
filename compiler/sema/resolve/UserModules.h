// UserModules: the modules of the user's a file imports (`from helpers import TPB, clamp`,
// `import config`), found as Python finds them and read once per front-end run: `NAME.pyk` or
// `NAME.py` (`pkg/mod.pyk` for `pkg.mod`) beside the importing file, then in the search path
// (pykc's --include-dir, the C++ API's load options, PYK_PATH). Its constants, device functions,
// @njit functions and kernels (as device functions) are the importing file's to use; its host
// code is left alone, as numba leaves it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sema/catalog/LibraryModule.h"

namespace pyk::sema {

// Where imports are looked for after the importing file's own directory, in order: `dirs`
// (--include-dir, LoadOptions::include_dirs), then PYK_PATH's (the importer adds those).
struct ImportSearch {
  std::vector<std::string> dirs;
  // Modules given as text, consulted before any file (a module built ahead of time carries the
  // modules it imports): each module name (`helpers`) with its path and text.
  struct Embedded {
    std::string module, path, text;
  };
  // Entries whose `module` is empty are CUDA C++ files linked with kernels (numba's link=), by
  // the path the front end found them at (what `pykc build` embeds, LinkedSources.h).
  std::vector<Embedded> embedded;
  // CUDA C++ files linked with every kernel of the module (LoadOptions::link, `pykc --link`), as
  // numba's link= of each decorator; read by runFrontEnd, relative to the module's directory.
  std::vector<std::string> links;
};

// Every module of the user's `resolved` imports, directly or through another, once each, as
// ImportSearch::Embedded (what `pykc build` embeds beside the file's own text).
std::vector<ImportSearch::Embedded> importedSources(const ResolvedModule& resolved);

// PYK_PATH's directories (separated by `:`), empty ones dropped: read here only, by every front
// end (pykc's commands and the runtime's loads alike), not a runtime setting, so that `pykc
// check` does not depend on the runtime's other variables.
std::vector<std::string> pykPathDirectories();

class ModuleImporter;

// An imported module as a constant (`import config`): its folded constants are its members
// (`config.TPB` folds as an Enum's member does; its functions are NameResolver's).
ConstantValue moduleConstant(const LibraryModule& m);

// Binds an import of a module of the user's, whose file imports it from `importerPath`:
// `from helpers import TPB` the constant, `from helpers import clamp` the function (its device
// twin for a kernel), `import config` the module (moduleConstant). What device code cannot use
// is left an import with its reason (ImportBinding::unusable, the module's errors), reported where
// device code uses it. `statement`: the import statement's range.
void bindUserImport(ImportBinding binding, bool fromImport, SourceRange statement,
                    const std::string& importerPath, ModuleImporter& importer,
                    ModuleSymbolTable& symbols, ImportedNames& imported);

class ModuleImporter {
public:
  explicit ModuleImporter(ImportSearch search) : search_(std::move(search)) {
    for (std::string& dir : pykPathDirectories())
      search_.dirs.push_back(std::move(dir));
  }

  // The module `name` (`helpers`, `pkg.mod`) as the file at `importerPath` imports it, read,
  // parsed and resolved once (its errors kept in LibraryModule::errors); null when no file has
  // it, or when it is being imported already (a circular import), with `whyNot` completing
  // "module `name`, which ...".
  std::shared_ptr<const LibraryModule> load(const std::string& name,
                                            const std::string& importerPath, std::string& whyNot);

  // Whether a module is being resolved for an import (not the file the front end started at).
  bool resolvingImport() const { return !loading_.empty(); }
  // Where modules (and linked CUDA C++ files, LinkedSources.h) are looked for.
  const ImportSearch& search() const { return search_; }

private:
  // `file` (the module `name`, known as `key`) parsed and resolved, once per key.
  std::shared_ptr<const LibraryModule> resolve(const std::string& name, const std::string& key,
                                               SourceFile file, std::string& whyNot);

  ImportSearch search_;
  std::map<std::string, std::shared_ptr<const LibraryModule>> loaded_; // by canonical path
  std::vector<std::string> loading_;                                   // paths, outermost first
};

} // namespace pyk::sema
