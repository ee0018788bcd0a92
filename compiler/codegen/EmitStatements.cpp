// EmitStatements: statements as C++ — expression statements, assignments (to locals, array
// items, record fields, by unpacking), augmented assignments, if/while, return, break/continue,
// and assert/raise (which numba compiles only with debug=True).
#include "codegen/UnitEmitter.h"
#include "sema/TypeRules.h"

namespace pyk::codegen {

void UnitEmitter::statement(const ast::Stmt* s) {
  lineDirective(s);
  const auto before = body_.tellp();
  const bool failedBefore = failed_;
  StmtVisitor::visit(s);
  if (body_.tellp() != before || failed_ != failedBefore)
    return;
  bool quiet = false; // what may rightly emit nothing
  switch (s->kind) {
  case ast::NodeKind::Pass:
  case ast::NodeKind::Assert: // numba compiles assert and raise with debug=True only
  case ast::NodeKind::Raise:
    quiet = true;
    break;
  case ast::NodeKind::ExprStmt:
    quiet = s->as<ast::ExprStmt>()->value->is<ast::Constant>(); // a docstring
    break;
  case ast::NodeKind::Assign:
  case ast::NodeKind::AnnAssign: {
    // `f = cuda.atomic.add`: a function or type object has nothing to store.
    const ast::Expr* value =
        s->is<ast::Assign>() ? s->as<ast::Assign>()->value : s->as<ast::AnnAssign>()->value;
    const NumbaType* t = value != nullptr ? typeOf(value) : nullptr;
    quiet = value == nullptr || (t != nullptr && t->isCompileTimeOnly());
    break;
  }
  default:
    break;
  }
  if (!quiet) {
    diags_.report(DiagKind::InternalError, s->range,
                  {"no code was emitted for this statement (a bug in pyk)"});
    failed_ = true;
  }
}

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
  if (stringIntoRecordField(a))
    return;
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

void UnitEmitter::storeInView(const ast::Subscript* target, const NumbaType& view,
                              const std::string& value, const NumbaType& valueType) {
  const std::string to = temp("view");
  line("{");
  line("  const auto " + to + " = " + expr(target) + ";");
  if (valueType.isScalar()) {
    line("  pyk::fill_items(" + to + ", " +
         cast(value, valueType, NumbaType::scalar(view.scalarKind())) + ");");
  } else {
    // numba raises ValueError for shapes that do not broadcast (reported only with debug=True);
    // pyk stops the launch instead of leaving the view partly written. Overlapping memory needs
    // the temporary numba would allocate, which a kernel cannot.
    const std::string result = temp("assigned");
    line("  const pyk::AssignResult " + result + " = pyk::assign_items(" + to + ", " + value +
         ");");
    line("  if (" + result + " == pyk::AssignResult::ShapeMismatch)");
    line("    " + target_.trapWith(stopMessage(
                      target, "ValueError: cannot assign slice from input of different size")));
    line("  if (" + result + " == pyk::AssignResult::Overlap)");
    line("    " + target_.trapWith(stopMessage(
                      target, "the source and the target of this slice assignment share memory "
                              "(pyk does not copy the source first, as numba does, yet)")));
  }
  line("}");
}

bool UnitEmitter::stringIntoRecordField(const ast::Assign* a) {
  const auto* c = a->value->as<ast::Constant>();
  if (c == nullptr ||
      (c->valueKind != ast::ConstantKind::Str && c->valueKind != ast::ConstantKind::Bytes) ||
      a->targets.size() != 1)
    return false;
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
    return false;
  const sema::RecordField* f = record->recordLayout().field(name);
  if (f == nullptr || (f->kind != sema::FieldKind::Bytes && f->kind != sema::FieldKind::Unicode))
    return false;
  // The characters, truncated to the field, then zeros (numba's constant str and bytes stores).
  std::vector<uint32_t> chars;
  if (f->kind == sema::FieldKind::Unicode)
    chars = sema::utf8CodePoints(c->strValue);
  else
    for (char ch : c->strValue)
      chars.push_back(static_cast<unsigned char>(ch));
  const std::string field = temp("chars");
  line("{");
  line("  auto* " + field + " = (" + expr(base) + ")->" + recordMemberName(name) + ";");
  for (int64_t k = 0; k < f->length; ++k)
    line("  " + field + "[" + std::to_string(k) + "] = " +
         std::to_string(k < static_cast<int64_t>(chars.size()) ? chars[static_cast<size_t>(k)]
                                                               : 0u) +
         "u;");
  line("}");
  return true;
}

void UnitEmitter::storeInRecord(const std::string& place, const NumbaType& placeType,
                                const std::string& value, const NumbaType& valueType) {
  if (placeType.isRecord()) { // a nested record: its bytes
    line("*" + place + " = *(" + value + ");");
    return;
  }
  if (placeType.isArray()) {
    // A sub-array field: numba copies as many items as it holds from the C-contiguous source.
    const std::string to = temp("field"), from = temp("from"), k = temp("k");
    line("{");
    line("  const auto " + to + " = " + place + ";");
    line("  const auto " + from + " = " + value + ";");
    line("  for (pyk::int64 " + k + " = 0; " + k + " < " + to + ".size(); ++" + k + ")");
    line("    " + to + ".data[" + k + "] = " + from + ".data[" + k + "];");
    line("}");
    return;
  }
  line(place + " = " + cast(value, valueType, placeType) + ";");
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
    return storeInRecord(expr(a), *field, value, valueType);
  }
  if (const auto* s = target->as<ast::Subscript>()) {
    const NumbaType* array = typeOf(s->value);
    if (array != nullptr && array->isRecord()) {
      const NumbaType* field = typeOf(s);
      if (field == nullptr)
        return unsupported(target->range, "this assignment target");
      return storeInRecord(expr(s), *field, value, valueType);
    }
    const NumbaType* element = typeOf(s);
    if (array != nullptr && array->isArray() && element != nullptr && element->isArray())
      return storeInView(s, *element, value, valueType);
    if (array != nullptr && array->isRecordArray() && element != nullptr && element->isRecord())
      // A whole record into an item: its bytes copied (the item's address is the subscript).
      return line("*" + expr(s) + " = *(" + value + ");");
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
