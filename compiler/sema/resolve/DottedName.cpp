// DottedName: the dotted spelling of a name or attribute chain as written (`cuda.threadIdx.x`),
// and the chains read as one member (`a.ctypes.data`).
#include "sema/resolve/DottedName.h"

namespace pyk::sema {

std::string dottedName(const ast::Expr* expr) {
  if (const auto* name = expr->as<ast::Name>())
    return name->id;
  if (const auto* attribute = expr->as<ast::Attribute>())
    return dottedName(attribute->value) + "." + attribute->attr;
  return "(...)";
}

const ast::Expr* ctypesDataOf(const ast::Attribute* a) {
  if (a->attr != "data")
    return nullptr;
  const auto* ctypes = a->value->as<ast::Attribute>();
  return ctypes != nullptr && ctypes->attr == "ctypes" ? ctypes->value : nullptr;
}

} // namespace pyk::sema
