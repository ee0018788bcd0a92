// AssignmentTargets: the names an assignment target binds (`a`, `a, (b, *c)`), not counting
// subscripts and attributes, which bind nothing; the part of a constant each receives.
#include "sema/resolve/AssignmentTargets.h"

namespace pyk::sema {

void collectTargetNames(const ast::Expr* target, std::vector<std::string>& out) {
  if (target == nullptr)
    return;
  if (const auto* name = target->as<ast::Name>())
    out.push_back(name->id);
  else if (const std::vector<ast::Expr*>* elements = ast::tupleOrListElements(target))
    for (const ast::Expr* e : *elements)
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

std::optional<ConstantValue> valueBoundTo(const ast::Expr* target, const std::string& name,
                                          const ConstantValue& value, std::string& reason) {
  if (target->is<ast::Name>())
    return value;
  const std::vector<ast::Expr*>* elements = ast::tupleOrListElements(target);
  if (elements == nullptr) {
    reason = "its assignment target is not folded";
    return std::nullopt;
  }
  for (const ast::Expr* e : *elements) {
    if (e->is<ast::Starred>()) {
      reason = "starred unpacking is not folded";
      return std::nullopt;
    }
  }
  if (value.kind != ConstantValue::Kind::Tuple) {
    reason = "unpacking " + value.typeDescription() + " is not folded";
    return std::nullopt;
  }
  if (value.elements.size() != elements->size()) {
    reason = "the tuple has " + std::to_string(value.elements.size()) + " values, not " +
             std::to_string(elements->size());
    return std::nullopt;
  }
  for (size_t i = 0; i < elements->size(); ++i)
    if (targetBinds((*elements)[i], name))
      return valueBoundTo((*elements)[i], name, value.elements[i], reason);
  reason = "unpacking is not folded";
  return std::nullopt;
}

} // namespace pyk::sema
