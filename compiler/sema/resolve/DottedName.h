// DottedName: the dotted spelling of a name or attribute chain as written (`cuda.threadIdx.x`).
#pragma once

#include <string>

#include "syntax/Ast.h"

namespace pyk::sema {

// `a.b.c` for a chain of Attribute nodes over a Name; `(...)` stands for any other base.
std::string dottedName(const ast::Expr* expr);

} // namespace pyk::sema
