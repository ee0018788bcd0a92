// TypeRules: numba's typing of operators, casts and math functions on scalars (CUDA target).
//
// The rules are numba's own: each operation has numba's list of typed cases (core
// typing/builtins.py, cuda/cudamath.py), and a call picks a case the way numba's
// BaseContext.resolve_overload does, with numba's conversion lattice (typeconv/rules.py): the
// case needing the fewest unsafe, then safe, then promoting conversions, the earliest on a tie.
// float16 is numba 0.56's: no operator or math function has a float16 case, so float16 operands
// promote to float32 (float16 + float16 is float32, as is math.sin of a float16; numba-cuda
// later added float16 cases, which 0.56 lacks); only numba.cuda.fp16's functions compute in
// float16.
// tests/unit/sema/data/numba_type_rules.txt holds numba's answers; TypeRulesTest checks them all.
#pragma once

#include "base/NumbaType.h"
#include "sema/catalog/Intrinsic.h"
#include "syntax/Ast.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace pyk::sema {

// The value an operand computes as: an IntEnum member as its integer (numba's IntEnumMember
// converts to it for arithmetic, comparisons, casts and math); any other type as itself.
inline NumbaType computedAs(const NumbaType& t) {
  return t.isIntEnumMember() ? t.enumValue() : t;
}

// The type of `left OP right`; nullopt where numba rejects it (`%`, `//` on complex, shifts and
// `& | ^` on floats, `@` on scalars). Integer operations widen to 64 bits, signed if either side
// is (boolean counts as signed): int32 + int32 → int64, uint64 + int64 → int64; `/` on integers
// → float64; shifts keep the left operand's signedness; float32 ** int → float32.
std::optional<ScalarKind> binaryResultType(ast::BinOpKind op, ScalarKind left, ScalarKind right);
// The type both operands are converted to before `left OP right` is computed; nullopt where numba
// rejects it. numba's lowering casts both operands to the result type, so this is the result type
// for every scalar operation, except that float ** integer keeps the exponent an integer (numba
// computes it by repeated multiplication). Examples: int32 / int32 → float64; int32 + uint64 →
// int64; int32 << uint8 → int64.
std::optional<ScalarKind> binaryOperandType(ast::BinOpKind op, ScalarKind left, ScalarKind right);

// `-x`, `+x` (integers widen to 64 bits as in binary operations; -boolean → int64), `~x`
// (integers only, ~boolean → boolean), `not x` → boolean for every scalar.
std::optional<ScalarKind> unaryResultType(ast::UnaryOpKind op, ScalarKind operand);

// The type both sides of `a OP b` are compared in; the result is always boolean. nullopt for
// ordering complex numbers and for `is`, `is not`, `in`, `not in` on scalars. Mixed signedness
// compares in float64 (int64 < uint64), as numba does.
std::optional<ScalarKind> comparisonOperandType(ast::CmpOpKind op, ScalarKind a, ScalarKind b);
// Whether `a OP b` of two tuples types (numba's TupleCompare): ==, != and the orderings, when
// each pair of elements (as far as the shorter goes) compares with OP, tuples in tuples
// likewise. Tuples of different lengths compare too: == is False, < orders by length after
// equal elements.
bool tuplesCompare(ast::CmpOpKind op, const NumbaType& a, const NumbaType& b);

// The type of a variable assigned both `a` and `b` (numba's unify_pairs): numbers unify as numpy's
// promote_types (int32, int64 → int64; int64, float32 → float64; int64, uint64 → float64; int8,
// uint8 → int16); boolean unifies with the type it converts to safely (boolean, int8 → int8).
// nullopt where numba cannot unify (boolean with float16).
std::optional<ScalarKind> unifyScalars(ScalarKind a, ScalarKind b);

// The result of calling the math function or numeric builtin `function` on scalar arguments
// (math.sin, math.pow, math.frexp, ...; abs, min, max (2+ args), round (1 or 2 args), int, float,
// bool, complex (1 or 2 args), pow, divmod); nullopt where numba.cuda has no matching typing. A
// tuple result is given by its first element: math.frexp → Tuple(T, int32), math.modf →
// UniTuple(T, 2), divmod → UniTuple(T, 2), where T is what this returns. callResultType gives the
// whole type.
std::optional<ScalarKind> mathResultType(Intrinsic function, std::span<const ScalarKind> args);
// The type `for i in range(args...)` iterates in (1 to 3 integer or boolean arguments): numba's
// Range template picks range_state32, range_state64 or unsigned_range_state64 like any call, so
// range(int32) and range(int16, bool) give int32, range(uint16) and range(uint32) give uint64,
// range(0, int32) gives int64 (an integer constant is int64). nullopt where numba rejects it.
std::optional<ScalarKind> rangeIterationType(std::span<const ScalarKind> args);
// mathResultType's answer as a NumbaType, tuples whole.
std::optional<NumbaType> callResultType(Intrinsic function, std::span<const ScalarKind> args);
// The types the arguments are converted to for the call (numba's chosen signature), e.g.
// math.sin(int32) → (int64), math.ldexp(float32, int64) → (float32, int32); nullopt where the call
// does not type. min/max convert both to the result; int/float/bool/complex take the argument as
// it is.
std::optional<std::vector<ScalarKind>> callArgumentTypes(Intrinsic function,
                                                         std::span<const ScalarKind> args);

// The operator an `operator` module function computes (operator.add and operator.iadd are `+`,
// operator.lt `<`, operator.neg unary `-`): exactly one of the three is set for an
// OperatorFunction intrinsic, none for any other.
struct OperatorOf {
  std::optional<ast::BinOpKind> binary;
  std::optional<ast::CmpOpKind> comparison;
  std::optional<ast::UnaryOpKind> unary;
};
OperatorOf operatorOf(Intrinsic function);

// The same three by name (`math.sin`, `abs`: the intrinsic intrinsicNamed finds), for tests and
// tables that spell functions as numba does.
std::optional<ScalarKind> mathResultType(std::string_view function,
                                         std::span<const ScalarKind> args);
std::optional<NumbaType> callResultType(std::string_view function,
                                        std::span<const ScalarKind> args);
std::optional<std::vector<ScalarKind>> callArgumentTypes(std::string_view function,
                                                         std::span<const ScalarKind> args);

} // namespace pyk::sema
