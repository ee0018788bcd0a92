// ThreadBounds: comparisons of a thread index (`cuda.threadIdx.x`, or a rematerialized local
// holding one, or a component of `cuda.grid(n)`) with a block-level value, read off `if` tests.
#include "codegen/cpu/ThreadBounds.h"

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
ir::CompareOp flip(ir::CompareOp op) {
  switch (op) {
  case ir::CompareOp::Lt:
    return ir::CompareOp::Gt;
  case ir::CompareOp::LtE:
    return ir::CompareOp::GtE;
  case ir::CompareOp::Gt:
    return ir::CompareOp::Lt;
  case ir::CompareOp::GtE:
    return ir::CompareOp::LtE;
  default:
    return op;
  }
}

// A call of any kind (what the source wrote as one).
bool isCall(const ir::Node* n) {
  if (const auto* c = n->as<ir::Cast>())
    return c->written;
  if (const auto* t = n->as<ir::MakeTuple>())
    return t->type.isNamedTuple();
  return n->is<ir::Call>() || n->is<ir::SpreadCall>() || n->is<ir::IntrinsicCall>() ||
         n->is<ir::MethodCall>() || n->is<ir::Print>() || n->is<ir::ArrayAllocation>();
}

// The `and` / `or` a test is (of booleans, or with Python's value semantics): its operator and
// operands, or null.
const std::vector<ir::Expr*>* logicalOperands(const ir::Expr* e, ir::LogicalOp& op) {
  if (const auto* l = e->as<ir::Logical>()) {
    op = l->op;
    return &l->operands;
  }
  if (const auto* l = e->as<ir::LogicalValue>()) {
    op = l->op;
    return &l->operands;
  }
  return nullptr;
}

} // namespace

bool ThreadBounds::sideEffectFree(const ir::Expr* e) {
  bool simple = true;
  ir::forEachNode(static_cast<const ir::Node*>(e), [&](const ir::Node* n) {
    const auto* element = n->as<ir::TupleElement>();
    if (isCall(n) || n->is<ir::ArrayElement>() || n->is<ir::ArrayView>() ||
        n->is<ir::RecordField>() || n->is<ir::RecordArrayField>() || n->is<ir::TupleSubscript>() ||
        (element != nullptr && !element->byField))
      simple = false;
  });
  return simple;
}

const ir::Assign* ThreadBounds::rematerializedAssignment(const ir::Expr* e) const {
  const std::optional<sema::VariableId> v = readOf(unconverted(e));
  if (!v || !plan_.rematerializedLocals.count(*v))
    return nullptr;
  for (const ir::Stmt* st : plan_.rematerialized) {
    const auto* a = st->as<ir::Assign>();
    bool assigns = false;
    forEachTargetVariable(a->targets[0], [&](sema::VariableId x) { assigns = assigns || x == *v; });
    if (assigns)
      return a;
  }
  return nullptr;
}

// The axis of `e` when it is a thread's index on it: `cuda.threadIdx.x`, or a rematerialized
// local assigned that or a component of `cuda.grid(n)` (then `global`: the index plus
// blockIdx * blockDim on the axis); else -1.
int ThreadBounds::threadAxis(const ir::Expr* e, bool& global) const {
  global = false;
  e = unconverted(e);
  if (const auto* v = e->as<ir::IntrinsicValue>(); v != nullptr && sema::isThreadIdx(v->intrinsic))
    return sema::indexAxis(v->intrinsic);
  const ir::Assign* a = rematerializedAssignment(e);
  if (a == nullptr)
    return -1;
  const sema::VariableId v = *readOf(e);
  const auto* call = a->value->as<ir::IntrinsicCall>();
  const bool grid = call != nullptr && call->intrinsic == sema::Intrinsic::Grid;
  if (const auto* unpack = a->targets[0]->as<ir::UnpackTarget>()) {
    if (grid)
      for (size_t i = 0; i < unpack->elements.size() && i < 3; ++i)
        if (storeOf(unpack->elements[i]) == v) {
          global = true;
          return static_cast<int>(i);
        }
    return -1;
  }
  if (grid) {
    global = true;
    return 0;
  }
  const ir::Expr* value = unconverted(a->value);
  return value->is<ir::Read>() || value->is<ir::FrozenConstant>() ? -1 : threadAxis(value, global);
}

// The value a rematerialized local is assigned (`inside = row < n and col < m`), or null.
const ir::Expr* ThreadBounds::rematerializedValue(const ir::Expr* e) const {
  const ir::Assign* a = rematerializedAssignment(e);
  return a != nullptr && a->targets[0]->is<ir::LocalTarget>() ? a->value : nullptr;
}

// Whether the block can evaluate `e` before a region, as its first live thread sees it: a
// uniform signed integer (or a narrow unsigned one) made of constants, parameters and locals
// that live outside regions, that the region does not assign, and that reads no memory.
// Before the plan has placed its locals, only the first two conditions.
bool ThreadBounds::blockBound(const ir::Expr* e, const SplitStep& region) const {
  const types::NumbaType& t = e->type;
  if (!t.isScalar() || !uniformity_.uniform(e))
    return false;
  const types::ScalarKind k = t.scalarKind();
  if (!types::isInteger(k) || k == types::ScalarKind::UInt64)
    return false;
  bool ok = true;
  ir::forEachNode(static_cast<const ir::Node*>(e), [&](const ir::Node* n) {
    if (isCall(n) || n->is<ir::ArrayElement>() || n->is<ir::ArrayView>())
      ok = false;
    const std::optional<sema::VariableId> local = readOf(n);
    if (!local || kernel_.variables[*local].parameter || !placed_)
      return;
    if (!plan_.perBlock.count(*local) && !plan_.perThread.count(*local) &&
        !plan_.rematerializedLocals.count(*local))
      ok = false;
    // (The rematerialized assignments the block computes itself before the bounds.)
    for (const RegionStatement& st : region.statements)
      if (!plan_.isRematerialized(st))
        st.forEachNode([&](const ir::Node* m) {
          if (storeOf(m) == *local)
            ok = false;
        });
  });
  return ok;
}

std::optional<ThreadBounds::Alternatives> ThreadBounds::ofIf(const ir::Expr* test,
                                                             const ir::Stmt* onlyStatement,
                                                             const SplitStep& region) const {
  std::optional<Alternatives> out = of(test, region);
  if (onlyStatement != nullptr && sideEffectFree(test))
    out = both(out, of(onlyStatement, region));
  return out;
}

std::optional<ThreadBounds::Alternatives> ThreadBounds::of(const RegionStatement& st,
                                                           const SplitStep& region) const {
  if (st.guard != nullptr)
    return ofIf(st.guard->condition, st.statement, region);
  return of(st.statement, region);
}

std::optional<ThreadBounds::Alternatives> ThreadBounds::of(const ir::Stmt* st,
                                                           const SplitStep& region) const {
  const auto* i = st->as<ir::If>();
  if (i == nullptr || !i->otherwise.empty())
    return std::nullopt;
  return ofIf(i->condition, i->then.size() == 1 ? i->then[0] : nullptr, region);
}

std::optional<ThreadBounds::Alternatives> ThreadBounds::of(const ir::Expr* test,
                                                           const SplitStep& region) const {
  test = unconverted(test);
  if (const ir::Expr* value = rematerializedValue(test))
    return of(value, region);
  ir::LogicalOp op = ir::LogicalOp::And;
  if (const std::vector<ir::Expr*>* operands = logicalOperands(test, op)) {
    if (op == ir::LogicalOp::And) {
      std::optional<Alternatives> out;
      for (const ir::Expr* v : *operands) {
        if (!sideEffectFree(v))
          break;
        out = both(out, of(v, region));
      }
      return out;
    }
    Alternatives out;
    for (const ir::Expr* v : *operands) {
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
  const auto* cmp = test->as<ir::Compare>();
  if (cmp == nullptr || !sideEffectFree(cmp))
    return std::nullopt;
  return ofComparison(cmp, region);
}

std::optional<ThreadBounds::Alternatives>
ThreadBounds::ofComparison(const ir::Compare* cmp, const SplitStep& region) const {
  if (cmp->op == ir::CompareOp::NotEq)
    return std::nullopt;
  const ir::Expr* left = unconverted(cmp->lhs);
  const ir::Expr* right = unconverted(cmp->rhs);
  bool global = false;
  if (int axis = threadAxis(left, global); axis >= 0 && blockBound(right, region))
    return Alternatives{{ThreadBound{axis, cmp->op, right, global}}};
  if (int axis = threadAxis(right, global); axis >= 0 && blockBound(left, region))
    return Alternatives{{ThreadBound{axis, flip(cmp->op), left, global}}};
  return std::nullopt;
}

bool ThreadBounds::exactTest(const ir::Expr* test, const SplitStep& region) const {
  test = unconverted(test);
  if (const ir::Expr* value = rematerializedValue(test))
    return exactTest(value, region);
  ir::LogicalOp op = ir::LogicalOp::And;
  if (const std::vector<ir::Expr*>* operands = logicalOperands(test, op)) {
    if (op != ir::LogicalOp::And)
      return false;
    for (const ir::Expr* v : *operands)
      if (!sideEffectFree(v) || !exactTest(v, region))
        return false;
    return true;
  }
  const auto* cmp = test->as<ir::Compare>();
  return cmp != nullptr && sideEffectFree(cmp) && ofComparison(cmp, region).has_value();
}

} // namespace pyk::codegen
