// ConstantOperators: Python's operators on constants (numpy's promotion rules for numpy scalars),
// and numpy's scalar casts.
#pragma once

#include <optional>

#include "sema/fold/ConstantValue.h"
#include "sema/fold/FoldResult.h"
#include "syntax/Ast.h"

namespace pyk::sema {

// `a op b` as Python evaluates it: unbounded-looking ints (a result outside int64/uint64 is not a
// constant), floor division and modulo toward −∞, `/` giving float, `int ** -n` giving float,
// str and tuple `+` and `*`. Numpy scalars follow NEP 50 promotion and wrap as numpy does.
// Division by zero is an error.
FoldResult applyBinaryOperator(ast::BinOpKind op, const ConstantValue& a, const ConstantValue& b);
FoldResult applyUnaryOperator(ast::UnaryOpKind op, const ConstantValue& a);
// One comparison `a op b`; the result is a weak bool.
FoldResult applyComparison(ast::CmpOpKind op, const ConstantValue& a, const ConstantValue& b);
// Python's truth value; none for values whose truth is not a constant (arrays).
std::optional<bool> truthValue(const ConstantValue& value);
// `np.float32(x)`, `numba.int32(x)`, `np.bool_(x)`: numpy's scalar conversion.
FoldResult castToScalar(const ConstantValue& value, ScalarKind target);
// Wraps an integer to the width and signedness of `type` (numpy's overflow behaviour).
__int128 wrapInteger(__int128 value, ScalarKind type);
// Rounds a double to the precision of a float type (float16, float32; float64 unchanged).
double roundToFloat(double value, ScalarKind type);
// Whether a Python int is representable as numba types a global int (int64, or uint64).
bool fitsPythonInt(__int128 value);

} // namespace pyk::sema
