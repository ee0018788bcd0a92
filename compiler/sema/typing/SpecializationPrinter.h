// SpecializationPrinter: `pykc emit --emit=typed`, each source line of a typed function followed
// by the type of every expression on it (as numba's inspect_types shows its typed IR); the same
// facts as data for `pykc report`'s page.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "diag/SourceFile.h"
#include "sema/typing/Specialization.h"

namespace pyk::sema {

// What typing concluded for one specialization, as text.
struct TypedFunctionText {
  std::string heading; // "kernel saxpy(float32, float32[::1]) -> none"
  // The file the function is defined in (its lines' numbers are of it): FILE's own, or a
  // module's it imports (the user's `helpers.py`, pyk's stdlib).
  std::string file;
  struct Variable {
    std::string role; // "param" or "local"
    std::string name;
    std::string types; // its SSA versions' distinct types: "int64 | float64"
  };
  std::vector<Variable> variables;
  struct Expression {
    std::string text; // its source text (the first line and " ..." when it spans several)
    std::string type;
  };
  // Each source line of the function with its expressions, by column, outer before inner.
  std::map<uint32_t, std::vector<Expression>> lines;
};

// `file`: the file compiled; a function of a module it imports is read from that module's.
TypedFunctionText typedFunctionText(const Specialization& spec, const SourceFile& file);

void printSpecialization(const Specialization& spec, const SourceFile& file, std::ostream& out);

} // namespace pyk::sema
