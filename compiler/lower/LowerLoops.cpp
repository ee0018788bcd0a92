// LowerLoops: `for` loops as IR — over `range` (ForRange: bounds converted to the counter's type,
// the step's sign and the trip count where they are constants), and over anything else
// (ForEach): `range` inside zip or enumerate, enumerate, zip, tuples and arrays (items, records,
// rows).
#include <algorithm>

#include "lower/FunctionLowering.h"
#include "sema/typing/TypeRules.h"

namespace pyk::lower {

ir::Stmt* FunctionLowering::visitFor(const ast::For* loop) {
  const auto* call = loop->iter->as<ast::Call>();
  const sema::Intrinsic callee =
      call != nullptr ? spec_.intrinsicOf(call->func) : sema::Intrinsic::None;
  if (callee == sema::Intrinsic::Range)
    return rangeLoop(loop, call);
  auto* out = make<ir::ForEach>(loop->range);
  statements_[loop] = out;
  out->iteration = iteration(loop->iter);
  if (out->iteration == nullptr) {
    unsupported(loop->iter->range, "iterating over this");
    return nullptr;
  }
  out->target = target(loop->target, out->iteration->type);
  out->body = block(loop->body);
  out->otherwise = block(loop->orelse);
  return out->target == nullptr ? nullptr : out;
}

ir::Stmt* FunctionLowering::rangeLoop(const ast::For* loop, const ast::Call* c) {
  // Python evaluates the bounds once and iterates a hidden counter: assigning to the loop
  // variable in the body does not change the iteration.
  NumbaType counter = NumbaType::scalar(ScalarKind::Int64);
  if (const NumbaType* t = typeOf(loop->target))
    counter = *t;
  auto* out = make<ir::ForRange>(loop->range);
  statements_[loop] = out;
  out->counterType = counter;
  bool ok = true;
  auto bound = [&](const ast::Expr* e) {
    ir::Expr* b = exprAs(e, counter);
    ok = ok && b != nullptr;
    return b;
  };
  if (c->args.size() == 1) {
    out->stop = bound(c->args[0]);
  } else if (c->args.size() >= 2) {
    out->start = bound(c->args[0]);
    out->stop = bound(c->args[1]);
    if (c->args.size() == 3)
      out->step = bound(c->args[2]);
  } else {
    unsupported(c->range, "this range");
    return nullptr;
  }
  // A constant step (the usual case) gives a plain counted loop; a step known only at run time
  // picks the comparison by its sign.
  out->stepSign = 1;
  if (c->args.size() == 3) {
    const std::vector<int64_t> folded = constantShape(c->args[2]);
    out->stepSign = folded.size() == 1 && folded[0] != 0 ? (folded[0] > 0 ? 1 : -1) : 0;
  }
  // The trip count when every bound is a constant (a tile's `for j in range(TPB)`).
  out->constantTrips = -1;
  int64_t bounds[3] = {0, 0, 1};
  bool known = true;
  for (size_t a = 0; a < c->args.size() && known; ++a) {
    const std::vector<int64_t> v = constantShape(c->args[a]);
    known = v.size() == 1;
    if (known)
      bounds[c->args.size() == 1 ? 1 : a] = v[0];
  }
  if (known && bounds[2] != 0)
    out->constantTrips = bounds[2] > 0 ? (bounds[1] - bounds[0] + bounds[2] - 1) / bounds[2]
                                       : (bounds[0] - bounds[1] - bounds[2] - 1) / -bounds[2];
  out->target = target(loop->target, counter);
  out->body = block(loop->body);
  out->otherwise = block(loop->orelse);
  return ok && out->target != nullptr ? out : nullptr;
}

namespace {
// A tuple of these parts as typing makes it: a UniTuple when they are all one type.
NumbaType tupleOfParts(const std::vector<NumbaType>& parts) {
  const bool uniform =
      !parts.empty() &&
      std::all_of(parts.begin(), parts.end(), [&](const NumbaType& p) { return p == parts[0]; });
  return uniform ? NumbaType::uniTuple(parts[0], static_cast<int>(parts.size()))
                 : NumbaType::tuple(parts);
}
} // namespace

// What a `for` iterates over; null (unreported: the loop reports it) for what cannot iterate.
ir::Iter* FunctionLowering::iteration(const ast::Expr* iter) {
  const auto* call = iter->as<ast::Call>();
  const sema::Intrinsic callee =
      call != nullptr ? spec_.intrinsicOf(call->func) : sema::Intrinsic::None;
  if (callee == sema::Intrinsic::Range) {
    // A range inside zip or enumerate: its bounds once, converted to the item type.
    std::vector<ScalarKind> kinds;
    for (const ast::Expr* a : call->args) {
      const NumbaType* t = typeOf(a);
      if (t == nullptr || !t->isScalar())
        return nullptr;
      kinds.push_back(t->scalarKind());
    }
    const std::optional<ScalarKind> k = sema::rangeIterationType(kinds);
    const size_t n = call->args.size();
    if (!k || n < 1 || n > 3)
      return nullptr;
    auto* out = make<ir::RangeIteration>(iter->range);
    out->type = NumbaType::scalar(*k);
    out->start = n == 1 ? nullptr : exprAs(call->args[0], out->type);
    out->stop = exprAs(call->args[n == 1 ? 0 : 1], out->type);
    out->step = n == 3 ? exprAs(call->args[2], out->type) : nullptr;
    const bool ok = (n == 1 || out->start != nullptr) && out->stop != nullptr &&
                    (n != 3 || out->step != nullptr);
    return ok ? out : nullptr;
  }
  if (callee == sema::Intrinsic::Enumerate || callee == sema::Intrinsic::Zip) {
    const bool enumerate = callee == sema::Intrinsic::Enumerate;
    std::vector<NumbaType> types;
    std::vector<ir::Iter*> parts;
    ir::Expr* start = nullptr;
    if (enumerate) {
      types.push_back(NumbaType::scalar(ScalarKind::Int64));
      if (call->args.size() == 2) {
        start = exprAs(call->args[1], ScalarKind::Int64);
        if (start == nullptr)
          return nullptr;
      }
    }
    for (size_t a = 0; a < call->args.size() && !(enumerate && a == 1); ++a) {
      ir::Iter* part = iteration(call->args[a]);
      if (part == nullptr)
        return nullptr;
      parts.push_back(part);
      types.push_back(part->type);
    }
    if (enumerate) {
      auto* out = make<ir::EnumerateIteration>(iter->range);
      out->type = tupleOfParts(types);
      out->start = start;
      out->parts = std::move(parts);
      return out;
    }
    auto* out = make<ir::ZipIteration>(iter->range);
    out->type = tupleOfParts(types);
    out->parts = std::move(parts);
    return out;
  }
  const NumbaType* t = typeOf(iter);
  if (t == nullptr || !(t->kind() == NumbaType::Kind::UniTuple || t->isArray()))
    return nullptr;
  ir::Expr* sequence = expr(iter);
  if (sequence == nullptr)
    return nullptr;
  auto* out = make<ir::SequenceIteration>(iter->range);
  out->sequence = sequence;
  if (t->kind() == NumbaType::Kind::UniTuple)
    out->type = t->elements()[0];
  else if (t->ndim() == 1)
    out->type = t->elementType(); // an item; a record is referred to where it lies
  else // a row: the array without its first dimension (C stays C, as numba types it)
    out->type = t->withShape(t->ndim() - 1,
                             t->layout() == types::ArrayLayout::C ? types::ArrayLayout::C
                                                                  : types::ArrayLayout::A,
                             t->readonly());
  return out;
}

} // namespace pyk::lower
