// NonNegativeAnalysis: an optimistic fixed point, as UniformityAnalysis. Every integer local starts
// non-negative; one bound by anything but an assignment, augmented assignment or `range` loop this
// file understands, or assigned a value not known to be non-negative, is demoted; passes repeat
// until nothing changes.
#include "codegen/NonNegativeAnalysis.h"

namespace pyk::codegen {

namespace {

bool integerKind(const sema::NumbaType* t) {
  return t != nullptr && t->isScalar() &&
         (sema::isInteger(t->scalarKind()) || t->scalarKind() == sema::ScalarKind::Boolean);
}

// The Name nodes an Assign, AugAssign, AnnAssign or `for` target binds directly or by unpacking.
void collectTargets(const ast::Expr* target, std::set<const ast::Name*>& out) {
  if (const auto* n = target->as<ast::Name>())
    out.insert(n);
  else if (const auto* t = target->as<ast::Tuple>())
    for (const ast::Expr* e : t->elts)
      collectTargets(e, out);
  else if (const auto* l = target->as<ast::List>())
    for (const ast::Expr* e : l->elts)
      collectTargets(e, out);
}

void collectUnderstoodTargets(const std::vector<ast::Stmt*>& body,
                              std::set<const ast::Name*>& out) {
  for (const ast::Stmt* s : body) {
    if (const auto* a = s->as<ast::Assign>())
      for (const ast::Expr* t : a->targets)
        collectTargets(t, out);
    else if (const auto* a = s->as<ast::AugAssign>())
      collectTargets(a->target, out);
    else if (const auto* a = s->as<ast::AnnAssign>())
      collectTargets(a->target, out);
    else if (const auto* f = s->as<ast::For>()) {
      collectTargets(f->target, out);
      collectUnderstoodTargets(f->body, out);
      collectUnderstoodTargets(f->orelse, out);
    } else if (const auto* w = s->as<ast::While>()) {
      collectUnderstoodTargets(w->body, out);
      collectUnderstoodTargets(w->orelse, out);
    } else if (const auto* i = s->as<ast::If>()) {
      collectUnderstoodTargets(i->body, out);
      collectUnderstoodTargets(i->orelse, out);
    }
  }
}

// Every Name the function stores to anywhere (walrus, `with ... as`, nested targets included).
void collectStores(const ast::Node* n, std::vector<const ast::Name*>& out) {
  if (const auto* name = n->as<ast::Name>(); name != nullptr && name->ctx != ast::ExprContext::Load)
    out.push_back(name);
  ast::forEachChild(const_cast<ast::Node*>(n), [&](ast::Node* child) {
    if (child != nullptr)
      collectStores(child, out);
  });
}

} // namespace

NonNegativeAnalysis::NonNegativeAnalysis(const sema::Specialization& spec,
                                         const sema::ResolvedModule& module)
    : spec_(spec), module_(module) {
  const sema::FunctionScope& scope = spec.function->scope;
  for (size_t i = 0; i < scope.locals.size(); ++i)
    if (i < spec.localTypes.size() && spec.localTypes[i] && integerKind(&*spec.localTypes[i]))
      nonNegativeLocals_.insert(scope.locals[i]);
  // A local bound in a way the passes do not follow is never assumed non-negative.
  std::set<const ast::Name*> understood;
  collectUnderstoodTargets(spec.function->def->body, understood);
  std::vector<const ast::Name*> stores;
  for (const ast::Stmt* s : spec.function->def->body)
    collectStores(s, stores);
  for (const ast::Name* n : stores)
    if (!understood.count(n))
      nonNegativeLocals_.erase(n->id);
  while (pass(spec.function->def->body)) {
  }
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
  if (e == nullptr || !integerTyped(e))
    return false;
  const sema::FunctionScope& scope = spec_.function->scope;
  switch (e->kind) {
  case ast::NodeKind::Constant: {
    const auto* c = e->as<ast::Constant>();
    return c->valueKind == ast::ConstantKind::Bool ||
           (c->valueKind == ast::ConstantKind::Int && !c->intTooLarge && c->intValue >= 0);
  }
  case ast::NodeKind::Name: {
    const auto* n = e->as<ast::Name>();
    auto it = scope.names.find(n);
    if (it == scope.names.end())
      return false;
    switch (it->second.kind) {
    case sema::NameBinding::Kind::Local:
      return nonNegativeLocals_.count(n->id) != 0;
    case sema::NameBinding::Kind::ModuleConstant: {
      const sema::ConstantValue& v = module_.symbols.constants()[it->second.index].value;
      return v.kind == sema::ConstantValue::Kind::Bool ||
             (v.kind == sema::ConstantValue::Kind::Int && v.intValue >= 0);
    }
    default:
      return false;
    }
  }
  case ast::NodeKind::Attribute: {
    const auto* a = e->as<ast::Attribute>();
    if (const sema::Intrinsic id = spec_.intrinsicOf(a); id != sema::Intrinsic::None)
      return sema::intrinsicInfo(id).has(sema::intrinsic_flags::NonNegative);
    if (!sema::qualifiedApiName(scope, a).empty())
      return false;
    const sema::NumbaType* base = spec_.typeOf(a->value);
    return base != nullptr && base->isArray() &&
           (a->attr == "size" || a->attr == "ndim" || a->attr == "nbytes");
  }
  case ast::NodeKind::Subscript: {
    // `a.shape[k]`
    const auto* s = e->as<ast::Subscript>();
    const auto* a = s->value->as<ast::Attribute>();
    const sema::NumbaType* base = a != nullptr ? spec_.typeOf(a->value) : nullptr;
    return base != nullptr && base->isArray() && a->attr == "shape";
  }
  case ast::NodeKind::Call: {
    const auto* c = e->as<ast::Call>();
    if (spec_.callees.count(c) != 0 || !c->keywords.empty())
      return false;
    const sema::Intrinsic id = spec_.intrinsicOf(c->func);
    if (id == sema::Intrinsic::Min || id == sema::Intrinsic::Max) {
      bool all = !c->args.empty(), any = false;
      for (const ast::Expr* arg : c->args) {
        const bool n = nonNegative(arg);
        all = all && n;
        any = any || n;
      }
      return id == sema::Intrinsic::Min ? all : any && c->args.size() > 1;
    }
    return id != sema::Intrinsic::None &&
           sema::intrinsicInfo(id).has(sema::intrinsic_flags::NonNegative);
  }
  case ast::NodeKind::BinOp: {
    const auto* b = e->as<ast::BinOp>();
    return nonNegativeBinary(b->op, b->left, b->right);
  }
  case ast::NodeKind::IfExp: {
    const auto* i = e->as<ast::IfExp>();
    return nonNegative(i->body) && nonNegative(i->orelse);
  }
  case ast::NodeKind::Compare:
  case ast::NodeKind::BoolOp:
    return spec_.typeOf(e)->scalarKind() == sema::ScalarKind::Boolean;
  default:
    return false;
  }
}

bool NonNegativeAnalysis::demote(const ast::Expr* target) {
  std::set<const ast::Name*> names;
  collectTargets(target, names);
  bool changed = false;
  for (const ast::Name* n : names)
    changed = nonNegativeLocals_.erase(n->id) != 0 || changed;
  return changed;
}

bool NonNegativeAnalysis::assignTo(const ast::Expr* target, const ast::Expr* value) {
  if (target->is<ast::Name>())
    return nonNegative(value) ? false : demote(target);
  const std::vector<ast::Expr*>* elts = nullptr;
  if (const auto* t = target->as<ast::Tuple>())
    elts = &t->elts;
  else if (const auto* l = target->as<ast::List>())
    elts = &l->elts;
  if (elts == nullptr)
    return false; // an item or attribute: no local
  // `x, y = cuda.grid(2)`: every component is non-negative.
  if (const auto* c = value->as<ast::Call>()) {
    const sema::Intrinsic id = spec_.intrinsicOf(c->func);
    if (id == sema::Intrinsic::Grid || id == sema::Intrinsic::Gridsize) {
      bool changed = false;
      for (const ast::Expr* e : *elts)
        if (!e->is<ast::Name>())
          changed = demote(e) || changed;
      return changed;
    }
  }
  // `a, b = x, y`: item by item.
  if (const auto* v = value->as<ast::Tuple>(); v != nullptr && v->elts.size() == elts->size()) {
    bool changed = false;
    for (size_t i = 0; i < elts->size(); ++i)
      changed = assignTo((*elts)[i], v->elts[i]) || changed;
    return changed;
  }
  return demote(target);
}

bool NonNegativeAnalysis::pass(const std::vector<ast::Stmt*>& body) {
  bool changed = false;
  for (const ast::Stmt* s : body) {
    switch (s->kind) {
    case ast::NodeKind::Assign: {
      const auto* a = s->as<ast::Assign>();
      for (const ast::Expr* t : a->targets)
        changed = assignTo(t, a->value) || changed;
      break;
    }
    case ast::NodeKind::AugAssign: {
      const auto* a = s->as<ast::AugAssign>();
      if (a->target->is<ast::Name>() && !nonNegativeBinary(a->op, a->target, a->value))
        changed = demote(a->target) || changed;
      break;
    }
    case ast::NodeKind::AnnAssign: {
      const auto* a = s->as<ast::AnnAssign>();
      if (a->value != nullptr)
        changed = assignTo(a->target, a->value) || changed;
      break;
    }
    case ast::NodeKind::For: {
      const auto* f = s->as<ast::For>();
      const auto* call = f->iter->as<ast::Call>();
      // range(stop), range(start, stop), range(start, stop, step) count from start upward when
      // the step is positive (a zero step raises; a negative one with start >= 0 would too stay
      // above stop >= -1, but is not followed here).
      bool counting = call != nullptr && call->keywords.empty() &&
                      spec_.intrinsicOf(call->func) == sema::Intrinsic::Range &&
                      !call->args.empty() && call->args.size() <= 3;
      if (counting && call->args.size() >= 2)
        counting = nonNegative(call->args[0]);
      if (counting && call->args.size() == 3)
        counting = nonNegative(call->args[2]);
      if (!counting || !f->target->is<ast::Name>())
        changed = demote(f->target) || changed;
      changed = pass(f->body) || changed;
      changed = pass(f->orelse) || changed;
      break;
    }
    case ast::NodeKind::While: {
      const auto* w = s->as<ast::While>();
      changed = pass(w->body) || changed;
      changed = pass(w->orelse) || changed;
      break;
    }
    case ast::NodeKind::If: {
      const auto* i = s->as<ast::If>();
      changed = pass(i->body) || changed;
      changed = pass(i->orelse) || changed;
      break;
    }
    default:
      break;
    }
  }
  return changed;
}

} // namespace pyk::codegen
