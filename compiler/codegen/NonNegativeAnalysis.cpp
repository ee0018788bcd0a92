// NonNegativeAnalysis: an optimistic fixed point (LocalFixpoint), as UniformityAnalysis. Every
// integer local starts non-negative; one bound by anything but an assignment, augmented
// assignment or `range` loop this file understands, or assigned a value not known to be
// non-negative, is demoted; passes repeat until nothing changes.
#include "codegen/NonNegativeAnalysis.h"

#include "syntax/ResultVisitor.h"

namespace pyk::codegen {

namespace {

bool integerKind(const sema::NumbaType* t) {
  return t != nullptr && t->isScalar() &&
         (sema::isInteger(t->scalarKind()) || t->scalarKind() == sema::ScalarKind::Boolean);
}

// A visit of a body's statements that goes on into the bodies of its loops and branches; the
// derived class handles the statements that bind locals (`for` too, then calling `bodies`).
template <class Derived>
class NestedStatements : public ast::StmtVisitor<Derived> {
public:
  void body(const std::vector<ast::Stmt*>& statements) {
    for (const ast::Stmt* s : statements)
      this->visit(s);
  }
  void bodies(const std::vector<ast::Stmt*>& first, const std::vector<ast::Stmt*>& orelse) {
    body(first);
    body(orelse);
  }
  void visitWhile(const ast::While* w) { bodies(w->body, w->orelse); }
  void visitIf(const ast::If* i) { bodies(i->body, i->orelse); }
};

// The Name nodes that assignments, augmented and annotated assignments and `for` targets bind,
// directly or by unpacking, in a body and the bodies of its loops and branches: the bindings
// the passes follow.
class UnderstoodTargets : public NestedStatements<UnderstoodTargets> {
public:
  std::set<const ast::Name*> names;

  void visitAssign(const ast::Assign* a) {
    for (const ast::Expr* t : a->targets)
      add(t);
  }
  void visitAugAssign(const ast::AugAssign* a) { add(a->target); }
  void visitAnnAssign(const ast::AnnAssign* a) { add(a->target); }
  void visitFor(const ast::For* f) {
    add(f->target);
    bodies(f->body, f->orelse);
  }

private:
  void add(const ast::Expr* target) {
    forEachTargetName(target, [&](const ast::Name* n) { names.insert(n); });
  }
};

} // namespace

// Whether an expression is a non-negative integer, given the locals found so far.
class NonNegativeAnalysis::NonNegativeValue : public ast::ExprVisitor<NonNegativeValue, bool> {
public:
  explicit NonNegativeValue(const NonNegativeAnalysis& analysis)
      : analysis_(analysis), spec_(analysis.spec_), scope_(spec_.function->scope) {}

  bool visitConstant(const ast::Constant* c) {
    return c->valueKind == ast::ConstantKind::Bool ||
           (c->valueKind == ast::ConstantKind::Int && !c->intTooLarge && c->intValue >= 0);
  }

  bool visitName(const ast::Name* n) {
    auto it = scope_.names.find(n);
    if (it == scope_.names.end())
      return false;
    switch (it->second.kind) {
    case sema::NameBinding::Kind::Local:
      return analysis_.nonNegativeVariable(it->second.index);
    case sema::NameBinding::Kind::ModuleConstant: {
      const sema::ConstantValue& v = analysis_.module_.symbols.constants()[it->second.index].value;
      return v.kind == sema::ConstantValue::Kind::Bool ||
             (v.kind == sema::ConstantValue::Kind::Int && v.intValue >= 0);
    }
    default:
      return false;
    }
  }

  bool visitAttribute(const ast::Attribute* a) {
    if (const sema::Intrinsic id = spec_.intrinsicOf(a); id != sema::Intrinsic::None)
      return sema::intrinsicInfo(id).has(sema::intrinsic_flags::NonNegative);
    if (!sema::qualifiedApiName(scope_, a).empty())
      return false;
    const sema::NumbaType* base = spec_.typeOf(a->value);
    return base != nullptr && base->isArray() &&
           (a->attr == "size" || a->attr == "ndim" || a->attr == "nbytes");
  }

  bool visitSubscript(const ast::Subscript* s) {
    // `a.shape[k]`
    const auto* a = s->value->as<ast::Attribute>();
    const sema::NumbaType* base = a != nullptr ? spec_.typeOf(a->value) : nullptr;
    return base != nullptr && base->isArray() && a->attr == "shape";
  }

  bool visitCall(const ast::Call* c) {
    if (spec_.callees.count(c) != 0 || !c->keywords.empty())
      return false;
    const sema::Intrinsic id = spec_.intrinsicOf(c->func);
    if (id == sema::Intrinsic::Min || id == sema::Intrinsic::Max) {
      bool all = !c->args.empty(), any = false;
      for (const ast::Expr* arg : c->args) {
        const bool n = analysis_.nonNegative(arg);
        all = all && n;
        any = any || n;
      }
      return id == sema::Intrinsic::Min ? all : any && c->args.size() > 1;
    }
    return id != sema::Intrinsic::None &&
           sema::intrinsicInfo(id).has(sema::intrinsic_flags::NonNegative);
  }

  bool visitBinOp(const ast::BinOp* b) {
    return analysis_.nonNegativeBinary(b->op, b->left, b->right);
  }

  bool visitIfExp(const ast::IfExp* i) {
    return analysis_.nonNegative(i->body) && analysis_.nonNegative(i->orelse);
  }

  // A comparison or `and`/`or` of booleans is 0 or 1.
  bool visitCompare(const ast::Compare* e) { return boolean(e); }
  bool visitBoolOp(const ast::BoolOp* e) { return boolean(e); }

private:
  bool boolean(const ast::Expr* e) {
    return spec_.typeOf(e)->scalarKind() == sema::ScalarKind::Boolean;
  }

  const NonNegativeAnalysis& analysis_;
  const sema::Specialization& spec_;
  const sema::FunctionScope& scope_;
};

// One pass over a body: demotes the locals bound to values not known to be non-negative.
class NonNegativeAnalysis::Demotion : public NestedStatements<Demotion> {
public:
  explicit Demotion(NonNegativeAnalysis& analysis) : analysis_(analysis) {}

  void visitAssign(const ast::Assign* a) {
    for (const ast::Expr* t : a->targets)
      assignTo(t, a->value);
  }
  void visitAugAssign(const ast::AugAssign* a) {
    if (a->target->is<ast::Name>() && !analysis_.nonNegativeBinary(a->op, a->target, a->value))
      analysis_.demote(a->target);
  }
  void visitAnnAssign(const ast::AnnAssign* a) {
    if (a->value != nullptr)
      assignTo(a->target, a->value);
  }
  void visitFor(const ast::For* f) {
    const auto* call = f->iter->as<ast::Call>();
    // range(stop), range(start, stop), range(start, stop, step) count from start upward when
    // the step is positive (a zero step raises; a negative one with start >= 0 would too stay
    // above stop >= -1, but is not followed here).
    bool counting = call != nullptr && call->keywords.empty() &&
                    analysis_.spec_.intrinsicOf(call->func) == sema::Intrinsic::Range &&
                    !call->args.empty() && call->args.size() <= 3;
    if (counting && call->args.size() >= 2)
      counting = analysis_.nonNegative(call->args[0]);
    if (counting && call->args.size() == 3)
      counting = analysis_.nonNegative(call->args[2]);
    if (!counting || !f->target->is<ast::Name>())
      analysis_.demote(f->target);
    bodies(f->body, f->orelse);
  }

private:
  void assignTo(const ast::Expr* target, const ast::Expr* value) {
    if (target->is<ast::Name>()) {
      if (!analysis_.nonNegative(value))
        analysis_.demote(target);
      return;
    }
    const std::vector<ast::Expr*>* elts = nullptr;
    if (const auto* t = target->as<ast::Tuple>())
      elts = &t->elts;
    else if (const auto* l = target->as<ast::List>())
      elts = &l->elts;
    if (elts == nullptr)
      return; // an item or attribute: no local
    // `x, y = cuda.grid(2)`: every component is non-negative.
    if (const auto* c = value->as<ast::Call>()) {
      const sema::Intrinsic id = analysis_.spec_.intrinsicOf(c->func);
      if (id == sema::Intrinsic::Grid || id == sema::Intrinsic::Gridsize) {
        for (const ast::Expr* e : *elts)
          if (!e->is<ast::Name>())
            analysis_.demote(e);
        return;
      }
    }
    // `a, b = x, y`: item by item.
    if (const auto* v = value->as<ast::Tuple>(); v != nullptr && v->elts.size() == elts->size()) {
      for (size_t i = 0; i < elts->size(); ++i)
        assignTo((*elts)[i], v->elts[i]);
      return;
    }
    analysis_.demote(target);
  }

  NonNegativeAnalysis& analysis_;
};

NonNegativeAnalysis::NonNegativeAnalysis(const sema::Specialization& spec,
                                         const sema::ResolvedModule& module)
    : spec_(spec), module_(module), nonNegativeLocals_(spec.function->scope.locals.size()) {
  const sema::FunctionScope& scope = spec.function->scope;
  for (size_t i = 0; i < scope.locals.size(); ++i)
    if (i < spec.localTypes.size() && spec.localTypes[i] && integerKind(&*spec.localTypes[i]))
      nonNegativeLocals_.admit(i);
  // A local bound in a way the passes do not follow is never assumed non-negative.
  UnderstoodTargets understood;
  understood.body(spec.function->def->body);
  for (const ast::Stmt* s : spec.function->def->body)
    ast::forEachNode(s, [&](const ast::Node* n) {
      const auto* name = n->as<ast::Name>();
      if (name != nullptr && name->ctx != ast::ExprContext::Load && !understood.names.count(name))
        if (std::optional<size_t> local = localIndex(scope, name))
          nonNegativeLocals_.demote(*local);
    });
  nonNegativeLocals_.solve([&] { Demotion(*this).body(spec.function->def->body); });
}

bool NonNegativeAnalysis::integerTyped(const ast::Expr* e) const {
  return integerKind(spec_.typeOf(e));
}

bool NonNegativeAnalysis::nonNegativeBinary(ast::BinOpKind op, const ast::Expr* left,
                                            const ast::Expr* right) const {
  switch (op) {
  case ast::BinOpKind::Add:
  case ast::BinOpKind::Mult:
  case ast::BinOpKind::FloorDiv:
  case ast::BinOpKind::BitOr:
  case ast::BinOpKind::BitXor:
    return nonNegative(left) && nonNegative(right);
  case ast::BinOpKind::Mod: // Python's remainder takes the divisor's sign
    return integerTyped(left) && nonNegative(right);
  case ast::BinOpKind::RShift:
    return nonNegative(left) && integerTyped(right);
  case ast::BinOpKind::BitAnd:
    return integerTyped(left) && integerTyped(right) && (nonNegative(left) || nonNegative(right));
  default:
    return false;
  }
}

bool NonNegativeAnalysis::nonNegative(const ast::Expr* e) const {
  return e != nullptr && integerTyped(e) && NonNegativeValue(*this).visit(e);
}

void NonNegativeAnalysis::demote(const ast::Expr* target) {
  forEachTargetName(target, [&](const ast::Name* n) {
    if (std::optional<size_t> local = localIndex(spec_.function->scope, n))
      nonNegativeLocals_.demote(*local);
  });
}

} // namespace pyk::codegen
