// NonNegativeAnalysis: an optimistic fixed point (LocalFixpoint), as UniformityAnalysis. Every
// integer local starts non-negative; one assigned a value not known to be non-negative, or
// bound by a loop that does not count up from zero or above, is demoted; passes repeat until
// nothing changes. numba's implicit conversions of an integer keep its sign here, as the source's
// value is what is indexed by; a cast the source writes (`int32(x)`) is not followed.
#include "codegen/emit/NonNegativeAnalysis.h"

#include "ir/IrVisitor.h"

namespace pyk::codegen {

namespace {

bool integerKind(const types::NumbaType& t) {
  return t.isScalar() &&
         (types::isInteger(t.scalarKind()) || t.scalarKind() == types::ScalarKind::Boolean);
}

} // namespace

// Whether an expression is a non-negative integer, given the locals found so far.
class NonNegativeAnalysis::NonNegativeValue : public ir::ExprVisitor<NonNegativeValue, bool> {
public:
  explicit NonNegativeValue(const NonNegativeAnalysis& analysis) : analysis_(analysis) {}

  bool visitLiteral(const ir::Literal* l) {
    return l->value.kind == sema::ConstantValue::Kind::Bool ||
           (l->value.kind == sema::ConstantValue::Kind::Int && l->value.intValue >= 0);
  }
  bool visitFrozenConstant(const ir::FrozenConstant* c) {
    if (c->name.empty()) // an Enum member: not followed
      return false;
    return c->value.kind == sema::ConstantValue::Kind::Bool ||
           (c->value.kind == sema::ConstantValue::Kind::Int && c->value.intValue >= 0);
  }
  bool visitRead(const ir::Read* r) { return analysis_.nonNegativeVariable(r->variable.variable); }
  bool visitIntrinsicValue(const ir::IntrinsicValue* v) {
    return sema::intrinsicInfo(v->intrinsic).has(sema::intrinsic_flags::NonNegative);
  }
  bool visitCast(const ir::Cast* c) { // an implicit conversion keeps its value's sign
    return !c->written && analysis_.nonNegative(c->value);
  }
  bool visitArrayAttribute(const ir::ArrayAttribute* a) {
    return a->member == sema::ValueMember::Size || a->member == sema::ValueMember::Ndim ||
           a->member == sema::ValueMember::Nbytes;
  }
  bool visitTupleSubscript(const ir::TupleSubscript* t) { // `a.shape[k]`
    const auto* a = t->tuple->as<ir::ArrayAttribute>();
    return a != nullptr && a->member == sema::ValueMember::Shape;
  }
  bool visitIntrinsicCall(const ir::IntrinsicCall* c) {
    if (c->intrinsic == sema::Intrinsic::Min || c->intrinsic == sema::Intrinsic::Max) {
      bool all = !c->args.empty(), any = false;
      for (const ir::Expr* arg : c->args) {
        const bool n = analysis_.nonNegative(unconverted(arg));
        all = all && n;
        any = any || n;
      }
      return c->intrinsic == sema::Intrinsic::Min ? all : any && c->args.size() > 1;
    }
    return sema::intrinsicInfo(c->intrinsic).has(sema::intrinsic_flags::NonNegative);
  }
  bool visitBinary(const ir::Binary* b) {
    return analysis_.nonNegativeBinary(b->op, unconverted(b->lhs), unconverted(b->rhs));
  }
  bool visitConditional(const ir::Conditional* c) {
    return analysis_.nonNegative(c->then) && analysis_.nonNegative(c->otherwise);
  }
  // A comparison or `and`/`or` of booleans is 0 or 1.
  bool visitCompare(const ir::Compare*) { return true; }
  bool visitIdentityTest(const ir::IdentityTest*) { return true; }
  bool visitLogical(const ir::Logical*) { return true; }
  bool visitLogicalValue(const ir::LogicalValue* l) {
    return l->type.scalarKind() == types::ScalarKind::Boolean;
  }

private:
  const NonNegativeAnalysis& analysis_;
};

NonNegativeAnalysis::NonNegativeAnalysis(const ir::Function& f)
    : f_(f), nonNegativeLocals_(f.variables.size()) {
  for (size_t v = 0; v < f.variables.size(); ++v)
    if (!f.variables[v].parameter && f.variables[v].type && integerKind(*f.variables[v].type))
      nonNegativeLocals_.admit(v);
  nonNegativeLocals_.solve([&] { demoteIn(f.body); });
}

void NonNegativeAnalysis::demoteIn(const std::vector<ir::Stmt*>& body) {
  for (const ir::Stmt* s : body) {
    if (const auto* a = s->as<ir::Assign>()) {
      for (const ir::Target* t : a->targets)
        assignTo(t, a->value);
    } else if (const auto* st = s->as<ir::Store>()) {
      if (st->target->is<ir::LocalTarget>() && !nonNegative(st->value))
        demote(st->target);
    } else if (const auto* r = s->as<ir::ForRange>()) {
      // range(stop), range(start, stop), range(start, stop, step) count from start upward when
      // the step is positive (a zero step raises; a negative one is not followed here).
      const bool counting = (r->start == nullptr || nonNegative(r->start)) &&
                            (r->step == nullptr || nonNegative(r->step));
      if (!counting || !r->target->is<ir::LocalTarget>())
        demote(r->target);
      demoteIn(r->body);
      demoteIn(r->otherwise);
    } else if (const auto* e = s->as<ir::ForEach>()) {
      demote(e->target);
      demoteIn(e->body);
      demoteIn(e->otherwise);
    } else if (const auto* i = s->as<ir::If>()) {
      demoteIn(i->then);
      demoteIn(i->otherwise);
    } else if (const auto* w = s->as<ir::While>()) {
      demoteIn(w->body);
      demoteIn(w->otherwise);
    }
  }
}

void NonNegativeAnalysis::assignTo(const ir::Target* target, const ir::Expr* value) {
  if (target->is<ir::LocalTarget>()) {
    if (!nonNegative(value))
      demote(target);
    return;
  }
  const auto* unpack = target->as<ir::UnpackTarget>();
  if (unpack == nullptr)
    return; // an item or field: no local
  // `x, y = cuda.grid(2)`: every component is non-negative.
  if (const auto* c = value->as<ir::IntrinsicCall>();
      c != nullptr &&
      (c->intrinsic == sema::Intrinsic::Grid || c->intrinsic == sema::Intrinsic::Gridsize)) {
    for (const ir::Target* e : unpack->elements)
      if (!e->is<ir::LocalTarget>())
        demote(e);
    return;
  }
  // `a, b = x, y`: item by item.
  if (const auto* t = value->as<ir::MakeTuple>();
      t != nullptr && t->elements.size() == unpack->elements.size()) {
    for (size_t i = 0; i < unpack->elements.size(); ++i)
      assignTo(unpack->elements[i], t->elements[i]);
    return;
  }
  demote(target);
}

bool NonNegativeAnalysis::nonNegativeBinary(ir::BinaryOp op, const ir::Expr* left,
                                            const ir::Expr* right) const {
  switch (op) {
  case ir::BinaryOp::Add:
  case ir::BinaryOp::Mult:
  case ir::BinaryOp::FloorDiv:
  case ir::BinaryOp::BitOr:
  case ir::BinaryOp::BitXor:
    return nonNegative(left) && nonNegative(right);
  case ir::BinaryOp::Mod: // Python's remainder takes the divisor's sign
    return integerKind(left->type) && nonNegative(right);
  case ir::BinaryOp::RShift:
    return nonNegative(left) && integerKind(right->type);
  case ir::BinaryOp::BitAnd:
    return integerKind(left->type) && integerKind(right->type) &&
           (nonNegative(left) || nonNegative(right));
  default:
    return false;
  }
}

bool NonNegativeAnalysis::nonNegative(const ir::Expr* e) const {
  return e != nullptr && integerKind(e->type) && NonNegativeValue(*this).visit(e);
}

void NonNegativeAnalysis::demote(const ir::Target* target) {
  if (const auto* l = target->as<ir::LocalTarget>())
    nonNegativeLocals_.demote(l->variable.variable);
  else if (const auto* u = target->as<ir::UnpackTarget>())
    for (const ir::Target* e : u->elements)
      demote(e);
}

} // namespace pyk::codegen
