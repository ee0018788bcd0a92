// GridStrideLoops: the start, stop and step of a `for` loop read off the typed IR, through the
// single assignment of each version a bound reads.
#include "codegen/cpu/GridStrideLoops.h"

#include "codegen/cpu/ThreadModelScan.h"

#include <functional>
#include <set>

namespace pyk::codegen {

namespace {

constexpr int kMaxFollowed = 8; // assignments followed from a bound

// A barrier in the loop's body.
bool strideBodyWaits(const std::vector<ir::Stmt*>& body) {
  for (const ir::Stmt* s : body)
    if (firstIntrinsicCall(s, sema::intrinsic_flags::Barrier) != nullptr)
      return true;
  return false;
}

} // namespace

GridStrideLoops::GridStrideLoops(const ir::Function& kernel, const UniformityAnalysis& uniformity)
    : kernel_(kernel), uniformity_(uniformity) {
  ir::forEachNode(kernel.body, [&](const ir::Node* n) {
    const auto* a = n->as<ir::Assign>();
    if (a == nullptr || a->targets.size() != 1)
      return;
    if (const auto* t = a->targets[0]->as<ir::LocalTarget>()) {
      definitions_[t->variable.version] = {a->value, -1};
    } else if (const auto* u = a->targets[0]->as<ir::UnpackTarget>()) {
      for (size_t i = 0; i < u->elements.size(); ++i)
        if (const auto* e = u->elements[i]->as<ir::LocalTarget>())
          definitions_[e->variable.version] = {a->value, static_cast<int>(i)};
    }
  });
}

const ir::Expr* GridStrideLoops::definition(const ir::Expr* e, int& element) const {
  const auto* r = e->as<ir::Read>();
  if (r == nullptr || kernel_.variables[r->variable.variable].parameter)
    return nullptr;
  const auto it = definitions_.find(r->variable.version);
  if (it == definitions_.end())
    return nullptr;
  element = it->second.second;
  const ir::Expr* value = it->second.first;
  // `start, stride = cuda.grid(1), cuda.gridsize(1)`: the tuple's item.
  if (const auto* t = unconverted(value)->as<ir::MakeTuple>(); t != nullptr && element >= 0) {
    if (static_cast<size_t>(element) >= t->elements.size())
      return nullptr;
    value = t->elements[static_cast<size_t>(element)];
    element = -1;
  }
  return value;
}

bool GridStrideLoops::flowsFrom(size_t version, size_t from, int depth) const {
  if (version == from)
    return true;
  const ir::Version& v = kernel_.versions[version];
  if (v.kind != ir::Version::Kind::Phi || depth > 2 * kMaxFollowed)
    return v.kind == ir::Version::Kind::Phi; // (a long chain of joins: assume it does)
  for (const ir::PhiInput& in : v.inputs)
    if (flowsFrom(in.version, from, depth + 1))
      return true;
  return false;
}

// `t[k]` with k a constant: k and the tuple; else -1.
static int itemOf(const ir::Expr* e, const ir::Expr*& tuple) {
  if (const auto* t = e->as<ir::TupleElement>(); t != nullptr && !t->byField && t->index < 3) {
    tuple = unconverted(t->tuple);
    return static_cast<int>(t->index);
  }
  const auto* t = e->as<ir::TupleSubscript>();
  const auto* k = t != nullptr ? unconverted(t->index)->as<ir::Literal>() : nullptr;
  if (k == nullptr || k->value.kind != sema::ConstantValue::Kind::Int || k->value.intValue < 0 ||
      k->value.intValue > 2)
    return -1;
  tuple = unconverted(t->tuple);
  return static_cast<int>(k->value.intValue);
}

// `cuda.grid(n)`'s or `cuda.gridsize(n)`'s component `element` (-1: n is 1) as `intrinsic`.
static bool gridComponent(const ir::Expr* value, int element, sema::Intrinsic intrinsic) {
  const auto* c = value->as<ir::IntrinsicCall>();
  if (c == nullptr || c->intrinsic != intrinsic)
    return false;
  return element < 0 ? c->type.isScalar() : element < 3 && !c->type.isScalar(); // n = 1: a number
}

int GridStrideLoops::threadAxis(const ir::Expr* e, int depth) const {
  e = unconverted(e);
  if (depth > kMaxFollowed)
    return -1;
  if (const auto* v = e->as<ir::IntrinsicValue>(); v != nullptr && sema::isThreadIdx(v->intrinsic))
    return sema::indexAxis(v->intrinsic);
  if (gridComponent(e, -1, sema::Intrinsic::Grid))
    return 0;
  const ir::Expr* tuple = nullptr;
  if (const int index = itemOf(e, tuple); index >= 0)
    return gridComponent(tuple, index, sema::Intrinsic::Grid) ? index : -1; // `cuda.grid(2)[0]`
  if (const auto* b = e->as<ir::Binary>(); b != nullptr && b->op == ir::BinaryOp::Add) {
    if (uniformity_.uniform(b->rhs))
      return threadAxis(b->lhs, depth + 1);
    if (uniformity_.uniform(b->lhs))
      return threadAxis(b->rhs, depth + 1);
    return -1;
  }
  int element = -1;
  const ir::Expr* value = definition(e, element);
  if (value == nullptr)
    return -1;
  if (element >= 0)
    return gridComponent(unconverted(value), element, sema::Intrinsic::Grid) ? element : -1;
  return threadAxis(value, depth + 1);
}

bool GridStrideLoops::positive(const ir::Expr* e, int depth) const {
  e = unconverted(e);
  if (depth > kMaxFollowed)
    return false;
  const sema::ConstantValue* constant = nullptr;
  if (const auto* l = e->as<ir::Literal>())
    constant = &l->value;
  if (const auto* f = e->as<ir::FrozenConstant>())
    constant = &f->value;
  if (constant != nullptr)
    return constant->kind == sema::ConstantValue::Kind::Int && constant->intValue > 0;
  if (const auto* v = e->as<ir::IntrinsicValue>()) {
    using sema::Intrinsic;
    switch (v->intrinsic) {
    case Intrinsic::BlockDimX:
    case Intrinsic::BlockDimY:
    case Intrinsic::BlockDimZ:
    case Intrinsic::GridDimX:
    case Intrinsic::GridDimY:
    case Intrinsic::GridDimZ:
      return true; // every launch has at least one block of one thread on each axis
    default:
      return false;
    }
  }
  if (gridComponent(e, -1, sema::Intrinsic::Gridsize))
    return true;
  const ir::Expr* tuple = nullptr;
  if (const int index = itemOf(e, tuple); index >= 0)
    return gridComponent(tuple, index, sema::Intrinsic::Gridsize); // `cuda.gridsize(2)[1]`
  if (const auto* b = e->as<ir::Binary>();
      b != nullptr && (b->op == ir::BinaryOp::Add || b->op == ir::BinaryOp::Mult))
    return positive(b->lhs, depth + 1) && positive(b->rhs, depth + 1);
  int element = -1;
  const ir::Expr* value = definition(e, element);
  if (value == nullptr)
    return false;
  if (element >= 0)
    return gridComponent(unconverted(value), element, sema::Intrinsic::Gridsize);
  return positive(value, depth + 1);
}

int GridStrideLoops::axisOf(const ir::ForRange* f) const {
  const auto* counter = f->target->as<ir::LocalTarget>();
  if (counter == nullptr || f->start == nullptr || f->step == nullptr || !f->otherwise.empty() ||
      strideBodyWaits(f->body) || !f->counterType.isScalar() ||
      !types::isInteger(f->counterType.scalarKind()))
    return -1;
  if (!uniformity_.uniform(f->stop) || !uniformity_.uniform(f->step) || !positive(f->step, 0))
    return -1;
  // The counter: assigned only by the loop, and no read after the loop sees a value it set.
  const sema::VariableId v = counter->variable.variable;
  bool assignedInBody = false;
  std::set<const ir::Node*> inBody;
  ir::forEachNode(f->body, [&](const ir::Node* n) {
    inBody.insert(n);
    assignedInBody = assignedInBody || storeOf(n) == v;
  });
  if (assignedInBody)
    return -1;
  bool readAfter = false;
  ir::forEachNode(kernel_.body, [&](const ir::Node* n) {
    const auto* r = n->as<ir::Read>();
    if (r != nullptr && r->variable.variable == v && !inBody.count(n))
      readAfter = readAfter || flowsFrom(r->variable.version, counter->variable.version, 0);
  });
  if (readAfter)
    return -1;
  return threadAxis(f->start, 0);
}

} // namespace pyk::codegen
