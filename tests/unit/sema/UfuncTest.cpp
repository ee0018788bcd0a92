// UfuncTest: numpy's casting rules as pyk has them (sema/catalog/Ufunc.h) against numpy's own
// np.can_cast tables, and numba's choice of a ufunc loop: the first loop in numpy's order that the
// operands cast to safely, any integer going to a float where integers and floats mix, the output
// reached by "same_kind".
#include <gtest/gtest.h>

#include <string>

#include "sema/catalog/Ufunc.h"

namespace {

using pyk::sema::Intrinsic;
using pyk::sema::matchUfuncLoop;
using pyk::sema::ufuncLoopText;
using pyk::types::ScalarKind;
using K = ScalarKind;

// numpy 2.4's np.can_cast(row, column, mode) over the letters ?bBhHiIqQfdFD (a '.' for False),
// printed by numpy itself: [''.join(b if np.can_cast(a, b, mode) else '.' for b in L) for a in L].
constexpr const char* kLetters = "?bBhHiIqQfdFD";
constexpr const char* kSafe[] = {"?bBhHiIqQfdFD", ".b.h.i.q.fdFD", "..BhHiIqQfdFD", "...h.i.q.fdFD",
                                 "....HiIqQfdFD", ".....i.q..d.D", "......IqQ.d.D", ".......q..d.D",
                                 "........Q.d.D", ".........fdFD", "..........d.D", "...........FD",
                                 "............D"};
constexpr const char* kSameKind[] = {
    "?bBhHiIqQfdFD", ".b.h.i.q.fdFD", ".bBhHiIqQfdFD", ".b.h.i.q.fdFD", ".bBhHiIqQfdFD",
    ".b.h.i.q.fdFD", ".bBhHiIqQfdFD", ".b.h.i.q.fdFD", ".bBhHiIqQfdFD", ".........fdFD",
    ".........fdFD", "...........FD", "...........FD"};
constexpr K kKinds[] = {K::Boolean, K::Int8,      K::UInt8,     K::Int16,  K::UInt16,
                        K::Int32,   K::UInt32,    K::Int64,     K::UInt64, K::Float32,
                        K::Float64, K::Complex64, K::Complex128};

TEST(Ufunc, CastingRulesAreNumpys) {
  for (int from = 0; from < 13; ++from)
    for (int to = 0; to < 13; ++to) {
      const bool safe = kSafe[from][to] != '.';
      const bool sameKind = kSameKind[from][to] != '.';
      EXPECT_EQ(pyk::sema::numpyCanCastSafely(kKinds[from], kKinds[to]), safe)
          << kLetters[from] << " -> " << kLetters[to] << " (safe)";
      EXPECT_EQ(pyk::sema::numpyCanCastSameKind(kKinds[from], kKinds[to]), sameKind)
          << kLetters[from] << " -> " << kLetters[to] << " (same_kind)";
    }
}

std::string loopFor(Intrinsic id, std::vector<K> inputs, std::vector<K> outputs = {}) {
  const auto loop = matchUfuncLoop(id, inputs, outputs);
  return loop ? ufuncLoopText(*loop) : "none";
}

TEST(Ufunc, LoopsAreNumbasChoice) {
  // Integers take the float64 loop of a math ufunc; int8 the float32 one (safe); float32 stays.
  EXPECT_EQ(loopFor(Intrinsic::NumpySin, {K::Int32}), "d->d");
  EXPECT_EQ(loopFor(Intrinsic::NumpySin, {K::Int8}), "f->f");
  EXPECT_EQ(loopFor(Intrinsic::NumpySin, {K::Float32}), "f->f");
  EXPECT_EQ(loopFor(Intrinsic::NumpySin, {K::Complex64}), "F->F");
  // Mixed integers and floats: any integer casts to the float's loop (numba's ufunc_can_cast).
  EXPECT_EQ(loopFor(Intrinsic::NumpyAdd, {K::Int64, K::Float32}), "ff->f");
  EXPECT_EQ(loopFor(Intrinsic::NumpyAdd, {K::Int32, K::UInt32}), "qq->q");
  // numpy >= 1.25's exact comparisons of int64 with uint64.
  EXPECT_EQ(loopFor(Intrinsic::NumpyLess, {K::Int64, K::UInt64}), "qQ->?");
  EXPECT_EQ(loopFor(Intrinsic::NumpyEqual, {K::UInt64, K::Int64}), "Qq->?");
  // The output must be reachable by same_kind: no float loop into an integer array.
  EXPECT_EQ(loopFor(Intrinsic::NumpySin, {K::Float64}, {K::Int64}), "none");
  EXPECT_EQ(loopFor(Intrinsic::NumpySin, {K::Float64}, {K::Float32}), "d->d");
  // Bitwise ufuncs have no float loops.
  EXPECT_EQ(loopFor(Intrinsic::NumpyBitwiseAnd, {K::Float64, K::Float64}), "none");
  EXPECT_EQ(loopFor(Intrinsic::NumpyBitwiseAnd, {K::Boolean, K::Boolean}), "?\?->?");
  EXPECT_FALSE(pyk::sema::isUfunc(Intrinsic::NumpySpacing)); // not compiled by pyk yet
  // Integer true division computes in float64; ldexp takes an integer exponent.
  EXPECT_EQ(loopFor(Intrinsic::NumpyDivide, {K::Int32, K::Int32}), "dd->d"); // numpy 2 has no ii->d
  EXPECT_EQ(loopFor(Intrinsic::NumpyLdexp, {K::Float32, K::Int64}), "fq->f"); // numpy: fl->f
  EXPECT_EQ(loopFor(Intrinsic::NumpyFloor, {K::Int16}), "h->h");
  // A loop numba-cuda compiles and pyk not yet is marked so (typing says so).
  const std::optional<pyk::sema::UfuncLoop> complexPower =
      pyk::sema::matchUfuncLoop(Intrinsic::NumpyPower, {K::Complex128, K::Complex128}, {});
  ASSERT_TRUE(complexPower.has_value());
  EXPECT_TRUE(complexPower->lowered);
  EXPECT_FALSE(complexPower->compiled);
}

} // namespace
