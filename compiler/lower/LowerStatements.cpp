// LowerStatements: statements as IR — expression statements, assignments (to variables, array
// items, record fields and views, by unpacking; str constants into character fields), augmented
// and annotated assignments, if/while, return, break/continue, and assert/raise (which numba
// compiles only with debug=True); what does nothing here becomes a Nop.
#include "lower/FunctionLowering.h"
#include "sema/typing/TypeRules.h"

namespace pyk::lower {

std::vector<ir::Stmt*> FunctionLowering::block(const std::vector<ast::Stmt*>& body) {
  std::vector<ir::Stmt*> out;
  for (const ast::Stmt* s : body)
    if (ir::Stmt* lowered = statement(s))
      out.push_back(lowered);
  return out;
}

ir::Stmt* FunctionLowering::statement(const ast::Stmt* s) {
  ir::Stmt* out = StmtVisitor::visit(s);
  if (out != nullptr)
    statements_[s] = out;
  return out;
}

ir::Stmt* FunctionLowering::nop(const ast::Stmt* s, const char* what) {
  auto* n = make<ir::Nop>(s->range);
  n->what = what;
  return n;
}

ir::Stmt* FunctionLowering::visitStmt(const ast::Stmt* s) {
  unsupported(s->range, std::string("the statement `") + ast::nodeKindName(s->kind) + "`");
  return nullptr;
}

ir::Stmt* FunctionLowering::visitExprStmt(const ast::ExprStmt* s) {
  if (s->value->is<ast::Constant>())
    return nop(s, "docstring");
  ir::Expr* value = expr(s->value);
  if (value == nullptr)
    return nullptr;
  auto* e = make<ir::Evaluate>(s->range);
  e->value = value;
  return e;
}

ir::Stmt* FunctionLowering::visitAssign(const ast::Assign* a) {
  if (ir::Stmt* chars = stringIntoRecordField(a))
    return chars;
  const NumbaType* t = typeOf(a->value);
  if (t == nullptr) {
    unsupported(a->value->range, "this value");
    return nullptr;
  }
  ir::Expr* value = expr(a->value);
  auto* out = make<ir::Assign>(a->range);
  out->value = value;
  for (const ast::Expr* target : a->targets)
    out->targets.push_back(this->target(target, *t));
  for (const ir::Target* target : out->targets)
    if (target == nullptr)
      return nullptr;
  return value == nullptr ? nullptr : out;
}

ir::Stmt* FunctionLowering::stringIntoRecordField(const ast::Assign* a) {
  const auto* c = a->value->as<ast::Constant>();
  if (c == nullptr ||
      (c->valueKind != ast::ConstantKind::Str && c->valueKind != ast::ConstantKind::Bytes) ||
      a->targets.size() != 1)
    return nullptr;
  const ast::Expr* target = a->targets[0];
  const ast::Expr* base = nullptr;
  std::string name;
  if (const auto* at = target->as<ast::Attribute>()) {
    base = at->value;
    name = at->attr;
  } else if (const auto* s = target->as<ast::Subscript>();
             s != nullptr && s->slice->is<ast::Constant>()) {
    base = s->value;
    name = s->slice->as<ast::Constant>()->strValue;
  }
  const NumbaType* record = base != nullptr ? typeOf(base) : nullptr;
  if (record == nullptr || !record->isRecord())
    return nullptr;
  const types::RecordField* f = record->recordLayout().field(name);
  if (f == nullptr || (f->kind != types::FieldKind::Bytes && f->kind != types::FieldKind::Unicode))
    return nullptr;
  ir::Expr* recordValue = expr(base);
  if (recordValue == nullptr)
    return nullptr;
  auto* out = make<ir::StoreCharacters>(a->range);
  out->record = recordValue;
  out->field = name;
  if (f->kind == types::FieldKind::Unicode)
    out->characters = sema::utf8CodePoints(c->strValue);
  else
    for (char ch : c->strValue)
      out->characters.push_back(static_cast<unsigned char>(ch));
  return out;
}

ir::Stmt* FunctionLowering::visitAugAssign(const ast::AugAssign* a) {
  const NumbaType* target = typeOf(a->target);
  const NumbaType* value = typeOf(a->value);
  if (a->target->is<ast::Name>()) {
    // `x op= v` is `x = x op v`: the version of `x` it reads may have another type than the one
    // it makes.
    const sema::LocalVersions& versions = scope_.versions;
    auto read = versions.augmentedRead.find(a);
    const NumbaType* old =
        read == versions.augmentedRead.end() ? nullptr : spec_.versionType(read->second);
    if (old == nullptr || target == nullptr || value == nullptr) {
      unsupported(a->range, "this augmented assignment");
      return nullptr;
    }
    auto* oldValue = makeExpr<ir::Read>(a->target->range, *old);
    oldValue->variable = versionRef(read->second);
    ir::Expr* left = old->isOptional() ? unwrap(oldValue) : oldValue; // typing took its value
    ir::Expr* result = binary(a->op, left, expr(a->value), *target, a->range);
    ir::Target* place = this->target(a->target, *target);
    return store(a->range, place, result, true);
  }
  if (target == nullptr || value == nullptr || !target->isScalar() || !value->isScalar()) {
    unsupported(a->range, "this augmented assignment");
    return nullptr;
  }
  std::optional<ScalarKind> k =
      sema::binaryResultType(a->op, target->scalarKind(), value->scalarKind());
  if (!k) {
    unsupported(a->range, "this augmented assignment");
    return nullptr;
  }
  // The target read as a value, then stored to: `a[i] += v` is `a[i] = a[i] + v`.
  ir::Expr* result = binary(a->op, a->target, a->value, NumbaType::scalar(*k), a->range);
  ir::Target* place = this->target(a->target, NumbaType::scalar(*k));
  return store(a->range, place, result, true);
}

ir::Stmt* FunctionLowering::visitAnnAssign(const ast::AnnAssign* a) {
  const NumbaType* t = a->value != nullptr ? typeOf(a->value) : nullptr;
  if (a->value == nullptr)
    return nop(a, "a declaration");
  if (t == nullptr) {
    unsupported(a->value->range, "this value");
    return nullptr;
  }
  ir::Expr* value = expr(a->value);
  ir::Target* place = target(a->target, *t);
  return store(a->range, place, value, false);
}

ir::Stmt* FunctionLowering::store(SourceRange at, ir::Target* target, ir::Expr* value,
                                  bool augmented) {
  if (target == nullptr || value == nullptr)
    return nullptr;
  auto* out = make<ir::Store>(at);
  out->target = target;
  out->value = value;
  out->augmented = augmented;
  return out;
}

ir::Stmt* FunctionLowering::visitReturn(const ast::Return* r) {
  auto* out = make<ir::Return>(r->range);
  if (spec_.returnType.isVoid())
    return out;
  out->value = r->value == nullptr ? returnedNone(r->range) : exprAs(r->value, spec_.returnType);
  return out->value == nullptr ? nullptr : out;
}

ir::Stmt* FunctionLowering::visitIf(const ast::If* i) {
  auto* out = make<ir::If>(i->range);
  statements_[i] = out; // before the bodies: their breaks and phis name it
  out->condition = condition(i->test);
  out->then = block(i->body);
  out->otherwise = block(i->orelse);
  return out->condition == nullptr ? nullptr : out;
}

ir::Stmt* FunctionLowering::visitWhile(const ast::While* w) {
  auto* out = make<ir::While>(w->range);
  statements_[w] = out;
  out->condition = condition(w->test);
  out->body = block(w->body);
  out->otherwise = block(w->orelse);
  return out->condition == nullptr ? nullptr : out;
}

ir::Stmt* FunctionLowering::exceptionCheck(const ast::Stmt* s) {
  // numba raises the exception from the thread (its function returns with the exception's
  // status): with debug=True the kernel's launch reports it; without, the thread has ended.
  auto* out = make<ir::Check>(s->range);
  out->debug = spec_.function->options.debug.value_or(false);
  out->exception = "AssertionError";
  if (const auto* a = s->as<ast::Assert>()) {
    out->condition = condition(a->test);
    if (out->condition == nullptr)
      return nullptr;
    if (const auto* m = a->msg ? a->msg->as<ast::Constant>() : nullptr;
        m && m->valueKind == ast::ConstantKind::Str)
      out->message = m->strValue;
  } else if (const auto* r = s->as<ast::Raise>(); r->exc != nullptr) {
    const ast::Expr* exc = r->exc;
    const ast::Call* call = exc->as<ast::Call>();
    if (call != nullptr)
      exc = call->func;
    if (const auto* n = exc->as<ast::Name>())
      out->exception = n->id;
    if (call != nullptr && !call->args.empty())
      if (const auto* m = call->args[0]->as<ast::Constant>();
          m && m->valueKind == ast::ConstantKind::Str)
        out->message = m->strValue;
  }
  return out;
}

} // namespace pyk::lower
