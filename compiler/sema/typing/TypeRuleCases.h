// TypeRuleCases: numba's overload resolution on scalars, shared by the operator rules
// (TypeRules.cpp) and the call rules (TypeCallRules.cpp): the conversion lattice, a template's
// typed cases, and the choice of the case an argument list needs the fewest conversions for.
// Internal to sema: the public face is TypeRules.h.
#pragma once

#include "base/NumbaType.h"
#include "syntax/Ast.h"

#include <array>
#include <span>
#include <tuple>
#include <vector>

namespace pyk::sema::type_rules {

using K = ScalarKind;

// numba's Conversion kinds, in increasing cost; None: no conversion at all.
enum class Conversion : uint8_t { Exact, Promote, Safe, Unsafe, None };

// numba 0.56's typing context `can_convert(from, to)`.
Conversion conversion(K from, K to);

// A candidate's cost as numba's resolve_overload rates it: its unsafe, then safe, then promoting
// conversions (fewer is better, compared in that order).
struct ConversionRating {
  std::tuple<int, int, int> counts{0, 0, 0};
  // Counts one argument's conversion; false when it rules the candidate out (None, or Unsafe
  // where unsafe casting is not allowed).
  bool add(Conversion c, bool unsafeCasting = true);
  friend bool operator<(const ConversionRating& a, const ConversionRating& b) {
    return a.counts < b.counts;
  }
};

// One typed case of a numba template: `result(args...)`.
struct Case {
  K result;
  std::vector<K> args;
};
using Cases = std::vector<Case>;

// numba's resolve_overload: rate every case by the conversions the arguments need (unsafe,
// then safe, then promote; fewer is better) and take the best, the earliest on a tie.
const Case* selectCase(const Cases& cases, std::span<const K> args, bool unsafeCasting);

inline constexpr std::array<K, 4> kSigned = {K::Int8, K::Int16, K::Int32, K::Int64};
inline constexpr std::array<K, 4> kUnsigned = {K::UInt8, K::UInt16, K::UInt32, K::UInt64};
inline constexpr std::array<K, 2> kReals = {K::Float32, K::Float64};
inline constexpr std::array<K, 2> kComplexes = {K::Complex64, K::Complex128};

// A case `k(k, ..., k)` of `arity` arguments for each of `kinds`.
void addSame(Cases& cases, std::span<const K> kinds, int arity);

// The case numba's template for `left OP right` picks; null where it rejects the operands.
const Case* selectBinary(ast::BinOpKind op, K left, K right);

// numpy's promote_types on two numbers (numba's Number.unify).
K promoteNumbers(K a, K b);

} // namespace pyk::sema::type_rules
