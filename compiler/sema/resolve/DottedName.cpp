// DottedName: the dotted spelling of a name or attribute chain as written (`cuda.threadIdx.x`).
#include "sema/resolve/DottedName.h"

namespace pyk::sema {

std::string dottedName(const ast::Expr* expr) {
  if (const auto* name = expr->as<ast::Name>())
    return name->id;
  if (const auto* attribute = expr->as<ast::Attribute>())
    return dottedName(attribute->value) + "." + attribute->attr;
  return "(...)";
}

} // namespace pyk::sema
