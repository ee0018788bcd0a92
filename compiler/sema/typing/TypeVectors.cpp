// TypeVectors: typing of numba.cuda's vector types (sema/catalog/VectorTypes.h) — a constructor
// called with scalars and vectors of its base type whose elements add up to its own (numba 0.56's
// overloads, every combination: `float32x4(float32x2, one, two)`), each scalar converted to the
// base type as numba's overload resolution converts it (any number but a complex one), and the
// members x, y, z, w, of the base type. Compiled numba's types, not the simulator's (which gives
// every vector type a float32 base).
#include "sema/catalog/VectorTypes.h"
#include "sema/typing/FunctionTyper.h"

namespace pyk::sema {

OptType FunctionTyper::vectorConstruction(const IntrinsicInfo& info, const ast::Call* c,
                                          const std::vector<NumbaType>& args) {
  const NumbaType made = *vectorTypeOf(info.id);
  int elements = 0;
  bool accepted = c->keywords.empty(); // numba's stubs take positional arguments only
  for (const NumbaType& a : args) {
    if (a.isVector() && a.scalarKind() == made.scalarKind())
      elements += a.vectorSize();
    else if (a.isScalar() && !isComplex(a.scalarKind()))
      elements += 1;
    else
      accepted = false;
  }
  if (!accepted || elements != made.vectorSize())
    return badArguments(info.name, c, args);
  return made;
}

OptType FunctionTyper::vectorMember(const NumbaType& vector, const ast::Attribute* a) {
  if (vectorMemberIndex(vector, a->attr))
    return NumbaType::scalar(vector.scalarKind());
  error(DiagKind::TypeUnknownAttribute, a->attrRange, {vector.str(), a->attr});
  return std::nullopt;
}

} // namespace pyk::sema
