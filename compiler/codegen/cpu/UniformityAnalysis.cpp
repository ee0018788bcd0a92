// UniformityAnalysis: an optimistic fixed point (LocalFixpoint). Every local starts uniform; one
// assigned a non-uniform value, or assigned under control flow that differs between threads, is
// demoted; passes repeat until nothing changes.
#include "codegen/cpu/UniformityAnalysis.h"

#include "ir/IrVisitor.h"

namespace pyk::codegen {

namespace {

// Whether `body` has a break, continue or return (at any depth).
bool hasJump(const std::vector<ir::Stmt*>& body) {
  bool found = false;
  ir::forEachNode(body, [&](const ir::Node* n) {
    found = found || n->is<ir::Break>() || n->is<ir::Continue>() || n->is<ir::Return>();
  });
  return found;
}

} // namespace

bool callOfArgumentsAlone(const ir::Expr* e, uint32_t flag) {
  if (const auto* c = e->as<ir::IntrinsicCall>())
    return sema::intrinsicInfo(c->intrinsic).has(flag);
  const auto* cast = e->as<ir::Cast>();
  return cast != nullptr && cast->written; // `float32(x)`: a conversion
}

// Whether an expression is block-uniform, given the locals found uniform so far.
class UniformityAnalysis::UniformValue : public ir::ExprVisitor<UniformValue, bool> {
public:
  explicit UniformValue(const UniformityAnalysis& analysis) : analysis_(analysis) {}

  bool visitLiteral(const ir::Literal*) { return true; }
  // A module constant (an Enum member is not followed).
  bool visitFrozenConstant(const ir::FrozenConstant* c) { return !c->name.empty(); }
  // A parameter is uniform (an array as an array: its items are not, see ArrayElement).
  bool visitRead(const ir::Read* r) { return analysis_.uniformVariable(r->variable.variable); }
  bool visitIntrinsicValue(const ir::IntrinsicValue* v) {
    return sema::intrinsicInfo(v->intrinsic).has(sema::intrinsic_flags::BlockUniform);
  }
  bool visitCast(const ir::Cast* c) { return visit(c->value); }
  bool visitUnwrapOptional(const ir::UnwrapOptional* u) { return visit(u->value); }
  bool visitOptionalIsNone(const ir::OptionalIsNone* t) { return visit(t->value); }
  // Array metadata, complex parts and named-tuple fields of a uniform value; items of a tuple
  // (a shape, say) at a uniform index. Items of arrays are memory, never assumed so.
  bool visitArrayAttribute(const ir::ArrayAttribute* a) {
    return a->member != sema::ValueMember::Transpose && visit(a->array);
  }
  bool visitComplexPart(const ir::ComplexPart* p) { return visit(p->value); }
  bool visitTupleElement(const ir::TupleElement* t) { return visit(t->tuple); }
  bool visitTupleSubscript(const ir::TupleSubscript* t) {
    return visit(t->tuple) && visit(t->index);
  }
  // A shared array is the block's (a local one each thread's own).
  bool visitArrayAllocation(const ir::ArrayAllocation* a) {
    return sema::intrinsicInfo(a->intrinsic).has(sema::intrinsic_flags::BlockUniform);
  }
  // An intrinsic whose result is the same in every thread when its arguments are, or a cast.
  // A barrier with a value (`syncthreads_count`) gives every thread the block's result.
  bool visitIntrinsicCall(const ir::IntrinsicCall* c) {
    if (sema::intrinsicInfo(c->intrinsic).has(sema::intrinsic_flags::BlockReduction))
      return true;
    return callOfArgumentsAlone(c, sema::intrinsic_flags::BlockUniform) && operandsUniform(c);
  }
  // Operators, conditional expressions and tuples: uniform when every operand is (a named
  // tuple's construction is a call: not followed).
  bool visitBinary(const ir::Binary* e) { return operandsUniform(e); }
  bool visitDatetimeOperation(const ir::DatetimeOperation* e) { return operandsUniform(e); }
  bool visitUnary(const ir::Unary* e) { return operandsUniform(e); }
  bool visitNot(const ir::Not* e) { return operandsUniform(e); }
  bool visitCompare(const ir::Compare* e) { return operandsUniform(e); }
  bool visitIdentityTest(const ir::IdentityTest* e) { return operandsUniform(e); }
  bool visitLogical(const ir::Logical* e) { return operandsUniform(e); }
  bool visitLogicalValue(const ir::LogicalValue* e) { return operandsUniform(e); }
  bool visitConditional(const ir::Conditional* e) { return operandsUniform(e); }
  bool visitMakeTuple(const ir::MakeTuple* e) {
    return !e->type.isNamedTuple() && operandsUniform(e);
  }

private:
  bool operandsUniform(const ir::Expr* e) {
    bool all = true;
    ir::forEachChild(static_cast<const ir::Node*>(e), [&](const ir::Node* child) {
      all = all && visit(static_cast<const ir::Expr*>(child));
    });
    return all;
  }

  const UniformityAnalysis& analysis_;
};

void UniformityAnalysis::demoteIn(const std::vector<ir::Stmt*>& body, bool uniformControl) {
  for (const ir::Stmt* s : body) {
    if (const auto* a = s->as<ir::Assign>()) {
      for (const ir::Target* t : a->targets)
        assignValue(t, a->value, uniformControl);
    } else if (const auto* st = s->as<ir::Store>()) {
      assign(st->target, uniformControl && uniform(st->value));
    } else if (const auto* r = s->as<ir::ForRange>()) {
      const bool header = uniform(r->start) && uniform(r->stop) && uniform(r->step);
      const bool inner = uniformControl && header && !hasJump(r->body);
      assign(r->target, inner);
      demoteIn(r->body, inner);
      demoteIn(r->otherwise, inner);
    } else if (const auto* e = s->as<ir::ForEach>()) {
      assign(e->target, false); // only a range's counter is followed
      demoteIn(e->body, false);
      demoteIn(e->otherwise, false);
    } else if (const auto* w = s->as<ir::While>()) {
      const bool inner = uniformControl && uniform(w->condition) && !hasJump(w->body);
      demoteIn(w->body, inner);
      demoteIn(w->otherwise, inner);
    } else if (const auto* i = s->as<ir::If>()) {
      const bool inner = uniformControl && uniform(i->condition);
      demoteIn(i->then, inner);
      demoteIn(i->otherwise, inner);
    }
  }
}

// `a, b = x, y` item by item (`start, stride = cuda.grid(1), cuda.gridsize(1)`: stride is
// uniform, start is not).
void UniformityAnalysis::assignValue(const ir::Target* target, const ir::Expr* value,
                                     bool uniformControl) {
  const auto* unpack = target->as<ir::UnpackTarget>();
  const auto* tuple = unconverted(value)->as<ir::MakeTuple>();
  if (unpack != nullptr && tuple != nullptr && !tuple->type.isNamedTuple() &&
      unpack->elements.size() == tuple->elements.size()) {
    for (size_t i = 0; i < unpack->elements.size(); ++i)
      assignValue(unpack->elements[i], tuple->elements[i], uniformControl);
    return;
  }
  assign(target, uniformControl && uniform(value));
}

void UniformityAnalysis::assign(const ir::Target* target, bool uniformValue) {
  if (!uniformValue)
    forEachTargetVariable(target, [&](sema::VariableId v) { uniformLocals_.demote(v); });
}

UniformityAnalysis::UniformityAnalysis(const ir::Function& kernel)
    : kernel_(kernel), uniformLocals_(kernel.variables.size()) {
  for (size_t v = 0; v < kernel.variables.size(); ++v)
    if (!kernel.variables[v].parameter)
      uniformLocals_.admit(v);
  uniformLocals_.solve([&] { demoteIn(kernel.body, true); });
}

bool UniformityAnalysis::uniform(const ir::Expr* e) const {
  return e == nullptr || UniformValue(*this).visit(e);
}

} // namespace pyk::codegen
