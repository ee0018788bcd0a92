// TypeExpressionReader: numba types written as Python expressions rather than strings
// (`float32[:, ::1]`, `void(float32[:], int32)`, `numba.types.UniTuple(int64, 2)`), read through
// the module's imports.
#pragma once

#include <optional>

#include "base/FunctionSignature.h"
#include "base/NumbaType.h"
#include "sema/resolve/ModuleSymbolTable.h"
#include "syntax/Ast.h"

namespace pyk::sema {

// A type expression; none when `expr` is not one pyk can read.
std::optional<NumbaType> readTypeExpression(const ast::Expr* expr, const ModuleSymbolTable& symbols,
                                            bool allowVoid = false);

// A signature expression: `ret(args...)` (a call of a type) or a tuple of argument types.
std::optional<FunctionSignature> readSignatureExpression(const ast::Expr* expr,
                                                         const ModuleSymbolTable& symbols);

} // namespace pyk::sema
