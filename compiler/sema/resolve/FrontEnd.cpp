// FrontEnd: parse, then resolve, on a large stack.
#include "sema/resolve/FrontEnd.h"

#include "base/LargeStack.h"
#include "sema/resolve/ModuleResolver.h"
#include "sema/resolve/UserModules.h"

namespace pyk::sema {

FrontEndResult runFrontEnd(const SourceFile& file, DiagnosticEngine& diags, FrontEndStop stop,
                           const ImportSearch* search) {
  ModuleImporter importer(search != nullptr ? *search : ImportSearch());
  return runFrontEnd(file, diags, stop, &importer);
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
