// EmitStatements: statements as C++ — expression statements, assignments (to locals, array
// items, record fields, by unpacking), augmented assignments, if/while, return, break/continue,
// and assert/raise (which numba compiles only with debug=True).
#include "codegen/UnitEmitter.h"
#include "sema/TypeRules.h"

namespace pyk::codegen {

void UnitEmitter::block(const std::vector<ast::Stmt*>& body) {
  for (const ast::Stmt* s : body)
    statement(s);
}

void UnitEmitter::visitExprStmt(const ast::ExprStmt* s) {
  if (s->value->is<ast::Constant>())
    return; // a docstring
  line(expr(s->value) + ";");
}

void UnitEmitter::visitAssign(const ast::Assign* a) {
  const NumbaType* t = typeOf(a->value);
  if (t == nullptr)
    return unsupported(a->value->range, "this value");
  std::string value = expr(a->value);
  if (a->targets.size() > 1 || !a->targets[0]->is<ast::Name>()) {
    std::string tmp = temp("value");
    line("const " + type(*t) + " " + tmp + " = " + value + ";");
    value = tmp;
  }
  for (const ast::Expr* target : a->targets)
    assign(target, value, *t);
}

void UnitEmitter::visitAugAssign(const ast::AugAssign* a) {
  const NumbaType* target = typeOf(a->target);
  const NumbaType* value = typeOf(a->value);
  if (const auto* n = a->target->as<ast::Name>()) {
    // `x op= v` is `x = x op v`: the version of `x` it reads may be held in another variable
    // (and have another type) than the one it makes.
    const sema::LocalVersions& versions = spec_->function->scope.versions;
    auto read = versions.augmentedRead.find(a);
    const StorageSlot* slot =
        read == versions.augmentedRead.end() ? nullptr : storage_.slotOf(read->second);
    const NumbaType* old =
        read == versions.augmentedRead.end() ? nullptr : spec_->versionType(read->second);
    if (slot == nullptr || old == nullptr || target == nullptr || value == nullptr)
      return unsupported(a->range, "this augmented assignment");
    const Operand left{
        cast(slotVariable(*slot, versions.versions[read->second].variable), slot->type, *old),
        *old};
    std::string result = binary(a->op, left, Operand{expr(a->value), *value}, *target, a->range);
    assign(n, result, *target);
    return;
  }
  if (target == nullptr || value == nullptr || !target->isScalar() || !value->isScalar())
    return unsupported(a->range, "this augmented assignment");
  std::optional<ScalarKind> k =
      sema::binaryResultType(a->op, target->scalarKind(), value->scalarKind());
  if (!k)
    return unsupported(a->range, "this augmented assignment");
  std::string result = binary(a->op, a->target, a->value, NumbaType::scalar(*k), a->range);
  assign(a->target, result, NumbaType::scalar(*k));
}

void UnitEmitter::visitAnnAssign(const ast::AnnAssign* a) {
  if (a->value != nullptr && typeOf(a->value) != nullptr)
    assign(a->target, expr(a->value), *typeOf(a->value));
}

void UnitEmitter::visitReturn(const ast::Return* r) {
  if (r->value == nullptr || spec_->returnType.isVoid()) {
    line(spec_->function->kind == sema::CompiledFunctionKind::Kernel ? threadExit_ : "return;");
    return;
  }
  line("return " + castTo(r->value, spec_->returnType) + ";");
}

void UnitEmitter::visitBreak(const ast::Break* b) {
  edgeCopies(sema::PhiEdge::Break, b);
  if (!breakFlags_.empty() && !breakFlags_.back().empty())
    line(breakFlags_.back() + " = true;");
  line("break;");
}

void UnitEmitter::visitContinue(const ast::Continue* c) {
  edgeCopies(sema::PhiEdge::Continue, c);
  line("continue;");
}

void UnitEmitter::edgeCopies(sema::PhiEdge edge, const ast::Node* at) {
  for (const VariableStorage::Copy& c : storage_.copiesAt(edge, at))
    line(c.to->cppName + " = " + cast(c.from->cppName, c.from->type, c.to->type) + ";");
}

void UnitEmitter::visitStmt(const ast::Stmt* s) {
  unsupported(s->range, std::string("the statement `") + ast::nodeKindName(s->kind) + "`");
}

void UnitEmitter::visitIf(const ast::If* i) {
  line("if (" + truthy(i->test) + ") {");
  ++indent_;
  block(i->body);
  edgeCopies(sema::PhiEdge::IfThen, i);
  --indent_;
  if (!i->orelse.empty() || !storage_.copiesAt(sema::PhiEdge::IfElse, i).empty()) {
    line("} else {");
    ++indent_;
    block(i->orelse);
    edgeCopies(sema::PhiEdge::IfElse, i);
    --indent_;
  }
  line("}");
}

void UnitEmitter::visitWhile(const ast::While* w) {
  const std::string flag = loopEntry(w, w->orelse);
  line("while (" + truthy(w->test) + ") {");
  ++indent_;
  breakFlags_.push_back(flag);
  block(w->body);
  edgeCopies(sema::PhiEdge::LoopBack, w);
  breakFlags_.pop_back();
  --indent_;
  line("}");
  loopExit(w, flag, w->orelse);
}

void UnitEmitter::debugCheck(const ast::Stmt* s) {
  // numba compiles these only with debug=True; without it they do nothing. With it, the
  // failing thread prints the exception, with its source location, and traps: the launch then
  // fails with an error the host sees.
  if (!spec_->function->options.debug.value_or(false))
    return;
  std::string where = sourcePath() + ":" + std::to_string(s->range.begin.line);
  std::string what = "AssertionError";
  std::string message;
  std::string condition = "true";
  if (const auto* a = s->as<ast::Assert>()) {
    condition = "!" + truthy(a->test);
    if (const auto* m = a->msg ? a->msg->as<ast::Constant>() : nullptr;
        m && m->valueKind == ast::ConstantKind::Str)
      message = m->strValue;
  } else if (const auto* r = s->as<ast::Raise>(); r->exc != nullptr) {
    const ast::Expr* exc = r->exc;
    const ast::Call* call = exc->as<ast::Call>();
    if (call != nullptr)
      exc = call->func;
    if (const auto* n = exc->as<ast::Name>())
      what = n->id;
    if (call != nullptr && !call->args.empty())
      if (const auto* m = call->args[0]->as<ast::Constant>();
          m && m->valueKind == ast::ConstantKind::Str)
        message = m->strValue;
  }
  std::string text = where + ": " + what + (message.empty() ? "" : ": " + message) + "\n";
  std::string literal;
  for (char ch : text) {
    if (ch == '\n') {
      literal += "\\n";
      continue;
    }
    if (ch == '"' || ch == '\\')
      literal += '\\';
    literal += ch == '%' ? std::string("%%") : std::string(1, ch);
  }
  line("if (" + condition + ") {");
  line("  printf(\"" + literal + "\");");
  line("  " + target_.trap());
  line("}");
}

void UnitEmitter::assign(const ast::Expr* target, const std::string& value,
                         const NumbaType& valueType) {
  if (const auto* n = target->as<ast::Name>()) {
    // The version the store makes, in its C++ variable (converted to that variable's type, which
    // is the version's own unless nothing reads it before a phi of another type).
    const sema::LocalVersions& versions = spec_->function->scope.versions;
    const size_t v = versions.ofNameOr(n);
    const StorageSlot* slot = storage_.slotOf(v);
    if (slot == nullptr || typeOf(n) == nullptr)
      return unsupported(n->range, "this assignment");
    if (slot->type.isCompileTimeOnly())
      return; // `f = cuda.atomic.add`: typing knows what `f` is; nothing to store
    line(slotVariable(*slot, versions.versions[v].variable) + " = " +
         cast(cast(value, valueType, *typeOf(n)), *typeOf(n), slot->type) + ";");
    return;
  }
  if (const auto* a = target->as<ast::Attribute>()) {
    const NumbaType* field = typeOf(a);
    if (field == nullptr)
      return unsupported(target->range, "this assignment target");
    line(expr(a) + " = " + cast(value, valueType, *field) + ";");
    return;
  }
  if (const auto* s = target->as<ast::Subscript>()) {
    const NumbaType* array = typeOf(s->value);
    if (array != nullptr && array->isRecord()) {
      const NumbaType* field = typeOf(s);
      if (field == nullptr)
        return unsupported(target->range, "this assignment target");
      line(expr(s) + " = " + cast(value, valueType, *field) + ";");
      return;
    }
    if (array == nullptr || !array->isArray() || array->isRecordArray())
      return unsupported(target->range, "this assignment target");
    std::string indices;
    std::vector<const ast::Expr*> items;
    if (const auto* tuple = s->slice->as<ast::Tuple>())
      items.assign(tuple->elts.begin(), tuple->elts.end());
    else
      items.push_back(s->slice);
    if (static_cast<int>(items.size()) != array->ndim())
      return unsupported(target->range, "assigning through a partial index or a slice");
    for (size_t i = 0; i < items.size(); ++i)
      indices += (i ? ", " : "") + arrayIndex(items[i]);
    line(arrayElement(s->value, indices) + " = " +
         cast(value, valueType, NumbaType::scalar(array->scalarKind())) + ";");
    return;
  }
  if (target->is<ast::Tuple>() || target->is<ast::List>()) {
    const auto& elts =
        target->is<ast::Tuple>() ? target->as<ast::Tuple>()->elts : target->as<ast::List>()->elts;
    for (size_t i = 0; i < elts.size(); ++i)
      assign(elts[i], element(valueType, value, i), valueType.elements()[i]);
    return;
  }
  unsupported(target->range, "this assignment target");
}

} // namespace pyk::codegen
