// FrontEnd: parse, then resolve, on a large stack.
#include "sema/resolve/FrontEnd.h"

#include "sema/resolve/LinkedSources.h"

#include "base/LargeStack.h"
#include "sema/resolve/ModuleResolver.h"
#include "sema/resolve/UserModules.h"

namespace pyk::sema {

FrontEndResult runFrontEnd(const SourceFile& file, DiagnosticEngine& diags, FrontEndStop stop,
                           const ImportSearch* search) {
  ModuleImporter importer(search != nullptr ? *search : ImportSearch());
  FrontEndResult result = runFrontEnd(file, diags, stop, &importer);
  if (search != nullptr && !search->links.empty()) {
    const std::vector<types::LinkedSource> linked =
        readLinkedSources(search->links, file.path(), &search->embedded, diags, SourceRange(),
                          "a link option of " + file.path());
    for (CompiledFunction& f : result.resolved.functions)
      f.options.linkSources.insert(f.options.linkSources.end(), linked.begin(), linked.end());
  }
  return result;
}

FrontEndResult runFrontEnd(const SourceFile& file, DiagnosticEngine& diags, FrontEndStop stop,
                           ModuleImporter* importer) {
  FrontEndResult result;
  base::runWithLargeStack([&] {
    result.parsed = parseModule(file, diags);
    if (result.parsed.module != nullptr && stop == FrontEndStop::Resolved)
      result.resolved = resolveModule(*result.parsed.module, diags, importer);
  });
  return result;
}

} // namespace pyk::sema
