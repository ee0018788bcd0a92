// ResolvedModulePrinter: a readable summary of a resolved module (imports, constants, host values,
// compiled functions with their options, signatures and names), for `pykc emit --emit=symbols`.
#pragma once

#include <ostream>

#include "sema/resolve/ResolvedModule.h"

namespace pyk::sema {

// One line per module-level name in the order the module binds them (`import np = numpy`,
// `constant TPB = 16 : int64`, `host value rng: <why>`, `host function main`), then one block per
// compiled function in source order (`kernel diffusion(field, lapl)` with its decorator,
// signatures, options, locals and the names its body uses). Deterministic.
void printResolvedModule(const ResolvedModule& module, std::ostream& out);

} // namespace pyk::sema
