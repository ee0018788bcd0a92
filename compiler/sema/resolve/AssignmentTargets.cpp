// AssignmentTargets: the names an assignment target binds (`a`, `a, (b, *c)`), not counting
// subscripts and attributes, which bind nothing.
#include "sema/resolve/AssignmentTargets.h"

namespace pyk::sema {

void collectTargetNames(const ast::Expr* target, std::vector<std::string>& out) {
  if (target == nullptr)
    return;
  if (const auto* name = target->as<ast::Name>())
    out.push_back(name->id);
  else if (const auto* tuple = target->as<ast::Tuple>())
    for (const ast::Expr* e : tuple->elts)
      collectTargetNames(e, out);
  else if (const auto* list = target->as<ast::List>())
    for (const ast::Expr* e : list->elts)
      collectTargetNames(e, out);
  else if (const auto* starred = target->as<ast::Starred>())
    collectTargetNames(starred->value, out);
}

bool targetBinds(const ast::Expr* target, const std::string& name) {
  std::vector<std::string> names;
  collectTargetNames(target, names);
  for (const std::string& n : names)
    if (n == name)
      return true;
  return false;
}

} // namespace pyk::sema
