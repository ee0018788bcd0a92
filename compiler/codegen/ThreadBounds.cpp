// ThreadBounds: comparisons of a thread index (`cuda.threadIdx.x`, or a rematerialized local
// holding one, or a component of `cuda.grid(n)`) with a block-level value, read off `if` tests.
#include "codegen/ThreadBounds.h"

namespace pyk::codegen {

namespace {

std::optional<ThreadBounds::Alternatives> both(const std::optional<ThreadBounds::Alternatives>& a,
                                               const std::optional<ThreadBounds::Alternatives>& b) {
  if (!a)
    return b;
  if (!b)
    return a;
  ThreadBounds::Alternatives out;
  for (const auto& x : *a)
    for (const auto& y : *b) {
      out.push_back(x);
      out.back().insert(out.back().end(), y.begin(), y.end());
    }
  if (out.size() > ThreadBounds::kMaxAlternatives)
    return std::nullopt;
  return out;
}

// `a OP b` as `b OP' a`.
ast::CmpOpKind flip(ast::CmpOpKind op) {
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
}

} // namespace

bool ThreadBounds::sideEffectFree(const ast::Expr* e) {
  bool simple = true;
  ast::forEachNode(e, [&](const ast::Node* n) {
    if (n->is<ast::Call>() || n->is<ast::NamedExpr>() || n->is<ast::Subscript>())
      simple = false;
  });
  return simple;
}

// The axis of `e` when it is a thread's index on it: `cuda.threadIdx.x`, or a rematerialized
// local assigned that or a component of `cuda.grid(n)` (then `global`: the index plus
// blockIdx * blockDim on the axis); else -1.
int ThreadBounds::threadAxis(const ast::Expr* e, bool& global) const {
  global = false;
  if (const sema::Intrinsic id = kernel_.intrinsicOf(e); sema::isThreadIdx(id))
    return sema::indexAxis(id);
  const sema::FunctionScope& scope = kernel_.function->scope;
  const auto* n = e->as<ast::Name>();
  const std::optional<size_t> local = n != nullptr ? localIndex(scope, n) : std::nullopt;
  if (!local || !plan_.rematerializedLocals.count(*local))
    return -1;
  for (const ast::Stmt* st : plan_.rematerialized) {
    const auto* a = st->as<ast::Assign>();
    const auto* call = a->value->as<ast::Call>();
    const bool grid = call != nullptr && kernel_.intrinsicOf(call->func) == sema::Intrinsic::Grid;
    if (isLocal(scope, a->targets[0], *local)) {
      if (grid) {
        global = true;
        return 0;
      }
      return a->value->is<ast::Name>() ? -1 : threadAxis(a->value, global);
    }
    if (const auto* tuple = a->targets[0]->as<ast::Tuple>(); tuple != nullptr && grid)
      for (size_t i = 0; i < tuple->elts.size() && i < 3; ++i)
        if (isLocal(scope, tuple->elts[i], *local)) {
          global = true;
          return static_cast<int>(i);
        }
  }
  return -1;
}

// The value a rematerialized local is assigned (`inside = row < n and col < m`), or null.
const ast::Expr* ThreadBounds::rematerializedValue(const ast::Expr* e) const {
  const sema::FunctionScope& scope = kernel_.function->scope;
  const auto* n = e->as<ast::Name>();
  const std::optional<size_t> local = n != nullptr ? localIndex(scope, n) : std::nullopt;
  if (!local || !plan_.rematerializedLocals.count(*local))
    return nullptr;
  for (const ast::Stmt* st : plan_.rematerialized) {
    const auto* a = st->as<ast::Assign>();
    if (isLocal(scope, a->targets[0], *local))
      return a->value;
  }
  return nullptr;
}

// Whether the block can evaluate `e` before a region, as its first live thread sees it: a
// uniform signed integer (or a narrow unsigned one) made of constants, parameters and locals
// that live outside regions, that the region does not assign, and that reads no memory.
// Before the plan has placed its locals, only the first two conditions.
bool ThreadBounds::blockBound(const ast::Expr* e, const SplitStep& region) const {
  const sema::NumbaType* t = kernel_.typeOf(e);
  if (t == nullptr || !t->isScalar() || !uniformity_.uniform(e))
    return false;
  const sema::ScalarKind k = t->scalarKind();
  if (!sema::isInteger(k) || k == sema::ScalarKind::UInt64)
    return false;
  const sema::FunctionScope& scope = kernel_.function->scope;
  bool ok = true;
  ast::forEachNode(e, [&](const ast::Node* n) {
    if (n->is<ast::Call>() || n->is<ast::NamedExpr>())
      ok = false;
    if (const auto* s = n->as<ast::Subscript>()) {
      const sema::NumbaType* base = kernel_.typeOf(s->value);
      ok = ok && base != nullptr && base->isTuple();
    }
    const auto* x = n->as<ast::Name>();
    const std::optional<size_t> local = x != nullptr ? localIndex(scope, x) : std::nullopt;
    if (!local || !placed_)
      return;
    if (!plan_.perBlock.count(*local) && !plan_.perThread.count(*local) &&
        !plan_.rematerializedLocals.count(*local))
      ok = false;
    // (The rematerialized assignments the block computes itself before the bounds.)
    for (const RegionStatement& st : region.statements)
      if (!plan_.isRematerialized(st))
        st.forEachNode([&](const ast::Node* m) {
          if (isLocal(scope, m, *local) && m->as<ast::Name>()->ctx != ast::ExprContext::Load)
            ok = false;
        });
  });
  return ok;
}

std::optional<ThreadBounds::Alternatives> ThreadBounds::ofIf(const ast::Expr* test,
                                                             const ast::Stmt* onlyStatement,
                                                             const SplitStep& region) const {
  std::optional<Alternatives> out = of(test, region);
  if (onlyStatement != nullptr && sideEffectFree(test))
    out = both(out, of(onlyStatement, region));
  return out;
}

std::optional<ThreadBounds::Alternatives> ThreadBounds::of(const RegionStatement& st,
                                                           const SplitStep& region) const {
  if (st.guard != nullptr)
    return ofIf(st.guard->test, st.statement, region);
  return of(st.statement, region);
}

std::optional<ThreadBounds::Alternatives> ThreadBounds::of(const ast::Stmt* st,
                                                           const SplitStep& region) const {
  const auto* i = st->as<ast::If>();
  if (i == nullptr || !i->orelse.empty())
    return std::nullopt;
  return ofIf(i->test, i->body.size() == 1 ? i->body[0] : nullptr, region);
}

std::optional<ThreadBounds::Alternatives> ThreadBounds::of(const ast::Expr* test,
                                                           const SplitStep& region) const {
  if (const ast::Expr* value = rematerializedValue(test))
    return of(value, region);
  if (const auto* b = test->as<ast::BoolOp>()) {
    if (b->op == ast::BoolOpKind::And) {
      std::optional<Alternatives> out;
      for (const ast::Expr* v : b->values) {
        if (!sideEffectFree(v))
          break;
        out = both(out, of(v, region));
      }
      return out;
    }
    Alternatives out;
    for (const ast::Expr* v : b->values) {
      std::optional<Alternatives> part;
      if (sideEffectFree(v))
        part = of(v, region);
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
      if (int axis = threadAxis(left, global); axis >= 0 && blockBound(right, region))
        all.push_back({axis, op, right, global});
      else if (axis = threadAxis(right, global); axis >= 0 && blockBound(left, region))
        all.push_back({axis, flip(op), left, global});
    }
    left = right;
  }
  if (all.empty())
    return std::nullopt;
  return Alternatives{all};
}

bool ThreadBounds::exactTest(const ast::Expr* test, const SplitStep& region) const {
  if (const ast::Expr* value = rematerializedValue(test))
    return exactTest(value, region);
  if (const auto* b = test->as<ast::BoolOp>()) {
    if (b->op != ast::BoolOpKind::And)
      return false;
    for (const ast::Expr* v : b->values)
      if (!sideEffectFree(v) || !exactTest(v, region))
        return false;
    return true;
  }
  const auto* cmp = test->as<ast::Compare>();
  if (cmp == nullptr || !sideEffectFree(cmp))
    return false;
  std::optional<Alternatives> bounds = of(test, region);
  return bounds && bounds->size() == 1 && bounds->front().size() == cmp->ops.size();
}

} // namespace pyk::codegen
