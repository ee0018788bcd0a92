// UniformityAnalysis: an optimistic fixed point (LocalFixpoint). Every local starts uniform; one
// assigned a non-uniform value, or assigned under control flow that differs between threads, is
// demoted; passes repeat until nothing changes.
#include "codegen/UniformityAnalysis.h"

#include "syntax/ResultVisitor.h"

namespace pyk::codegen {

namespace {

// Whether `body` has a break, continue or return (at any depth).
bool hasJump(const std::vector<ast::Stmt*>& body) {
  bool found = false;
  for (const ast::Stmt* s : body)
    ast::forEachNode(s, [&](const ast::Node* n) {
      found = found || n->kind == ast::NodeKind::Break || n->kind == ast::NodeKind::Continue ||
              n->kind == ast::NodeKind::Return;
    });
  return found;
}

} // namespace

bool callOfArgumentsAlone(const sema::Specialization& spec, const ast::Call* c, uint32_t flag) {
  if (spec.callees.count(c) != 0)
    return false;
  if (const sema::Intrinsic id = spec.intrinsicOf(c->func); id != sema::Intrinsic::None)
    return sema::intrinsicInfo(id).has(flag);
  return sema::scalarTypeObject(spec.function->scope, c->func).has_value(); // a cast
}

// Whether an expression is block-uniform, given the locals found uniform so far.
class UniformityAnalysis::UniformValue : public ast::ExprVisitor<UniformValue, bool> {
public:
  explicit UniformValue(const UniformityAnalysis& analysis)
      : analysis_(analysis), kernel_(analysis.kernel_), scope_(kernel_.function->scope) {}

  bool visitConstant(const ast::Constant*) { return true; }

  bool visitName(const ast::Name* n) {
    auto it = scope_.names.find(n);
    if (it == scope_.names.end())
      return false;
    switch (it->second.kind) {
    case sema::NameBinding::Kind::Parameter:
    case sema::NameBinding::Kind::ModuleConstant:
    case sema::NameBinding::Kind::Builtin:
    case sema::NameBinding::Kind::Api:
      return true; // an array parameter is uniform as an array (its items are not, see Subscript)
    case sema::NameBinding::Kind::Local:
      return analysis_.uniformVariable(it->second.index);
    default:
      return false;
    }
  }

  bool visitAttribute(const ast::Attribute* a) {
    if (const sema::Intrinsic id = kernel_.intrinsicOf(a); id != sema::Intrinsic::None)
      return sema::intrinsicInfo(id).has(sema::intrinsic_flags::BlockUniform);
    if (!sema::qualifiedApiName(scope_, a).empty())
      return false;
    // Array metadata and tuple fields of a uniform value.
    return visit(a->value) &&
           (a->attr == "shape" || a->attr == "size" || a->attr == "ndim" || a->attr == "strides" ||
            a->attr == "real" || a->attr == "imag" ||
            (kernel_.typeOf(a->value) != nullptr && kernel_.typeOf(a->value)->isTuple()));
  }

  bool visitSubscript(const ast::Subscript* s) {
    const sema::NumbaType* t = kernel_.typeOf(s->value);
    // Items of a tuple (a shape, say) are uniform; items of arrays are memory, never assumed so.
    return t != nullptr && t->isTuple() && visit(s->value) && visit(s->slice);
  }

  bool visitCall(const ast::Call* c) {
    // An intrinsic whose result is the same in every thread when its arguments are, or a cast.
    if (!callOfArgumentsAlone(kernel_, c, sema::intrinsic_flags::BlockUniform))
      return false;
    for (const ast::Expr* a : c->args)
      if (!visit(a))
        return false;
    for (const ast::Keyword& k : c->keywords)
      if (!visit(k.value))
        return false;
    return true;
  }

  // Operators, conditional expressions and tuples: uniform when every operand is.
  bool visitBinOp(const ast::BinOp* e) { return operandsUniform(e); }
  bool visitUnaryOp(const ast::UnaryOp* e) { return operandsUniform(e); }
  bool visitBoolOp(const ast::BoolOp* e) { return operandsUniform(e); }
  bool visitCompare(const ast::Compare* e) { return operandsUniform(e); }
  bool visitIfExp(const ast::IfExp* e) { return operandsUniform(e); }
  bool visitTuple(const ast::Tuple* e) { return operandsUniform(e); }

private:
  bool operandsUniform(const ast::Expr* e) {
    bool all = true;
    ast::forEachChild(const_cast<ast::Expr*>(e), [&](ast::Node* child) {
      if (all && child != nullptr)
        all = visit(static_cast<const ast::Expr*>(child));
    });
    return all;
  }

  const UniformityAnalysis& analysis_;
  const sema::Specialization& kernel_;
  const sema::FunctionScope& scope_;
};

// One pass over a body: demotes the locals assigned a value that may differ between threads, or
// assigned under control flow that may (`uniformControl` false).
class UniformityAnalysis::Demotion : public ast::StmtVisitor<Demotion, void, bool> {
public:
  explicit Demotion(UniformityAnalysis& analysis) : analysis_(analysis) {}

  void body(const std::vector<ast::Stmt*>& statements, bool uniformControl) {
    for (const ast::Stmt* s : statements)
      visit(s, uniformControl);
  }

  void visitAssign(const ast::Assign* a, bool uniformControl) {
    for (const ast::Expr* t : a->targets)
      assign(t, uniformControl && analysis_.uniform(a->value));
  }
  void visitAugAssign(const ast::AugAssign* a, bool uniformControl) {
    assign(a->target,
           uniformControl && analysis_.uniform(a->value) && analysis_.uniform(a->target));
  }
  void visitAnnAssign(const ast::AnnAssign* a, bool uniformControl) {
    if (a->value != nullptr)
      assign(a->target, uniformControl && analysis_.uniform(a->value));
  }
  void visitFor(const ast::For* f, bool uniformControl) {
    const auto* call = f->iter->as<ast::Call>();
    const sema::Specialization& kernel = analysis_.kernel_;
    bool header = call != nullptr && kernel.intrinsicOf(call->func) == sema::Intrinsic::Range;
    if (header)
      for (const ast::Expr* a : call->args)
        header = header && analysis_.uniform(a);
    const bool inner = uniformControl && header && !hasJump(f->body);
    assign(f->target, inner);
    body(f->body, inner);
    body(f->orelse, inner);
  }
  void visitWhile(const ast::While* w, bool uniformControl) {
    const bool inner = uniformControl && analysis_.uniform(w->test) && !hasJump(w->body);
    body(w->body, inner);
    body(w->orelse, inner);
  }
  void visitIf(const ast::If* i, bool uniformControl) {
    const bool inner = uniformControl && analysis_.uniform(i->test);
    body(i->body, inner);
    body(i->orelse, inner);
  }

private:
  void assign(const ast::Expr* target, bool uniformValue) {
    if (uniformValue)
      return;
    forEachTargetName(target, [&](const ast::Name* n) {
      if (std::optional<size_t> local = localIndex(analysis_.kernel_.function->scope, n))
        analysis_.uniformLocals_.demote(*local);
    });
  }

  UniformityAnalysis& analysis_;
};

UniformityAnalysis::UniformityAnalysis(const sema::Specialization& kernel)
    : kernel_(kernel), uniformLocals_(kernel.function->scope.locals.size()) {
  for (size_t i = 0; i < kernel.function->scope.locals.size(); ++i)
    uniformLocals_.admit(i);
  uniformLocals_.solve([&] { Demotion(*this).body(kernel.function->def->body, true); });
}

bool UniformityAnalysis::uniform(const ast::Expr* e) const {
  return e == nullptr || UniformValue(*this).visit(e);
}

bool UniformityAnalysis::uniformVariable(const ast::Name* n) const {
  std::optional<size_t> local = localIndex(kernel_.function->scope, n);
  return local && uniformVariable(*local);
}

} // namespace pyk::codegen
