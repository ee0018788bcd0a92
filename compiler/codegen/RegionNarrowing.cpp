// RegionNarrowing: the bounds `if` tests put on thread indices, as alternative boxes; which tests
// a box states exactly; the distribution of `if` bodies into regions.
#include "codegen/RegionNarrowing.h"

#include <algorithm>
#include <memory>
#include <optional>

namespace pyk::codegen {

using sema::Specialization;

namespace {

class RegionNarrowing {
public:
  RegionNarrowing(const Specialization& kernel, const UniformityAnalysis& uniformity)
      : kernel_(kernel), uniformity_(uniformity) {}

  // The axis of `e` when it is a thread's index on it: `cuda.threadIdx.x`, or a rematerialized
  // local assigned that or a component of `cuda.grid(n)` (then `global`: the index plus
  // blockIdx * blockDim on the axis); else -1.
  int threadAxis(const ast::Expr* e, const BarrierSplitPlan& plan, bool& global) const {
    global = false;
    if (const sema::Intrinsic id = kernel_.intrinsicOf(e); sema::isThreadIdx(id))
      return sema::indexAxis(id);
    const auto* n = e->as<ast::Name>();
    if (n == nullptr || !isLocal(n) || !plan.rematerializedLocals.count(n->id))
      return -1;
    for (const ast::Stmt* st : plan.rematerialized) {
      const auto* a = st->as<ast::Assign>();
      const auto* call = a->value->as<ast::Call>();
      const bool grid = call != nullptr && kernel_.intrinsicOf(call->func) == sema::Intrinsic::Grid;
      if (const auto* t = a->targets[0]->as<ast::Name>(); t != nullptr && t->id == n->id) {
        if (grid) {
          global = true;
          return 0;
        }
        return a->value->is<ast::Name>() ? -1 : threadAxis(a->value, plan, global);
      }
      if (const auto* tuple = a->targets[0]->as<ast::Tuple>(); tuple != nullptr && grid)
        for (size_t i = 0; i < tuple->elts.size() && i < 3; ++i)
          if (const auto* t = tuple->elts[i]->as<ast::Name>(); t != nullptr && t->id == n->id) {
            global = true;
            return static_cast<int>(i);
          }
    }
    return -1;
  }

  // The value a rematerialized local is assigned (`inside = row < n and col < m`), or null.
  const ast::Expr* rematerializedValue(const ast::Expr* e, const BarrierSplitPlan& plan) const {
    const auto* n = e->as<ast::Name>();
    if (n == nullptr || !isLocal(n) || !plan.rematerializedLocals.count(n->id))
      return nullptr;
    for (const ast::Stmt* st : plan.rematerialized) {
      const auto* a = st->as<ast::Assign>();
      if (const auto* t = a->targets[0]->as<ast::Name>(); t != nullptr && t->id == n->id)
        return a->value;
    }
    return nullptr;
  }

  // Whether the block can evaluate `e` before a region, as its first live thread sees it: a
  // uniform signed integer (or a narrow unsigned one) made of constants, parameters and locals
  // that live outside regions, that the region does not assign, and that reads no memory.
  // Before the plan has placed its locals (`placed` false), only the first two conditions.
  bool blockBound(const ast::Expr* e, const SplitStep& region, const BarrierSplitPlan& plan,
                  bool placed) const {
    const sema::NumbaType* t = kernel_.typeOf(e);
    if (t == nullptr || !t->isScalar() || !uniformity_.uniform(e))
      return false;
    const sema::ScalarKind k = t->scalarKind();
    if (!sema::isInteger(k) || k == sema::ScalarKind::UInt64)
      return false;
    bool ok = true;
    ast::forEachNode(e, [&](const ast::Node* n) {
      if (n->is<ast::Call>() || n->is<ast::NamedExpr>())
        ok = false;
      if (const auto* s = n->as<ast::Subscript>()) {
        const sema::NumbaType* base = kernel_.typeOf(s->value);
        ok = ok && base != nullptr && base->isTuple();
      }
      const auto* x = n->as<ast::Name>();
      if (x == nullptr || !isLocal(x) || !placed)
        return;
      if (!plan.perBlock.count(x->id) && !plan.perThread.count(x->id) &&
          !plan.rematerializedLocals.count(x->id))
        ok = false;
      // (The rematerialized assignments the block computes itself before the bounds.)
      for (const ast::Stmt* st : region.statements)
        if (std::find(plan.rematerialized.begin(), plan.rematerialized.end(), st) ==
            plan.rematerialized.end())
          ast::forEachNode(st, [&](const ast::Node* m) {
            if (const auto* y = m->as<ast::Name>();
                y && y->id == x->id && y->ctx != ast::ExprContext::Load)
              ok = false;
          });
    });
    return ok;
  }

  // Whether `e` only computes: no call, walrus or memory read.
  static bool sideEffectFree(const ast::Expr* e) {
    bool simple = true;
    ast::forEachNode(e, [&](const ast::Node* n) {
      if (n->is<ast::Call>() || n->is<ast::NamedExpr>() || n->is<ast::Subscript>())
        simple = false;
    });
    return simple;
  }

  // The threads for which a region statement can do anything, as alternatives (their union):
  // each a list of bounds that all hold. nullopt: any thread may act. An `if` without `else`
  // gives its test's; when its test only computes and its body is one such `if`, with that
  // one's too (a thread acts only when both hold).
  using Alternatives = std::vector<std::vector<ThreadBound>>;
  static constexpr size_t kMaxAlternatives = 8;

  static std::optional<Alternatives> both(const std::optional<Alternatives>& a,
                                          const std::optional<Alternatives>& b) {
    if (!a)
      return b;
    if (!b)
      return a;
    Alternatives out;
    for (const auto& x : *a)
      for (const auto& y : *b) {
        out.push_back(x);
        out.back().insert(out.back().end(), y.begin(), y.end());
      }
    if (out.size() > kMaxAlternatives)
      return std::nullopt;
    return out;
  }

  std::optional<Alternatives> boundsOf(const ast::Stmt* st, const SplitStep& region,
                                       const BarrierSplitPlan& plan, bool placed) const {
    const auto* i = st->as<ast::If>();
    if (i == nullptr || !i->orelse.empty())
      return std::nullopt;
    std::optional<Alternatives> out = boundsOf(i->test, region, plan, placed);
    if (i->body.size() == 1 && sideEffectFree(i->test))
      out = both(out, boundsOf(i->body[0], region, plan, placed));
    return out;
  }

  // The same for a test: comparisons `t OP U` / `U OP t` of a thread index with a block-level
  // bound; `and` (its leading operands that only compute: a thread stops at the first false
  // one), `or` (when every operand only computes and is bounded), a rematerialized boolean local
  // through its value.
  std::optional<Alternatives> boundsOf(const ast::Expr* test, const SplitStep& region,
                                       const BarrierSplitPlan& plan, bool placed) const {
    if (const ast::Expr* value = rematerializedValue(test, plan))
      return boundsOf(value, region, plan, placed);
    if (const auto* b = test->as<ast::BoolOp>()) {
      if (b->op == ast::BoolOpKind::And) {
        std::optional<Alternatives> out;
        for (const ast::Expr* v : b->values) {
          if (!sideEffectFree(v))
            break;
          out = both(out, boundsOf(v, region, plan, placed));
        }
        return out;
      }
      Alternatives out;
      for (const ast::Expr* v : b->values) {
        std::optional<Alternatives> part;
        if (sideEffectFree(v))
          part = boundsOf(v, region, plan, placed);
        if (!part)
          return std::nullopt;
        out.insert(out.end(), part->begin(), part->end());
      }
      if (out.size() > kMaxAlternatives)
        return std::nullopt;
      return out;
    }
    const auto* cmp = test->as<ast::Compare>();
    if (cmp == nullptr || !sideEffectFree(cmp))
      return std::nullopt;
    auto flip = [](ast::CmpOpKind op) {
      switch (op) {
      case ast::CmpOpKind::Lt:
        return ast::CmpOpKind::Gt;
      case ast::CmpOpKind::LtE:
        return ast::CmpOpKind::GtE;
      case ast::CmpOpKind::Gt:
        return ast::CmpOpKind::Lt;
      case ast::CmpOpKind::GtE:
        return ast::CmpOpKind::LtE;
      default:
        return op;
      }
    };
    std::vector<ThreadBound> all;
    const ast::Expr* left = cmp->left;
    for (size_t i = 0; i < cmp->ops.size(); ++i) {
      const ast::Expr* right = cmp->comparators[i];
      const ast::CmpOpKind op = cmp->ops[i];
      const bool ordered = op == ast::CmpOpKind::Lt || op == ast::CmpOpKind::LtE ||
                           op == ast::CmpOpKind::Gt || op == ast::CmpOpKind::GtE ||
                           op == ast::CmpOpKind::Eq;
      bool global = false;
      if (ordered) {
        if (int axis = threadAxis(left, plan, global);
            axis >= 0 && blockBound(right, region, plan, placed))
          all.push_back({axis, op, right, global});
        else if (axis = threadAxis(right, plan, global);
                 axis >= 0 && blockBound(left, region, plan, placed))
          all.push_back({axis, flip(op), left, global});
      }
      left = right;
    }
    if (all.empty())
      return std::nullopt;
    return Alternatives{all};
  }

  // Whether `test` holds for exactly the threads its bounds admit: comparisons whose every link
  // is a bound, `and`s of such, rematerialized boolean locals holding one.
  bool exactTest(const ast::Expr* test, const SplitStep& region,
                 const BarrierSplitPlan& plan) const {
    if (const ast::Expr* value = rematerializedValue(test, plan))
      return exactTest(value, region, plan);
    if (const auto* b = test->as<ast::BoolOp>()) {
      if (b->op != ast::BoolOpKind::And)
        return false;
      for (const ast::Expr* v : b->values)
        if (!sideEffectFree(v) || !exactTest(v, region, plan))
          return false;
      return true;
    }
    const auto* cmp = test->as<ast::Compare>();
    if (cmp == nullptr || !sideEffectFree(cmp))
      return false;
    std::optional<Alternatives> bounds = boundsOf(test, region, plan, true);
    return bounds && bounds->size() == 1 && bounds->front().size() == cmp->ops.size();
  }

  // A narrowed region's statements without the tests its box makes always true (see
  // SplitStep::exactBody), or empty.
  std::vector<const ast::Stmt*> exactBodyOf(const SplitStep& s,
                                            const BarrierSplitPlan& plan) const {
    const ast::If* only = nullptr;
    bool rematerializedAfter = false;
    for (const ast::Stmt* st : s.statements) {
      const bool remat = std::find(plan.rematerialized.begin(), plan.rematerialized.end(), st) !=
                         plan.rematerialized.end();
      if (remat) {
        rematerializedAfter = rematerializedAfter || only != nullptr;
        continue;
      }
      if (only != nullptr)
        return {};
      only = st->as<ast::If>();
      if (only == nullptr)
        return {};
    }
    // Every alternative of the box holds the bounds of each test on the way in, so even the hull
    // of several lies inside the box an exact test admits: such a test always holds there.
    if (only == nullptr || rematerializedAfter || !only->orelse.empty() ||
        !exactTest(only->test, s, plan))
      return {};
    const ast::If* inner = only;
    while (inner->body.size() == 1) {
      const auto* next = inner->body[0]->as<ast::If>();
      if (next == nullptr || !next->orelse.empty() || !exactTest(next->test, s, plan))
        break;
      inner = next;
    }
    return {inner->body.begin(), inner->body.end()};
  }

  // Distributes regions so that statements only some threads act in (by their bounds) run in
  // regions of their own: `if P: S1; S2; ...` (P only computes, the body assigns none of its
  // names) whose body holds such a statement becomes `if P: S1`, `if P: S2`, ...; then each
  // such statement is a region of its own, and the statements between them another. Running
  // one statement for every thread before the next is a schedule CUDA allows (as if a barrier
  // stood between them); values passing from one to the next are carried as across barriers.
  void distributeRegions(std::vector<SplitStep>& list, BarrierSplitPlan& plan) {
    std::vector<SplitStep> out;
    for (SplitStep& s : list) {
      distributeRegions(s.body, plan);
      distributeRegions(s.orelse, plan);
      if (s.kind != SplitStep::Kind::Region) {
        out.push_back(std::move(s));
        continue;
      }
      auto bounded = [&](const ast::Stmt* st) { return boundsOf(st, s, plan, false).has_value(); };
      std::vector<const ast::Stmt*> expanded;
      for (const ast::Stmt* st : s.statements) {
        const auto* i = st->as<ast::If>();
        bool split = i != nullptr && i->orelse.empty() && i->body.size() > 1 &&
                     sideEffectFree(i->test) &&
                     std::any_of(i->body.begin(), i->body.end(), bounded);
        if (split)
          ast::forEachNode(i->test, [&](const ast::Node* n) {
            if (const auto* x = n->as<ast::Name>(); x && isLocal(x))
              for (const ast::Stmt* b : i->body)
                ast::forEachNode(b, [&](const ast::Node* m) {
                  if (const auto* y = m->as<ast::Name>();
                      y && y->id == x->id && y->ctx != ast::ExprContext::Load)
                    split = false;
                });
          });
        if (!split) {
          expanded.push_back(st);
          continue;
        }
        for (ast::Stmt* b : i->body) {
          auto part = std::make_unique<ast::If>();
          part->range = i->range;
          part->test = i->test;
          part->body = {b};
          expanded.push_back(part.get());
          plan.distributed.push_back(std::move(part));
        }
      }
      std::vector<SplitStep> parts;
      for (const ast::Stmt* st : expanded) {
        const bool alone = bounded(st);
        if (alone || parts.empty() || !parts.back().narrowing.empty())
          parts.emplace_back();
        parts.back().statements.push_back(st);
        if (alone)
          parts.back().narrowing.emplace_back(); // marks it alone; narrowRegions fills it in
      }
      // A part of rematerialized assignments alone would compute what every later region
      // computes again: it joins the next.
      auto rematerializedOnly = [&](const SplitStep& part) {
        return std::all_of(
            part.statements.begin(), part.statements.end(), [&](const ast::Stmt* st) {
              return std::find(plan.rematerialized.begin(), plan.rematerialized.end(), st) !=
                     plan.rematerialized.end();
            });
      };
      if (parts.size() > 1 && rematerializedOnly(parts[0])) {
        parts[1].statements.insert(parts[1].statements.begin(), parts[0].statements.begin(),
                                   parts[0].statements.end());
        parts.erase(parts.begin());
      }
      // The rematerialized assignments must stay in the region where the source has them.
      bool keep = parts.size() <= 1;
      for (const ast::Stmt* r : plan.rematerialized)
        if (std::find(s.statements.begin(), s.statements.end(), r) != s.statements.end() &&
            std::find(parts[0].statements.begin(), parts[0].statements.end(), r) ==
                parts[0].statements.end())
          keep = true;
      if (keep) {
        out.push_back(std::move(s));
        continue;
      }
      for (SplitStep& part : parts) {
        part.narrowing.clear();
        out.push_back(std::move(part));
      }
    }
    list = std::move(out);
  }

  void narrowRegions(std::vector<SplitStep>& list, const BarrierSplitPlan& plan) const {
    for (SplitStep& s : list) {
      narrowRegions(s.body, plan);
      narrowRegions(s.orelse, plan);
      if (s.kind != SplitStep::Kind::Region)
        continue;
      Alternatives narrowing;
      bool narrowed = true;
      for (const ast::Stmt* st : s.statements) {
        if (std::find(plan.rematerialized.begin(), plan.rematerialized.end(), st) !=
            plan.rematerialized.end())
          continue;
        std::optional<Alternatives> bounds = boundsOf(st, s, plan, true);
        narrowed = narrowed && bounds.has_value(); // else a statement every thread may run
        if (bounds)
          narrowing.insert(narrowing.end(), bounds->begin(), bounds->end());
      }
      if (narrowed) {
        s.narrowing = std::move(narrowing);
        s.exactBody = exactBodyOf(s, plan);
      }
    }
  }

private:
  bool isLocal(const ast::Name* n) const {
    auto it = kernel_.function->scope.names.find(n);
    return it != kernel_.function->scope.names.end() &&
           it->second.kind == sema::NameBinding::Kind::Local;
  }

  const Specialization& kernel_;
  const UniformityAnalysis& uniformity_;
};

} // namespace

void distributeRegions(const Specialization& kernel, const UniformityAnalysis& uniformity,
                       std::vector<SplitStep>& steps, BarrierSplitPlan& plan) {
  RegionNarrowing(kernel, uniformity).distributeRegions(steps, plan);
}

void narrowRegions(const Specialization& kernel, const UniformityAnalysis& uniformity,
                   std::vector<SplitStep>& steps, const BarrierSplitPlan& plan) {
  RegionNarrowing(kernel, uniformity).narrowRegions(steps, plan);
}

} // namespace pyk::codegen
