// SpecializationPrinter: `pykc emit --emit=typed`, each source line of a typed function followed
// by the type of every expression on it (as numba's inspect_types shows its typed IR).
#pragma once

#include <ostream>

#include "diag/SourceFile.h"
#include "sema/typing/Specialization.h"

namespace pyk::sema {

void printSpecialization(const Specialization& spec, const SourceFile& file, std::ostream& out);

} // namespace pyk::sema
