// IrVerifierValues: the verifier's checks of values: each expression kind's type against its
// operands' (operators and their overloads, conversions, tuples, records, arrays, calls, spread
// calls' bindings, prints), and each operand checked in turn.
#include <algorithm>

#include "ir/IrVerifierChecks.h"

namespace pyk::ir::verification {

void Verifier::value(const Expr* e) {
  if (e == nullptr) {
    problem(nullptr, "a value is missing");
    return;
  }
  switch (e->kind) {
  case NodeKind::Literal: {
    const sema::ConstantValue& v = e->as<Literal>()->value;
    const bool ok = v.kind == sema::ConstantValue::Kind::None  ? e->type.isVoid()
                    : v.kind == sema::ConstantValue::Kind::Str ? e->type.isCharSeq()
                                                               : v.isNumber() && e->type.isScalar();
    if (!ok)
      problem(e, "a literal that is no number (nor a None of type none, nor the characters of a "
                 "character sequence)");
    return;
  }
  case NodeKind::FrozenConstant:
    if (e->type.isVoid())
      problem(e, "a constant of no type");
    return;
  case NodeKind::Read: {
    const VersionRef& v = e->as<Read>()->variable;
    if (!versionOf(e, v))
      return;
    const Version& version = f_.versions[v.version];
    if (!version.type || !(*version.type == e->type))
      problem(e, "reads a version of type `" + (version.type ? version.type->str() : "none") + "`");
    if (version.kind == Version::Kind::Phi && !version.live)
      problem(e, "reads a dead phi");
    if (defined_.count(v.version) == 0)
      problem(e, "reads " + f_.versionName(v.version) + " where it is not defined");
    return;
  }
  case NodeKind::IntrinsicValue: {
    const sema::IntrinsicInfo& info = sema::intrinsicInfo(e->as<IntrinsicValue>()->intrinsic);
    if (info.kind != sema::IntrinsicKind::Value && info.kind != sema::IntrinsicKind::Constant)
      problem(e, "an intrinsic read as a value that is none");
    return;
  }
  case NodeKind::Cast: {
    const auto* c = e->as<Cast>();
    value(c->value);
    if (!c->written && c->value->type == e->type)
      problem(e, "converts a value to the type it has");
    return;
  }
  case NodeKind::UnwrapOptional: {
    const Expr* inner = e->as<UnwrapOptional>()->value;
    value(inner);
    if (!inner->type.isOptional() || !(inner->type.optionalValue() == e->type))
      problem(e, "unwraps a `" + inner->type.str() + "` into a `" + e->type.str() + "`");
    return;
  }
  case NodeKind::OptionalIsNone: {
    const Expr* inner = e->as<OptionalIsNone>()->value;
    value(inner);
    if (!inner->type.isOptional())
      problem(e, "tests a `" + inner->type.str() + "`, which is no Optional, for None");
    expectBoolean(e);
    return;
  }
  case NodeKind::Binary:
    binary(e->as<Binary>());
    return;
  case NodeKind::DatetimeOperation: {
    // The units were checked by typing; here, that a datetime64 or timedelta64 is involved.
    const auto* d = e->as<DatetimeOperation>();
    value(d->lhs);
    if (d->rhs != nullptr)
      value(d->rhs);
    if (!d->lhs->type.isDatetimeLike() && (d->rhs == nullptr || !d->rhs->type.isDatetimeLike()))
      problem(e, std::string("`") + nameOf(d->op) + "` of no datetime64 or timedelta64");
    return;
  }
  case NodeKind::Unary: {
    const Expr* operand = e->as<Unary>()->operand;
    value(operand);
    expectType(operand, e->type, "the operand");
    return;
  }
  case NodeKind::Compare: {
    const auto* c = e->as<Compare>();
    value(c->lhs);
    value(c->rhs);
    if (!c->lhs->type.isScalar() || !(c->lhs->type == c->rhs->type))
      problem(e, "compares `" + c->lhs->type.str() + "` with `" + c->rhs->type.str() + "`");
    expectBoolean(e);
    return;
  }
  case NodeKind::IdentityTest: {
    const auto* t = e->as<IdentityTest>();
    if (t->lhs != nullptr)
      value(t->lhs);
    if (t->rhs != nullptr)
      value(t->rhs);
    expectBoolean(e);
    return;
  }
  case NodeKind::Not:
    condition(e, e->as<Not>()->operand);
    expectBoolean(e);
    return;
  case NodeKind::Logical: {
    const auto* l = e->as<Logical>();
    if (l->operands.size() < 2)
      problem(e, "fewer than two operands");
    for (const Expr* operand : l->operands)
      condition(e, operand);
    expectBoolean(e);
    return;
  }
  case NodeKind::LogicalValue: {
    const auto* l = e->as<LogicalValue>();
    if (l->operands.size() < 2)
      problem(e, "fewer than two operands");
    for (const Expr* operand : l->operands) {
      value(operand);
      expectType(operand, e->type, "an operand");
    }
    return;
  }
  case NodeKind::Conditional: {
    const auto* c = e->as<Conditional>();
    condition(e, c->condition);
    value(c->then);
    value(c->otherwise);
    expectType(c->then, e->type, "the value if true");
    expectType(c->otherwise, e->type, "the value if false");
    return;
  }
  case NodeKind::MakeTuple: {
    const auto* t = e->as<MakeTuple>();
    if (!e->type.isTuple() || e->type.elements().size() != t->elements.size()) {
      problem(e, "a tuple of " + std::to_string(t->elements.size()) + " elements");
      return;
    }
    for (size_t i = 0; i < t->elements.size(); ++i) {
      value(t->elements[i]);
      expectType(t->elements[i], e->type.elements()[i], "an element");
    }
    return;
  }
  case NodeKind::TupleElement: {
    const auto* t = e->as<TupleElement>();
    value(t->tuple);
    const NumbaType& tuple = t->tuple->type;
    if (!tuple.isTuple() || t->index < 0 ||
        t->index >= static_cast<int64_t>(tuple.elements().size()))
      problem(e, "element " + std::to_string(t->index) + " of `" + tuple.str() + "`");
    else
      expectType(e, tuple.elements()[static_cast<size_t>(t->index)], "the element");
    return;
  }
  case NodeKind::TupleSubscript: {
    const auto* t = e->as<TupleSubscript>();
    value(t->tuple);
    value(t->index);
    if (t->tuple->type.kind() != NumbaType::Kind::UniTuple)
      problem(e, "indexes a `" + t->tuple->type.str() + "` at run time");
    else
      expectType(e, t->tuple->type.elements()[0], "the element");
    if (!isIntegerOrBoolean(t->index->type))
      problem(e, "an index of type `" + t->index->type.str() + "`");
    return;
  }
  case NodeKind::RecordField: {
    const auto* r = e->as<RecordField>();
    value(r->record);
    if (!r->record->type.isRecord() || r->record->type.recordLayout().field(r->field) == nullptr)
      problem(e, "no field `" + r->field + "` of `" + r->record->type.str() + "`");
    return;
  }
  case NodeKind::RecordArrayField: {
    const auto* r = e->as<RecordArrayField>();
    value(r->array);
    if (!r->array->type.isRecordArray() ||
        r->array->type.recordLayout().field(r->field) == nullptr || !e->type.isArray())
      problem(e, "no field `" + r->field + "` of `" + r->array->type.str() + "`");
    return;
  }
  case NodeKind::VectorMember: {
    const auto* m = e->as<VectorMember>();
    value(m->vector);
    if (!m->vector->type.isVector() || m->index < 0 || m->index >= m->vector->type.vectorSize())
      problem(e, "no member " + std::to_string(m->index) + " of `" + m->vector->type.str() + "`");
    return;
  }
  case NodeKind::ArrayAttribute: {
    const auto* a = e->as<ArrayAttribute>();
    value(a->array);
    if (!a->array->type.isArray() ||
        !sema::valueMemberInfo(a->member).has(sema::value_member_flags::ArrayMetadata))
      problem(e, "array metadata of `" + a->array->type.str() + "`");
    return;
  }
  case NodeKind::ComplexPart: {
    const Expr* v = e->as<ComplexPart>()->value;
    value(v);
    if (!v->type.isScalar() && !v->type.isArray())
      problem(e, "a part of `" + v->type.str() + "`");
    return;
  }
  case NodeKind::ArrayElement: {
    const auto* a = e->as<ArrayElement>();
    arrayItem(e, a->array, a->indices, e->type);
    return;
  }
  case NodeKind::ArrayView: {
    const auto* v = e->as<ArrayView>();
    value(v->array);
    if (!v->array->type.isArray() || !e->type.isArray() ||
        static_cast<int>(v->items.size()) > v->array->type.ndim())
      problem(e, "a view of `" + v->array->type.str() + "`");
    for (const Expr* item : v->items) {
      if (const auto* s = item->as<Slice>()) {
        for (const Expr* part : {s->lower, s->upper, s->step})
          if (part != nullptr)
            value(part);
        continue;
      }
      value(item);
    }
    return;
  }
  case NodeKind::Slice:
    problem(e, "a slice outside an array view");
    return;
  case NodeKind::ArrayAllocation: {
    const auto* a = e->as<ArrayAllocation>();
    if ((a->intrinsic != sema::Intrinsic::SharedArray &&
         a->intrinsic != sema::Intrinsic::LocalArray) ||
        !e->type.isArray())
      problem(e, "an allocation of `" + e->type.str() + "`");
    return;
  }
  case NodeKind::Call:
    call(e->as<Call>());
    return;
  case NodeKind::SpreadCall: {
    const auto* s = e->as<SpreadCall>();
    if (s->bindings.size() != s->spreads.size())
      problem(e, "binds " + std::to_string(s->bindings.size()) + " names to " +
                     std::to_string(s->spreads.size()) + " values");
    for (size_t i = 0; i < s->spreads.size() && i < s->bindings.size(); ++i) {
      value(s->spreads[i]);
      bound_.emplace_back(s->bindings[i], s->spreads[i]->type);
    }
    value(s->call);
    bound_.resize(bound_.size() - std::min(s->spreads.size(), s->bindings.size()));
    return;
  }
  case NodeKind::Bound: {
    const int binding = e->as<Bound>()->binding;
    auto it = std::find_if(bound_.begin(), bound_.end(),
                           [&](const auto& b) { return b.first == binding; });
    if (it == bound_.end())
      problem(e, "reads a binding outside its spread call");
    else
      expectType(e, it->second, "the bound value");
    return;
  }
  case NodeKind::ForeignCall: {
    const auto* c = e->as<ForeignCall>();
    for (const Expr* arg : c->args)
      value(arg);
    return;
  }
  case NodeKind::IntrinsicCall: {
    const auto* c = e->as<IntrinsicCall>();
    if (sema::intrinsicInfo(c->intrinsic).kind != sema::IntrinsicKind::Function)
      problem(e, "a call of an intrinsic that is no function");
    for (const Expr* arg : c->args)
      value(arg);
    return;
  }
  case NodeKind::MethodCall: {
    const auto* m = e->as<MethodCall>();
    if (sema::valueMemberInfo(m->method).kind != sema::ValueMemberKind::Method)
      problem(e, "a call of a member that is no method");
    value(m->object);
    for (const Expr* arg : m->args)
      value(arg);
    return;
  }
  case NodeKind::Print: {
    const auto* p = e->as<Print>();
    const auto values = std::count_if(p->pieces.begin(), p->pieces.end(),
                                      [](const PrintPiece& piece) { return piece.isValue; });
    if (static_cast<size_t>(values) != p->values.size())
      problem(e, "prints " + std::to_string(p->values.size()) + " values into " +
                     std::to_string(values) + " places");
    for (const Expr* v : p->values)
      value(v);
    return;
  }
  default:
    problem(e, "not a value");
  }
}

void Verifier::binary(const Binary* b) {
  value(b->lhs);
  value(b->rhs);
  const NumbaType& l = b->lhs->type;
  const NumbaType& r = b->rhs->type;
  if (!l.isScalar() || !r.isScalar() || !b->type.isScalar()) {
    problem(b, "an operator on `" + l.str() + "` and `" + r.str() + "`");
    return;
  }
  switch (b->op) {
  case BinaryOp::LShift:
  case BinaryOp::RShift:
    expectType(b->lhs, b->type, "the shifted value");
    if (!isIntegerOrBoolean(r))
      problem(b, "a shift by `" + r.str() + "`");
    return;
  case BinaryOp::PowFloatInteger:
    expectType(b->lhs, b->type, "the base");
    if (!isInt64(r))
      problem(b, "an exponent of type `" + r.str() + "`");
    return;
  default:
    expectType(b->lhs, b->type, "the left operand");
    expectType(b->rhs, b->type, "the right operand");
  }
}

void Verifier::call(const Call* c) {
  const Function* callee = c->callee;
  const bool known = std::any_of(module_.functions().begin(), module_.functions().end(),
                                 [&](const auto& f) { return f.get() == callee; });
  if (!known) {
    problem(c, "calls a function outside the module");
    return;
  }
  std::vector<const NumbaType*> params;
  for (const NumbaType& p : callee->params)
    if (!p.isCompileTimeOnly())
      params.push_back(&p);
  if (params.size() != c->args.size())
    problem(c, "passes " + std::to_string(c->args.size()) + " arguments for " +
                   std::to_string(params.size()) + " parameters");
  for (size_t i = 0; i < c->args.size(); ++i) {
    value(c->args[i]);
    if (i < params.size())
      expectType(c->args[i], *params[i], "an argument");
  }
  expectType(c, callee->returnType, "the call");
}

void Verifier::arrayItem(const Node* at, const Expr* array, const std::vector<Expr*>& indices,
                         const NumbaType& item) {
  value(array);
  for (const Expr* index : indices) {
    value(index);
    if (!isIntegerOrBoolean(index->type))
      problem(at, "an index of type `" + index->type.str() + "`");
  }
  if (array->type.isPointer()) { // numba's CPointer: one index, the pointee
    if (indices.size() != 1 || !(item == NumbaType::scalar(array->type.scalarKind())))
      problem(at, "an item of type `" + item.str() + "` of `" + array->type.str() + "`");
    return;
  }
  if (!array->type.isArray()) {
    problem(at, "an item of `" + array->type.str() + "`");
    return;
  }
  if (static_cast<int>(indices.size()) != array->type.ndim())
    problem(at, std::to_string(indices.size()) + " indices into `" + array->type.str() + "`");
  if (!(item == array->type.elementType()))
    problem(at, "an item of type `" + item.str() + "` of `" + array->type.str() + "`");
}

} // namespace pyk::ir::verification
