// AssignmentTargets: the names an assignment target binds (`a`, `a, (b, *c)`), not counting
// subscripts and attributes, which bind nothing; the part of a constant each receives.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sema/fold/ConstantValue.h"
#include "syntax/Ast.h"

namespace pyk::sema {

// Appends the names `target` binds to `out`, left to right.
void collectTargetNames(const ast::Expr* target, std::vector<std::string>& out);

// Whether `target` binds `name`.
bool targetBinds(const ast::Expr* target, const std::string& name);

// The part of `value` that `name` receives when `value` is assigned to `target` (`a, (b, c) =
// 1, (2, 3)`: `c` receives 3); nullopt with `reason` when unpacking it is not folded.
std::optional<ConstantValue> valueBoundTo(const ast::Expr* target, const std::string& name,
                                          const ConstantValue& value, std::string& reason);

} // namespace pyk::sema
