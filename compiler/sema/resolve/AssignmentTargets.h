// AssignmentTargets: the names an assignment target binds (`a`, `a, (b, *c)`), not counting
// subscripts and attributes, which bind nothing.
#pragma once

#include <string>
#include <vector>

#include "syntax/Ast.h"

namespace pyk::sema {

// Appends the names `target` binds to `out`, left to right.
void collectTargetNames(const ast::Expr* target, std::vector<std::string>& out);

// Whether `target` binds `name`.
bool targetBinds(const ast::Expr* target, const std::string& name);

} // namespace pyk::sema
