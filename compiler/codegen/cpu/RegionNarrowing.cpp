// RegionNarrowing: a region's box, the union of its statements' bound alternatives; the body a
// box makes exact; the two boxes of a region that is one `if` with `else` on one bound.
#include "codegen/cpu/RegionNarrowing.h"

#include "codegen/cpu/ThreadBounds.h"

#include <functional>
#include <set>

namespace pyk::codegen {

namespace {

// `not (t OP b)` as `t OP' b`, for the orders (an integer index and bound: exact).
ir::CompareOp negation(ir::CompareOp op) {
  switch (op) {
  case ir::CompareOp::Lt:
    return ir::CompareOp::GtE;
  case ir::CompareOp::LtE:
    return ir::CompareOp::Gt;
  case ir::CompareOp::Gt:
    return ir::CompareOp::LtE;
  default: // GtE
    return ir::CompareOp::Lt;
  }
}

class RegionNarrowing {
public:
  RegionNarrowing(const ir::Function& kernel, const UniformityAnalysis& uniformity,
                  const BarrierSplitPlan& plan)
      : plan_(plan), bounds_(kernel, uniformity, plan, true) {}

  void narrow(std::vector<SplitStep>& list) const {
    for (SplitStep& s : list) {
      narrow(s.body);
      narrow(s.orelse);
      if (s.kind != SplitStep::Kind::Region)
        continue;
      ThreadBounds::Alternatives narrowing;
      bool narrowed = true;
      for (const RegionStatement& st : s.statements) {
        if (plan_.isRematerialized(st))
          continue;
        std::optional<ThreadBounds::Alternatives> bounds = bounds_.of(st, s);
        narrowed = narrowed && bounds.has_value(); // else a statement every thread may run
        if (bounds)
          narrowing.insert(narrowing.end(), bounds->begin(), bounds->end());
      }
      if (narrowed) {
        s.narrowing = std::move(narrowing);
        if (std::optional<ExactPart> part = exactPartOf(s))
          s.exactParts = {std::move(*part)};
      } else {
        s.exactParts = branchPartsOf(s);
      }
      s.blockTests = blockTestsOf(s);
    }
  }

private:
  // An `if` without `else` as a test and a body: a statement's own, or a guard's around a
  // distributed statement.
  struct Conditional {
    const ir::Expr* test = nullptr;
    std::vector<const ir::Stmt*> body;
  };
  static std::optional<Conditional> conditionalOf(const ir::Stmt* s) {
    const auto* i = s->as<ir::If>();
    if (i == nullptr || !i->otherwise.empty())
      return std::nullopt;
    return Conditional{i->condition, {i->then.begin(), i->then.end()}};
  }

  // The comparisons of a grid index with a block-level bound the region's threads evaluate (see
  // SplitStep::blockTests), through the rematerialized locals they read; none when there are more
  // than kMaxBlockTests.
  static constexpr size_t kMaxBlockTests = 8;
  std::vector<std::pair<const ir::Compare*, ThreadBound>> blockTestsOf(const SplitStep& s) const {
    // A box one thread wide on an axis (`if tx == 0:`, a tile's halo) runs too few threads for
    // its tests to cost much; a copy of its loop would (GCC stops inlining the thread loops of a
    // kernel grown too large: the diffusion step on one core of the AMD VM, 3.4 ms before its
    // halo regions had copies, 8.1 ms after).
    for (const std::vector<ThreadBound>& alternative : s.narrowing)
      for (const ThreadBound& b : alternative)
        if (b.op == ir::CompareOp::Eq)
          return {};
    std::vector<std::pair<const ir::Compare*, ThreadBound>> tests;
    std::set<const ir::Assign*> followed;
    std::function<void(const ir::Node*)> visit = [&](const ir::Node* n) {
      // A rematerialized local read: the tests of its value (`inside = row < n and col < m`).
      if (const auto* e = n->as<ir::Expr>())
        if (const ir::Assign* a = bounds_.rematerializedAssignment(e);
            a != nullptr && followed.insert(a).second)
          ir::forEachNode(static_cast<const ir::Node*>(a->value), visit);
      const auto* cmp = n->as<ir::Compare>();
      if (cmp == nullptr || cmp->op == ir::CompareOp::Eq || !ThreadBounds::sideEffectFree(cmp))
        return;
      const std::optional<ThreadBounds::Alternatives> bounds = bounds_.of(cmp, s);
      if (bounds && bounds->size() == 1 && bounds->front().size() == 1 &&
          bounds->front().front().global)
        tests.emplace_back(cmp, bounds->front().front());
    };
    if (s.exactParts.empty()) {
      for (const RegionStatement& st : s.statements)
        if (!plan_.isRematerialized(st))
          st.forEachNode(visit);
    } else { // (the tests the parts' boxes make exact are gone)
      for (const ExactPart& part : s.exactParts)
        for (const ir::Stmt* st : part.statements)
          ir::forEachNode(static_cast<const ir::Node*>(st), visit);
    }
    if (tests.size() > kMaxBlockTests)
      tests.clear();
    return tests;
  }

  // The one statement of a region besides the rematerialized assignments before it, or null.
  const RegionStatement* onlyStatement(const SplitStep& s) const {
    const RegionStatement* only = nullptr;
    for (const RegionStatement& st : s.statements) {
      if (plan_.isRematerialized(st)) {
        if (only != nullptr)
          return nullptr;
        continue;
      }
      if (only != nullptr)
        return nullptr;
      only = &st;
    }
    return only;
  }

  // A narrowed region's statements without the tests its box makes always true (see
  // SplitStep::exactParts), or nothing.
  std::optional<ExactPart> exactPartOf(const SplitStep& s) const {
    const RegionStatement* only = onlyStatement(s);
    if (only == nullptr || (only->guard == nullptr && !only->statement->is<ir::If>()))
      return std::nullopt;
    ExactPart part{s.narrowing, {}, {}};
    const ir::Expr* test = nullptr;
    if (only->guard != nullptr) {
      test = only->guard->condition;
      part.statements = {only->statement}; // (the guard's join follows its last statement)
    } else {
      const auto* i = only->statement->as<ir::If>();
      if (!i->otherwise.empty())
        return std::nullopt;
      test = i->condition;
      part.statements = {i->then.begin(), i->then.end()};
      part.branches = {{i, true}};
    }
    // Every alternative of the box holds the bounds of each test on the way in, so even the hull
    // of several lies inside the box an exact test admits: such a test always holds there.
    if (!bounds_.exactTest(test, s))
      return std::nullopt;
    while (part.statements.size() == 1) {
      const auto* inner = part.statements[0]->as<ir::If>();
      if (inner == nullptr || !inner->otherwise.empty() || !bounds_.exactTest(inner->condition, s))
        break;
      part.statements = {inner->then.begin(), inner->then.end()};
      part.branches.emplace_back(inner, true);
    }
    return part;
  }

  // A region that is one `if T: A else: B` whose test is one exact bound of a thread index
  // (`if i < a.size:`, `if tid >= stride:`): A over the box T admits, B over the box of its
  // negation. GCC would otherwise mask every load and store of A and B by T (the block reduction's
  // loading loop on one core of the AMD VM: 11.4 ms masked, 2.5 ms split, as fast as the
  // hand-written sum). A test `==` is not split: its negation is two boxes.
  std::vector<ExactPart> branchPartsOf(const SplitStep& s) const {
    const RegionStatement* only = onlyStatement(s);
    const auto* i =
        only != nullptr && only->guard == nullptr ? only->statement->as<ir::If>() : nullptr;
    if (i == nullptr || i->otherwise.empty() || !bounds_.exactTest(i->condition, s))
      return {};
    const std::optional<ThreadBounds::Alternatives> bounds = bounds_.of(i->condition, s);
    if (!bounds || bounds->size() != 1 || bounds->front().size() != 1)
      return {};
    const ThreadBound taken = bounds->front().front();
    if (taken.op == ir::CompareOp::Eq)
      return {};
    ThreadBound rest = taken;
    rest.op = negation(taken.op);
    return {ExactPart{{{taken}}, {i->then.begin(), i->then.end()}, {{i, true}}},
            ExactPart{{{rest}}, {i->otherwise.begin(), i->otherwise.end()}, {{i, false}}}};
  }

  const BarrierSplitPlan& plan_;
  ThreadBounds bounds_;
};

} // namespace

void narrowRegions(const ir::Function& kernel, const UniformityAnalysis& uniformity,
                   BarrierSplitPlan& plan) {
  RegionNarrowing(kernel, uniformity, plan).narrow(plan.steps);
}

} // namespace pyk::codegen
