// ThreadBounds: what the `if` tests of a split kernel's regions say of the thread indices, for
// the passes that shape regions by them (RegionDistribution, RegionNarrowing): the threads that
// can act in a statement, as alternative boxes (lists of ThreadBound that all hold), and whether
// a test holds for exactly the threads its bounds admit.
#pragma once

#include <optional>
#include <vector>

#include "codegen/cpu/CpuExecutionPlan.h"
#include "codegen/cpu/UniformityAnalysis.h"

namespace pyk::codegen {

class ThreadBounds {
public:
  // Their union: the threads that satisfy one alternative.
  using Alternatives = std::vector<std::vector<ThreadBound>>;
  static constexpr size_t kMaxAlternatives = 8;

  // `plan`: its rematerialized assignments and, once `placed`, where its locals live (a bound
  // must then be a value the block can compute before the region: see blockBound).
  ThreadBounds(const ir::Function& kernel, const UniformityAnalysis& uniformity,
               const BarrierSplitPlan& plan, bool placed)
      : kernel_(kernel), uniformity_(uniformity), plan_(plan), placed_(placed) {}

  // The threads for which a statement of `region` can do anything; nullopt: any thread may act.
  // An `if` without `else` gives its test's; when its test only computes and its body is one
  // such `if`, with that one's too (a thread acts only when both hold). A guarded statement is
  // the `if` of its guard's test around it alone.
  std::optional<Alternatives> of(const RegionStatement& st, const SplitStep& region) const;
  std::optional<Alternatives> of(const ir::Stmt* st, const SplitStep& region) const;
  // The same for a test: comparisons `t OP U` / `U OP t` of a thread index with a block-level
  // bound; `and` (its leading operands that only compute: a thread stops at the first false
  // one), `or` (when every operand only computes and is bounded), a rematerialized boolean local
  // through its value.
  std::optional<Alternatives> of(const ir::Expr* test, const SplitStep& region) const;

  // Whether `test` holds for exactly the threads its bounds admit: comparisons whose every link
  // is a bound, `and`s of such, rematerialized boolean locals holding one.
  bool exactTest(const ir::Expr* test, const SplitStep& region) const;

  // Whether `e` only computes: no call, memory read or tuple subscript.
  static bool sideEffectFree(const ir::Expr* e);
  // The rematerialized assignment of the local `e` reads, or null.
  const ir::Assign* rematerializedAssignment(const ir::Expr* e) const;

private:
  std::optional<Alternatives> ofIf(const ir::Expr* test, const ir::Stmt* onlyStatement,
                                   const SplitStep& region) const;
  std::optional<Alternatives> ofComparison(const ir::Compare* c, const SplitStep& region) const;
  int threadAxis(const ir::Expr* e, bool& global) const;
  const ir::Expr* rematerializedValue(const ir::Expr* e) const;
  bool blockBound(const ir::Expr* e, const SplitStep& region) const;

  const ir::Function& kernel_;
  const UniformityAnalysis& uniformity_;
  const BarrierSplitPlan& plan_;
  bool placed_;
};

} // namespace pyk::codegen
