// EmitStatements: statements as C++ — expression statements, assignments and stores (to the C++
// variable of a version, array items, record fields, views, by unpacking; str constants into
// character fields), if/while, return, break/continue, and the checks of assert/raise with
// debug=True.
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

void UnitEmitter::statement(const ir::Stmt* s) {
  lineDirective(s);
  const auto before = body_.tellp();
  const bool failedBefore = failed_;
  StmtVisitor::visit(s);
  if (body_.tellp() != before || failed_ != failedBefore)
    return;
  // What may rightly emit nothing: a Nop, and a value of a function or type object stored.
  bool quiet = s->is<ir::Nop>();
  const ir::Expr* value = nullptr;
  if (const auto* a = s->as<ir::Assign>())
    value = a->value;
  else if (const auto* st = s->as<ir::Store>())
    value = st->value;
  // A None stored into a variable that only ever holds None has nothing to store either.
  quiet = quiet || (value != nullptr && (value->type.isCompileTimeOnly() ||
                                         (value->type.isVoid() && value->is<ir::Literal>())));
  if (!quiet) {
    diags_.report(DiagKind::InternalError, s->range,
                  {"no code was emitted for this statement (a bug in pyk)"});
    failed_ = true;
  }
}

void UnitEmitter::block(const std::vector<ir::Stmt*>& body) {
  for (const ir::Stmt* s : body)
    statement(s);
}

void UnitEmitter::visitEvaluate(const ir::Evaluate* s) {
  line(expr(s->value) + ";");
}

void UnitEmitter::visitAssign(const ir::Assign* a) {
  std::string value = expr(a->value);
  // The value first, as Python evaluates it: into a temporary when it goes anywhere but into one
  // variable.
  if (a->targets.size() > 1 || !a->targets[0]->is<ir::LocalTarget>()) {
    std::string tmp = temp("value");
    line("const " + type(a->value->type) + " " + tmp + " = " + value + ";");
    value = tmp;
  }
  for (const ir::Target* target : a->targets)
    assign(target, value, a->value->type);
}

void UnitEmitter::visitStore(const ir::Store* s) {
  assign(s->target, expr(s->value), s->value->type);
}

void UnitEmitter::visitStoreCharacters(const ir::StoreCharacters* s) {
  // The characters, truncated to the field, then zeros (numba's constant str and bytes stores).
  const types::RecordField* f = s->record->type.recordLayout().field(s->field);
  const std::string field = temp("chars");
  line("{");
  line("  auto* " + field + " = (" + expr(s->record) + ")->" + recordMemberName(s->field) + ";");
  for (int64_t k = 0; k < f->length; ++k)
    line("  " + field + "[" + std::to_string(k) + "] = " +
         std::to_string(k < static_cast<int64_t>(s->characters.size())
                            ? s->characters[static_cast<size_t>(k)]
                            : 0u) +
         "u;");
  line("}");
}

void UnitEmitter::visitReturn(const ir::Return* r) {
  if (r->value == nullptr) {
    line(fn_->kind == types::CompiledFunctionKind::Kernel ? threadExit_ : "return;");
    return;
  }
  line("return " + expr(r->value) + ";");
}

void UnitEmitter::visitBreak(const ir::Break* b) {
  edgeCopies(sema::PhiEdge::Break, b);
  if (const auto jump = roundJumps_.find(b); jump != roundJumps_.end()) {
    lines(jump->second);
    return;
  }
  if (!breakFlags_.empty() && !breakFlags_.back().empty())
    line(breakFlags_.back() + " = true;");
  line("break;");
}

void UnitEmitter::visitContinue(const ir::Continue* c) {
  edgeCopies(sema::PhiEdge::Continue, c);
  const auto jump = roundJumps_.find(c);
  lines(jump != roundJumps_.end() ? jump->second : "continue;");
}

void UnitEmitter::edgeCopies(sema::PhiEdge edge, const ir::Stmt* at) {
  for (const VariableStorage::Copy& c : storage_.copiesAt(edge, at))
    line(slotVariable(*c.to, c.variable) + " = " +
         cast(slotVariable(*c.from, c.variable), c.from->type, c.to->type) + ";");
}

void UnitEmitter::visitIf(const ir::If* i) {
  line("if (" + expr(i->condition) + ") {");
  ++indent_;
  block(i->then);
  edgeCopies(sema::PhiEdge::IfThen, i);
  --indent_;
  if (!i->otherwise.empty() || !storage_.copiesAt(sema::PhiEdge::IfElse, i).empty()) {
    line("} else {");
    ++indent_;
    block(i->otherwise);
    edgeCopies(sema::PhiEdge::IfElse, i);
    --indent_;
  }
  line("}");
}

void UnitEmitter::visitWhile(const ir::While* w) {
  const std::string flag = loopEntry(w, w->otherwise);
  line("while (" + expr(w->condition) + ") {");
  ++indent_;
  if (const std::string progress = target_.loopProgress(); !progress.empty())
    line(progress);
  breakFlags_.push_back(flag);
  block(w->body);
  edgeCopies(sema::PhiEdge::LoopBack, w);
  breakFlags_.pop_back();
  --indent_;
  line("}");
  loopExit(w, flag, w->otherwise);
}

// `assert` and `raise` with debug=True: the failing thread prints the exception, with its source
// location, and traps; the launch then fails with an error the host sees. Without debug=True the
// thread ends there, as numba's does (its exception status is not looked at).
void UnitEmitter::visitCheck(const ir::Check* c) {
  if (!c->debug) {
    endsThreadsEarly_ = true;
    line("if (" + (c->condition != nullptr ? "!" + expr(c->condition) : std::string("true")) +
         ") {");
    line("  " + target_.endThread());
    line("}");
    return;
  }
  std::string where = fn_->sourcePath + ":" + std::to_string(c->range.begin.line);
  std::string text =
      where + ": " + c->exception + (c->message.empty() ? "" : ": " + c->message) + "\n";
  std::string condition = c->condition != nullptr ? "!" + expr(c->condition) : "true";
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

// ---- stores ----

void UnitEmitter::visitLocalTarget(const ir::LocalTarget* t, const std::string& value,
                                   const NumbaType& valueType) {
  // The version the store makes, in its C++ variable (converted to that variable's type, which
  // is the version's own unless nothing reads it before a phi of another type).
  const StorageSlot* slot = storage_.slotOf(t->variable.version);
  if (slot == nullptr)
    return unsupported(t->range, "this assignment");
  if (slot->type.isCompileTimeOnly() || slot->type.isVoid())
    return; // a function or type object, or None: typing knows what it is; nothing to store
  line(slotVariable(*slot, t->variable.variable) + " = " +
       cast(cast(value, valueType, t->type), t->type, slot->type) + ";");
}

void UnitEmitter::visitElementTarget(const ir::ElementTarget* t, const std::string& value,
                                     const NumbaType& valueType) {
  const std::string at = indices(t->array, t->indices);
  line(arrayElement(t->array, at) + " = " + cast(value, valueType, t->type) + ";");
}

void UnitEmitter::visitFieldTarget(const ir::FieldTarget* t, const std::string& value,
                                   const NumbaType& valueType) {
  // A complex field kept as its bytes (unalignedComplex): stored whole.
  if (const auto* field = t->place->as<ir::RecordField>()) {
    const types::RecordField* f = field->record->type.recordLayout().field(field->field);
    if (f != nullptr && unalignedComplex(*f) && !f->isSubArray()) {
      line("(" + expr(field->record) + ")->" + recordMemberName(field->field) + ".store(" +
           cast(value, valueType, t->type) + ");");
      return;
    }
  }
  storeInRecord(expr(t->place), t->type, value, valueType);
}

void UnitEmitter::visitRecordItemTarget(const ir::RecordItemTarget* t, const std::string& value,
                                        const NumbaType&) {
  // A whole record into an item: its bytes copied (the item's address is the element).
  line("*" + expr(t->item) + " = *(" + value + ");");
}

void UnitEmitter::visitUnpackTarget(const ir::UnpackTarget* t, const std::string& value,
                                    const NumbaType& valueType) {
  for (size_t i = 0; i < t->elements.size(); ++i)
    assign(t->elements[i], element(valueType, value, i), valueType.elements()[i]);
}

// `a[1:3] = value`: a scalar into every item of the view, or an array broadcast onto it.
void UnitEmitter::visitViewTarget(const ir::ViewTarget* t, const std::string& value,
                                  const NumbaType& valueType) {
  const NumbaType& view = t->type;
  const std::string to = temp("view");
  line("{");
  line("  const auto " + to + " = " + expr(t->view) + ";");
  if (valueType.isScalar() || valueType.isDatetimeLike()) {
    // (a datetime64 or timedelta64 only ever of the view's own type)
    line("  pyk::fill_items(" + to + ", " +
         (valueType.isDatetimeLike()
              ? value
              : cast(value, valueType, NumbaType::scalar(view.scalarKind()))) +
         ");");
  } else {
    // numba raises ValueError for shapes that do not broadcast (reported only with debug=True);
    // pyk stops the launch instead of leaving the view partly written. Overlapping memory needs
    // the temporary numba would allocate, which a kernel cannot.
    const std::string result = temp("assigned");
    line("  const pyk::AssignResult " + result + " = pyk::assign_items(" + to + ", " + value +
         ");");
    line("  if (" + result + " == pyk::AssignResult::ShapeMismatch)");
    line("    " + target_.trapWith(stopMessage(
                      t, "ValueError: cannot assign slice from input of different size")));
    line("  if (" + result + " == pyk::AssignResult::Overlap)");
    line("    " + target_.trapWith(stopMessage(
                      t, "the source and the target of this slice assignment share memory "
                         "(pyk does not copy the source first, as numba does, yet)")));
  }
  line("}");
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

} // namespace pyk::codegen
