// TypeExpressions: typing of expressions — literals, names (locals, parameters, module constants,
// intrinsic values), operators, comparisons, `and`/`or`, conditional expressions, tuples — and
// the folding of the constants typing needs.
#include <algorithm>

#include "sema/fold/ConstantFolder.h"
#include "sema/fold/FunctionConstants.h"
#include "sema/typing/DatetimeRules.h"
#include "sema/typing/FunctionTyper.h"
#include "sema/typing/TypeRules.h"

namespace pyk::sema {

// The type numba gives a folded module constant used in a kernel.
OptType typeOfConstant(const ConstantValue& v) {
  switch (v.kind) {
  case ConstantValue::Kind::Bool:
  case ConstantValue::Kind::Int:
  case ConstantValue::Kind::Float:
  case ConstantValue::Kind::Complex:
    return NumbaType::scalar(v.scalar);
  case ConstantValue::Kind::None:
    return NumbaType::voidType();
  case ConstantValue::Kind::Tuple: {
    std::vector<NumbaType> elements;
    for (const ConstantValue& e : v.elements) {
      OptType t = typeOfConstant(e);
      if (!t)
        return std::nullopt;
      elements.push_back(*t);
    }
    return tupleOf(std::move(elements));
  }
  case ConstantValue::Kind::Array:
    return v.array->arrayType(/*readonly=*/true);
  case ConstantValue::Kind::Type:
    if (v.typeValue.isScalar())
      return NumbaType::typeRef(v.typeValue.scalarKind()); // `dt = np.float32`, used as a value
    return std::nullopt;
  default:
    return std::nullopt; // strings and type objects are not values in a kernel
  }
}

std::optional<ConstantValue> FunctionTyper::constant(const ast::Expr* e, const char* what) {
  DiagnosticEngine quiet; // the folder's own reports would repeat on every pass
  ConstantFolder folder(module_.symbols, reporting_ ? diags_ : quiet);
  folder.setLocalNames(functionLocalNames(spec_, folder));
  FoldResult r = folder.fold(e);
  if (r.isConstant())
    return r.value();
  if (r.status() == FoldResult::Status::NotConstant)
    error(DiagKind::TypeNotConstant, e->range, {what});
  else
    failed_ = true;
  return std::nullopt;
}

OptType FunctionTyper::visitNamedExpr(const ast::NamedExpr* n) {
  OptType v = expr(n->value);
  if (v)
    assign(n->target, *v, n->value);
  return v;
}

OptType FunctionTyper::visitConstant(const ast::Constant* c) {
  switch (c->valueKind) {
  case ast::ConstantKind::Int:
    if (c->intTooLarge || c->intValue > static_cast<__int128>(UINT64_MAX) ||
        c->intValue < static_cast<__int128>(INT64_MIN)) {
      error(DiagKind::TypeNotSupported, c->range, {"an integer literal wider than 64 bits"});
      return std::nullopt;
    }
    return NumbaType::scalar(c->intValue > static_cast<__int128>(INT64_MAX) ? ScalarKind::UInt64
                                                                            : ScalarKind::Int64);
  case ast::ConstantKind::Float:
    return NumbaType::scalar(ScalarKind::Float64);
  case ast::ConstantKind::Complex:
    return NumbaType::scalar(ScalarKind::Complex128);
  case ast::ConstantKind::Bool:
    return NumbaType::scalar(ScalarKind::Boolean);
  case ast::ConstantKind::None:
    return NumbaType::voidType();
  default:
    return std::nullopt; // strings: only print and assert messages take them
  }
}

OptType FunctionTyper::visitName(const ast::Name* n) {
  auto it = fn_.scope.names.find(n);
  if (it == fn_.scope.names.end()) {
    failed_ = true; // resolution reported it
    return std::nullopt;
  }
  const NameBinding& b = it->second;
  switch (b.kind) {
  case NameBinding::Kind::Parameter:
  case NameBinding::Kind::Local: {
    // The type of the version this read sees (nullopt until typed: a later pass will know).
    const size_t v = fn_.scope.versions.ofNameOr(n);
    if (v == kNoVersion) {
      failed_ = true; // resolution reported the read before any assignment
      return std::nullopt;
    }
    return spec_.versionTypes[v];
  }
  case NameBinding::Kind::ModuleConstant: {
    OptType t = typeOfConstant(module_.symbols.constants()[b.index].value);
    if (!t)
      error(DiagKind::TypeNotSupported, n->range,
            {"the constant `" + n->id + "` (" +
             module_.symbols.constants()[b.index].value.typeDescription() + ") as a value"});
    return t;
  }
  case NameBinding::Kind::Builtin:
    if (b.qualifiedName == "True" || b.qualifiedName == "False")
      return NumbaType::scalar(ScalarKind::Boolean);
    if (b.qualifiedName == "None")
      return NumbaType::voidType();
    return std::nullopt;
  case NameBinding::Kind::Api: {
    // A constant or function imported by name (`from math import pi`, `from numba import
    // float32`), as a value.
    if (const Intrinsic id = intrinsicOf(n); id != Intrinsic::None)
      return intrinsicValue(id);
    if (const std::optional<ScalarKind> k = scalarTypeObject(fn_.scope, n))
      return NumbaType::typeRef(*k);
    return std::nullopt;
  }
  case NameBinding::Kind::CompiledFunction: {
    // A device function as a value (passed to another device function and called there).
    const CompiledFunction& f = module_.functionOf(b);
    return NumbaType::function(&f, f.name);
  }
  default:
    return std::nullopt;
  }
}

OptType FunctionTyper::visitBinOp(const ast::BinOp* b) {
  OptType l = expr(b->left), r = expr(b->right);
  if (!l || !r)
    return std::nullopt;
  return binaryOperation(b->op, *l, *r, b->range);
}

OptType FunctionTyper::binaryOperation(ast::BinOpKind op, const NumbaType& left,
                                       const NumbaType& right, SourceRange at) {
  const NumbaType l = computedAs(left), r = computedAs(right);
  if (l.isArray() || r.isArray()) {
    error(DiagKind::TypeArrayArithmetic, at, {ast::toString(op), l.str(), r.str()});
    return std::nullopt;
  }
  // (numba's datetime templates take integers and floats, not IntEnum members: no computedAs)
  if (left.isDatetimeLike() || right.isDatetimeLike())
    return datetimeResult(datetimeBinary(op, left, right), ast::toString(op), left, right, at);
  if (l.isScalar() && r.isScalar())
    if (std::optional<ScalarKind> k = binaryResultType(op, l.scalarKind(), r.scalarKind()))
      return NumbaType::scalar(*k);
  error(DiagKind::TypeBadOperands, at, {ast::toString(op), left.str(), right.str()});
  return std::nullopt;
}

OptType FunctionTyper::datetimeResult(const std::optional<DatetimeRule>& rule,
                                      const std::string& op, const NumbaType& l, const NumbaType& r,
                                      SourceRange at) {
  if (!rule) {
    if (r.isVoid())
      error(DiagKind::TypeBadOperand, at, {op, l.str()});
    else
      error(DiagKind::TypeBadOperands, at, {op, l.str(), r.str()});
    return std::nullopt;
  }
  if (!rule->numbaFails.empty()) {
    error(DiagKind::TypeNumbaCannotLower, at, {op, l.str(), r.str(), rule->numbaFails});
    return std::nullopt;
  }
  for (const NumbaType* t : {&rule->left, &rule->right})
    if (t->isScalar() && t->scalarKind() == ScalarKind::Float16) {
      error(DiagKind::TypeNotSupported, at,
            {"`" + op + "` of `" + l.str() + "` and `" + r.str() +
             "` (a timedelta64 scaled by a float16)"});
      return std::nullopt;
    }
  return rule->result;
}

OptType FunctionTyper::visitUnaryOp(const ast::UnaryOp* u) {
  OptType t = expr(u->operand);
  if (!t)
    return std::nullopt;
  if (t->isDatetimeLike() && u->op != ast::UnaryOpKind::Not)
    return datetimeResult(datetimeUnary(u->op, *t), ast::toString(u->op), *t, NumbaType(),
                          u->range);
  t = computedAs(*t);
  if (u->op == ast::UnaryOpKind::Not)
    return NumbaType::scalar(ScalarKind::Boolean);
  if (t->isScalar())
    if (std::optional<ScalarKind> k = unaryResultType(u->op, t->scalarKind()))
      return NumbaType::scalar(*k);
  if (t->isArray())
    error(DiagKind::TypeArrayArithmetic, u->range, {ast::toString(u->op), t->str(), t->str()});
  else
    error(DiagKind::TypeBadOperand, u->range, {ast::toString(u->op), t->str()});
  return std::nullopt;
}

OptType FunctionTyper::visitCompare(const ast::Compare* c) {
  // An operand of `is` / `is not` keeps an Optional (`x is None` tests it); any other comparison
  // takes its value.
  auto identity = [&](size_t op) {
    return op < c->ops.size() &&
           (c->ops[op] == ast::CmpOpKind::Is || c->ops[op] == ast::CmpOpKind::IsNot);
  };
  OptType left = identity(0) ? optionalExpr(c->left) : expr(c->left);
  for (size_t i = 0; i < c->ops.size(); ++i) {
    const ast::Expr* operand = c->comparators[i];
    OptType right = identity(i) || identity(i + 1) ? optionalExpr(operand) : expr(operand);
    if (!left || !right)
      return std::nullopt;
    const NumbaType l = computedAs(*left), r = computedAs(*right);
    bool ok = l.isScalar() && r.isScalar() &&
              comparisonOperandType(c->ops[i], l.scalarKind(), r.scalarKind());
    if (left->isDatetimeLike() || right->isDatetimeLike())
      ok = datetimeComparison(c->ops[i], *left, *right).has_value();
    if (!ok && left->isTuple() && right->isTuple())
      ok = tuplesCompare(c->ops[i], *left, *right);
    // `x in (a, b)`: numba's tuple contains, `==` against each item in turn.
    if (!ok && (c->ops[i] == ast::CmpOpKind::In || c->ops[i] == ast::CmpOpKind::NotIn) &&
        right->isTuple() && l.isScalar())
      ok = std::all_of(right->elements().begin(), right->elements().end(), [&](const auto& e) {
        const NumbaType item = computedAs(e);
        return item.isScalar() &&
               comparisonOperandType(ast::CmpOpKind::Eq, l.scalarKind(), item.scalarKind());
      });
    // Members of one Enum class compare by value (numba's EnumCompare), only for == and !=.
    const bool valueComparable =
        left->isEnumMember() &&
        (left->enumValue().isScalar() ||
         tuplesCompare(ast::CmpOpKind::Eq, left->enumValue(), left->enumValue()));
    if (!ok && *left == *right && valueComparable &&
        (c->ops[i] == ast::CmpOpKind::Eq || c->ops[i] == ast::CmpOpKind::NotEq))
      ok = true;
    // numba's generic `is`: `==` between values of one immutable type, false between types
    // that differ (`x is None` too); arrays, being mutable, have none.
    if (!ok && (c->ops[i] == ast::CmpOpKind::Is || c->ops[i] == ast::CmpOpKind::IsNot))
      ok = !(*left == *right) || left->isScalar() || left->isVoid() || valueComparable;
    // An Optional is None or not (numba's optional_is_none); with a value, numba's generic `is`
    // of the Optional's value would be needed: not supported.
    if ((left->isOptional() || right->isOptional()) && !left->isVoid() && !right->isVoid()) {
      error(DiagKind::TypeNotSupported, c->range,
            {"`" + std::string(ast::toString(c->ops[i])) + "` between `" + left->str() + "` and `" +
             right->str() + "` (pyk tests an Optional against None only)"});
      return std::nullopt;
    }
    if (!ok) {
      error(DiagKind::TypeBadOperands, c->range,
            {ast::toString(c->ops[i]), left->str(), right->str()});
      return std::nullopt;
    }
    left = right;
  }
  return NumbaType::scalar(ScalarKind::Boolean);
}

OptType FunctionTyper::visitBoolOp(const ast::BoolOp* b) {
  OptType result;
  for (const ast::Expr* v : b->values) {
    OptType t = expr(v);
    if (!t)
      return std::nullopt;
    if (!result)
      result = t;
    else if (OptType u = unify(*result, *t))
      result = u;
    else {
      error(DiagKind::TypeCannotUnify, b->range, {result->str(), t->str(), "`and`/`or`"});
      return std::nullopt;
    }
  }
  return result;
}

OptType FunctionTyper::visitIfExp(const ast::IfExp* i) {
  condition(i->test);
  OptType a = optionalExpr(i->body), b = optionalExpr(i->orelse);
  if (!a || !b)
    return std::nullopt;
  OptType u = unify(*a, *b);
  if (!u)
    error(DiagKind::TypeCannotUnify, i->range, {a->str(), b->str(), "a conditional expression"});
  return u;
}

OptType FunctionTyper::visitTuple(const ast::Tuple* t) {
  std::vector<NumbaType> elements;
  for (const ast::Expr* x : t->elts) {
    OptType e = expr(x);
    if (!e)
      return std::nullopt;
    elements.push_back(*e);
  }
  return tupleOf(std::move(elements));
}

OptType FunctionTyper::visitStarred(const ast::Starred* s) {
  error(DiagKind::TypeNotSupported, s->range, {"`*` unpacking outside the arguments of a call"});
  return std::nullopt;
}

} // namespace pyk::sema
