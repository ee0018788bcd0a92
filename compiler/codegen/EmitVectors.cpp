// EmitVectors: numba.cuda's vector types as C++ — a constructor call becomes the support headers'
// pyk::vector<T, N> (common/vector_types.h) of its arguments' elements in order: a scalar
// converted to the base type, a vector's members x, y, z, w. As numba lowers it, each argument is
// evaluated once, left to right.
#include "codegen/UnitEmitter.h"
#include "sema/VectorTypes.h"

namespace pyk::codegen {

std::string UnitEmitter::vectorConstruction(const ast::Call* c, const NumbaType& t) {
  const NumbaType base = NumbaType::scalar(t.scalarKind());
  bool anyVector = false;
  for (size_t i = 0; i < c->args.size(); ++i)
    anyVector = anyVector || argType(c, i).isVector();
  std::string bindings;
  std::vector<std::string> elements;
  for (size_t i = 0; i < c->args.size(); ++i) {
    const NumbaType a = argType(c, i);
    if (!anyVector) { // scalars only: a braced list evaluates them in order
      elements.push_back(castTo(c->args[i], base));
      continue;
    }
    // A vector among them: every argument bound once, in order, then the elements read.
    const std::string bound = temp("arg");
    bindings += "const " + type(a.isVector() ? a : base) + " " + bound + " = " +
                (a.isVector() ? expr(c->args[i]) : castTo(c->args[i], base)) + "; ";
    if (!a.isVector()) {
      elements.push_back(bound);
      continue;
    }
    for (int k = 0; k < a.vectorSize(); ++k)
      elements.push_back(bound + "." + std::string(sema::vectorMemberName(k)));
  }
  std::string value = type(t) + "{";
  for (size_t i = 0; i < elements.size(); ++i)
    value += (i ? ", " : "") + elements[i];
  value += "}";
  return anyVector ? "[&] { " + bindings + "return " + value + "; }()" : value;
}

} // namespace pyk::codegen
