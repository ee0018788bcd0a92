// FrontEnd: parse, then resolve, on a large stack.
#include "sema/resolve/FrontEnd.h"

#include "base/LargeStack.h"
#include "sema/resolve/ModuleResolver.h"

namespace pyk::sema {

FrontEndResult runFrontEnd(const SourceFile& file, DiagnosticEngine& diags, FrontEndStop stop) {
  FrontEndResult result;
  base::runWithLargeStack([&] {
    result.parsed = parseModule(file, diags);
    if (result.parsed.module != nullptr && stop == FrontEndStop::Resolved)
      result.resolved = resolveModule(*result.parsed.module, diags);
  });
  return result;
}

} // namespace pyk::sema
