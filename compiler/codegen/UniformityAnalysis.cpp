// UniformityAnalysis: an optimistic fixed point. Every local starts uniform; one assigned a
// non-uniform value, or assigned under control flow that differs between threads, is demoted;
// passes repeat until nothing changes.
#include "codegen/UniformityAnalysis.h"

#include "sema/ModuleApiCatalog.h"

namespace pyk::codegen {

namespace {

bool anyNode(const ast::Node* n, bool (*predicate)(const ast::Node*)) {
  if (predicate(n))
    return true;
  bool found = false;
  ast::forEachChild(const_cast<ast::Node*>(n), [&](ast::Node* child) {
    if (!found && child != nullptr)
      found = anyNode(child, predicate);
  });
  return found;
}

} // namespace

bool hasJump(const std::vector<ast::Stmt*>& body) {
  for (const ast::Stmt* s : body)
    if (anyNode(s, [](const ast::Node* n) {
          return n->kind == ast::NodeKind::Break || n->kind == ast::NodeKind::Continue ||
                 n->kind == ast::NodeKind::Return;
        }))
      return true;
  return false;
}

UniformityAnalysis::UniformityAnalysis(const sema::Specialization& kernel) : kernel_(kernel) {
  for (const std::string& local : kernel.function->scope.locals)
    uniformLocals_.insert(local);
  while (pass(kernel.function->def->body, true)) {
  }
}

bool UniformityAnalysis::uniform(const ast::Expr* e) const {
  if (e == nullptr)
    return true;
  const sema::FunctionScope& scope = kernel_.function->scope;
  switch (e->kind) {
  case ast::NodeKind::Constant:
    return true;
  case ast::NodeKind::Name: {
    const auto* n = e->as<ast::Name>();
    auto it = scope.names.find(n);
    if (it == scope.names.end())
      return false;
    switch (it->second.kind) {
    case sema::NameBinding::Kind::Parameter:
    case sema::NameBinding::Kind::ModuleConstant:
    case sema::NameBinding::Kind::Builtin:
    case sema::NameBinding::Kind::Api:
      return true; // an array parameter is uniform as an array (its items are not, see Subscript)
    case sema::NameBinding::Kind::Local:
      return uniformLocals_.count(n->id) != 0;
    default:
      return false;
    }
  }
  case ast::NodeKind::Attribute: {
    const auto* a = e->as<ast::Attribute>();
    if (const sema::Intrinsic id = kernel_.intrinsicOf(a); id != sema::Intrinsic::None)
      return sema::intrinsicInfo(id).has(sema::intrinsic_flags::BlockUniform);
    if (!sema::qualifiedApiName(scope, a).empty())
      return false;
    // Array metadata and tuple fields of a uniform value.
    return uniform(a->value) &&
           (a->attr == "shape" || a->attr == "size" || a->attr == "ndim" || a->attr == "strides" ||
            a->attr == "real" || a->attr == "imag" ||
            (kernel_.typeOf(a->value) != nullptr && kernel_.typeOf(a->value)->isTuple()));
  }
  case ast::NodeKind::Subscript: {
    const auto* s = e->as<ast::Subscript>();
    const sema::NumbaType* t = kernel_.typeOf(s->value);
    // Items of a tuple (a shape, say) are uniform; items of arrays are memory, never assumed so.
    return t != nullptr && t->isTuple() && uniform(s->value) && uniform(s->slice);
  }
  case ast::NodeKind::Call: {
    const auto* c = e->as<ast::Call>();
    if (kernel_.callees.count(c) != 0)
      return false; // a device function may read memory
    // An intrinsic whose result is the same in every thread when its arguments are, or a cast.
    const sema::Intrinsic id = kernel_.intrinsicOf(c->func);
    bool pure = false;
    if (id != sema::Intrinsic::None) {
      pure = sema::intrinsicInfo(id).has(sema::intrinsic_flags::BlockUniform);
    } else if (const std::string api = sema::qualifiedApiName(scope, c->func); !api.empty()) {
      const sema::ApiEntity* entity = sema::findApi(api);
      pure = entity != nullptr && entity->kind == sema::ApiKind::Type;
    }
    if (!pure)
      return false;
    for (const ast::Expr* a : c->args)
      if (!uniform(a))
        return false;
    for (const ast::Keyword& k : c->keywords)
      if (!uniform(k.value))
        return false;
    return true;
  }
  case ast::NodeKind::BinOp:
  case ast::NodeKind::UnaryOp:
  case ast::NodeKind::BoolOp:
  case ast::NodeKind::Compare:
  case ast::NodeKind::IfExp:
  case ast::NodeKind::Tuple: {
    bool all = true;
    ast::forEachChild(const_cast<ast::Expr*>(e), [&](ast::Node* child) {
      if (all && child != nullptr)
        all = uniform(static_cast<const ast::Expr*>(child));
    });
    return all;
  }
  default:
    return false;
  }
}

bool UniformityAnalysis::demoteTargets(const ast::Expr* target, bool uniformValue) {
  if (uniformValue)
    return false;
  bool changed = false;
  if (const auto* n = target->as<ast::Name>()) {
    changed = uniformLocals_.erase(n->id) != 0;
  } else if (const auto* t = target->as<ast::Tuple>()) {
    for (const ast::Expr* e : t->elts)
      changed = demoteTargets(e, false) || changed;
  } else if (const auto* l = target->as<ast::List>()) {
    for (const ast::Expr* e : l->elts)
      changed = demoteTargets(e, false) || changed;
  }
  return changed;
}

bool UniformityAnalysis::pass(const std::vector<ast::Stmt*>& body, bool uniformControl) {
  bool changed = false;
  for (const ast::Stmt* s : body) {
    switch (s->kind) {
    case ast::NodeKind::Assign: {
      const auto* a = s->as<ast::Assign>();
      for (const ast::Expr* t : a->targets)
        changed = demoteTargets(t, uniformControl && uniform(a->value)) || changed;
      break;
    }
    case ast::NodeKind::AugAssign: {
      const auto* a = s->as<ast::AugAssign>();
      changed =
          demoteTargets(a->target, uniformControl && uniform(a->value) && uniform(a->target)) ||
          changed;
      break;
    }
    case ast::NodeKind::AnnAssign: {
      const auto* a = s->as<ast::AnnAssign>();
      if (a->value != nullptr)
        changed = demoteTargets(a->target, uniformControl && uniform(a->value)) || changed;
      break;
    }
    case ast::NodeKind::For: {
      const auto* f = s->as<ast::For>();
      const auto* call = f->iter->as<ast::Call>();
      bool header = call != nullptr && kernel_.intrinsicOf(call->func) == sema::Intrinsic::Range;
      if (header)
        for (const ast::Expr* a : call->args)
          header = header && uniform(a);
      const bool inner = uniformControl && header && !hasJump(f->body);
      changed = demoteTargets(f->target, inner) || changed;
      changed = pass(f->body, inner) || changed;
      changed = pass(f->orelse, inner) || changed;
      break;
    }
    case ast::NodeKind::While: {
      const auto* w = s->as<ast::While>();
      const bool inner = uniformControl && uniform(w->test) && !hasJump(w->body);
      changed = pass(w->body, inner) || changed;
      changed = pass(w->orelse, inner) || changed;
      break;
    }
    case ast::NodeKind::If: {
      const auto* i = s->as<ast::If>();
      const bool inner = uniformControl && uniform(i->test);
      changed = pass(i->body, inner) || changed;
      changed = pass(i->orelse, inner) || changed;
      break;
    }
    default:
      break;
    }
  }
  return changed;
}

} // namespace pyk::codegen
