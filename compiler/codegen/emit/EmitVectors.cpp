// EmitVectors: numba.cuda's vector types as C++ — a constructor call becomes the support headers'
// pyk::vector<T, N> (common/vector_types.h) of its arguments' elements in order: a scalar
// (converted to the base type by lowering), a vector's members x, y, z, w. As numba lowers it,
// each argument is evaluated once, left to right.
#include "codegen/emit/UnitEmitter.h"
#include "sema/catalog/VectorTypes.h"

namespace pyk::codegen {

std::string UnitEmitter::vectorConstruction(const ir::IntrinsicCall* c) {
  bool anyVector = false;
  for (const ir::Expr* a : c->args)
    anyVector = anyVector || a->type.isVector();
  std::string bindings;
  std::vector<std::string> elements;
  for (const ir::Expr* a : c->args) {
    if (!anyVector) { // scalars only: a braced list evaluates them in order
      elements.push_back(expr(a));
      continue;
    }
    // A vector among them: every argument bound once, in order, then the elements read.
    const std::string bound = temp("arg");
    const std::string value = expr(a);
    bindings += "const " + type(a->type) + " " + bound + " = " + value + "; ";
    if (!a->type.isVector()) {
      elements.push_back(bound);
      continue;
    }
    for (int k = 0; k < a->type.vectorSize(); ++k)
      elements.push_back(bound + "." + std::string(sema::vectorMemberName(k)));
  }
  std::string value = type(c->type) + "{";
  for (size_t i = 0; i < elements.size(); ++i)
    value += (i ? ", " : "") + elements[i];
  value += "}";
  return anyVector ? "[&] { " + bindings + "return " + value + "; }()" : value;
}

} // namespace pyk::codegen
