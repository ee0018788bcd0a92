// DottedName: the dotted spelling of a name or attribute chain as written (`cuda.threadIdx.x`),
// and the chains read as one member (`a.ctypes.data`).
#pragma once

#include <string>

#include "syntax/Ast.h"

namespace pyk::sema {

// `a.b.c` for a chain of Attribute nodes over a Name; `(...)` stands for any other base.
std::string dottedName(const ast::Expr* expr);

// `X` of an `X.ctypes.data` chain (numba's address of an array, ValueMember::CtypesData), else
// null: typing and lowering read the two attributes as one.
const ast::Expr* ctypesDataOf(const ast::Attribute* a);

} // namespace pyk::sema
