// LowerExpressions: expressions as IR — literals, variables (their versions), module constants,
// operators with the overload numba chose and its operand conversions, comparisons (chained, and
// `is` between types that decide it), `not`, `and`/`or` (of booleans, or with Python's value
// semantics), conditional expressions and tuples.
#include "lower/FunctionLowering.h"
#include "sema/typing/TypeRules.h"

namespace pyk::lower {

namespace {

bool isIntegral(const NumbaType& t) {
  return t.isScalar() &&
         (types::isInteger(t.scalarKind()) || t.scalarKind() == ScalarKind::Boolean);
}
bool isFloating(const NumbaType& t) {
  return t.isScalar() &&
         (t.scalarKind() == ScalarKind::Float32 || t.scalarKind() == ScalarKind::Float64);
}
bool isComplexType(const NumbaType& t) {
  return t.isScalar() && types::isComplex(t.scalarKind());
}
bool isBoolean(const NumbaType& t) {
  return t.isScalar() && t.scalarKind() == ScalarKind::Boolean;
}

} // namespace

ir::Expr* FunctionLowering::expr(const ast::Expr* e) {
  if (auto it = spreadBindings_.find(e); it != spreadBindings_.end()) {
    // A `*` value of the spread call being lowered, evaluated once already.
    const NumbaType* t = typeOf(e);
    auto* bound = makeExpr<ir::Bound>(e->range, t != nullptr ? *t : NumbaType());
    bound->binding = it->second;
    return bound;
  }
  const NumbaType* t = typeOf(e);
  // Every kind below but these needs the expression's type; one typing left without a type
  // (a `print(...)` used as a value, say) is reported.
  const bool typeless =
      e->is<ast::Constant>() || e->is<ast::Name>() || e->is<ast::Call>() || e->is<ast::Compare>() ||
      e->is<ast::Subscript>() || e->is<ast::BinOp>() ||
      (e->is<ast::UnaryOp>() && e->as<ast::UnaryOp>()->op == ast::UnaryOpKind::Not) ||
      (e->is<ast::Attribute>() && !sema::qualifiedApiName(scope_, e).empty());
  if (t == nullptr && !typeless) {
    unsupported(e->range, "this expression here");
    return nullptr;
  }
  // An Optional used as a value: the expression has the Optional's type, then its value is taken.
  if (auto it = spec_.unwrappedOptionals.find(e); it != spec_.unwrappedOptionals.end())
    return unwrap(ExprVisitor::visit(e, &it->second));
  ir::Expr* out = ExprVisitor::visit(e, t);
  // Each node is of the type typing gave its expression (what code generation converts from).
  if (out != nullptr && t != nullptr && !(out->type == *t))
    internalProblem(out_.description + ": an expression of type `" + t->str() + "` at " +
                    std::to_string(e->range.begin.line) + ":" +
                    std::to_string(e->range.begin.column) + " lowered to a `" + out->type.str() +
                    "` " + ir::nodeKindName(out->kind));
  return out;
}

ir::Expr* FunctionLowering::unwrap(ir::Expr* optional) {
  if (optional == nullptr)
    return nullptr;
  if (!optional->type.isOptional()) {
    internalProblem(out_.description + ": a value of type `" + optional->type.str() +
                    "` unwrapped as an Optional");
    return optional;
  }
  auto* out = makeExpr<ir::UnwrapOptional>(optional->range, optional->type.optionalValue());
  out->value = optional;
  out->debug = spec_.function->options.debug.value_or(false);
  return out;
}

ir::Expr* FunctionLowering::returnedNone(SourceRange at) {
  const NumbaType& result = spec_.returnType;
  if (result.isOptional())
    return as(noneLiteral(at), result);
  return as(as(noneLiteral(at), NumbaType::optional(result)), result);
}

ir::Expr* FunctionLowering::noneLiteral(SourceRange at) {
  auto* out = makeExpr<ir::Literal>(at, NumbaType::voidType());
  out->value = sema::ConstantValue::none();
  return out;
}

ir::Expr* FunctionLowering::as(ir::Expr* e, const NumbaType& to) {
  if (e == nullptr || e->type == to)
    return e;
  // An Optional converted to a type that is none: its value, checked (numba's optional_to_any).
  if (e->type.isOptional() && !to.isOptional())
    return as(unwrap(e), to);
  auto* c = makeExpr<ir::Cast>(e->range, to);
  c->value = e;
  return c;
}

ir::Expr* FunctionLowering::condition(const ast::Expr* e) {
  const NumbaType* t = typeOf(e);
  if (t == nullptr) {
    unsupported(e->range, "this condition");
    return nullptr;
  }
  if (isBoolean(*t))
    return expr(e);
  if (t->isScalar())
    return exprAs(e, ScalarKind::Boolean);
  // A tuple is true when it has elements, None is false (neither is evaluated: numba prunes).
  if (t->isTuple() || t->isVoid()) {
    auto* known = makeExpr<ir::Literal>(e->range, NumbaType::scalar(ScalarKind::Boolean));
    known->value = sema::ConstantValue::boolean(t->isTuple() && !t->elements().empty());
    return known;
  }
  unsupported(e->range, "this condition");
  return nullptr;
}

ir::Expr* FunctionLowering::visitExpr(const ast::Expr* e, const NumbaType*) {
  unsupported(e->range, std::string("the expression `") + ast::nodeKindName(e->kind) + "`");
  return nullptr;
}

ir::Expr* FunctionLowering::visitConstant(const ast::Constant* c, const NumbaType* t) {
  const NumbaType type = t != nullptr ? *t : NumbaType::scalar(ScalarKind::Int64);
  sema::ConstantValue value;
  switch (c->valueKind) {
  case ast::ConstantKind::Bool:
    value = sema::ConstantValue::boolean(c->boolValue);
    break;
  case ast::ConstantKind::Int:
    value = sema::ConstantValue::integer(c->intValue, type.scalarKind(), /*weak=*/true);
    break;
  case ast::ConstantKind::Float:
    value = sema::ConstantValue::floating(c->floatValue);
    break;
  case ast::ConstantKind::Complex:
    value = sema::ConstantValue::complex({0.0, c->floatValue});
    break;
  case ast::ConstantKind::None:
    return noneLiteral(c->range);
  case ast::ConstantKind::Str: // stored into an item of a character array (typing checked it)
  case ast::ConstantKind::Bytes:
    if (!type.isCharSeq()) {
      unsupported(c->range, "this constant");
      return nullptr;
    }
    value = sema::ConstantValue::string(c->strValue);
    break;
  default:
    unsupported(c->range, "this constant");
    return nullptr;
  }
  auto* out = makeExpr<ir::Literal>(c->range, type);
  out->value = value;
  return out;
}

ir::Expr* FunctionLowering::frozenConstant(const sema::ConstantValue& v, const NumbaType& t,
                                           SourceRange at, const std::string& name) {
  switch (v.kind) {
  case sema::ConstantValue::Kind::Bool:
  case sema::ConstantValue::Kind::Int:
  case sema::ConstantValue::Kind::Float:
  case sema::ConstantValue::Kind::Complex:
  case sema::ConstantValue::Kind::Tuple:
  case sema::ConstantValue::Kind::Array:
    break;
  default:
    unsupported(at, "this constant");
    return nullptr;
  }
  auto* out = makeExpr<ir::FrozenConstant>(at, t);
  out->value = v;
  out->name = name;
  return out;
}

ir::Expr* FunctionLowering::visitName(const ast::Name* n, const NumbaType* t) {
  auto it = scope_.names.find(n);
  if (it == scope_.names.end()) {
    unsupported(n->range, "this name");
    return nullptr;
  }
  const sema::NameBinding& b = it->second;
  // A constant imported by name (`from math import pi`): as `math.pi`.
  if (const sema::Intrinsic id = spec_.intrinsicOf(n); id != sema::Intrinsic::None)
    return intrinsicValue(id, n, t);
  if (b.kind == sema::NameBinding::Kind::ModuleConstant && t != nullptr)
    return frozenConstant(definingModule().symbols.constants()[b.index].value, *t, n->range, n->id);
  if (b.kind == sema::NameBinding::Kind::Builtin && n->id == "None")
    return noneLiteral(n->range);
  if (b.kind == sema::NameBinding::Kind::Builtin) {
    auto* out = makeExpr<ir::Literal>(n->range, NumbaType::scalar(ScalarKind::Boolean));
    out->value = sema::ConstantValue::boolean(n->id == "True");
    return out;
  }
  const size_t v = scope_.versions.ofNameOr(n);
  if (v == sema::kNoVersion || spec_.versionType(v) == nullptr || t == nullptr) {
    unsupported(n->range, "this variable");
    return nullptr;
  }
  auto* out = makeExpr<ir::Read>(n->range, *t);
  out->variable = versionRef(v);
  return out;
}

ir::Expr* FunctionLowering::visitBinOp(const ast::BinOp* b, const NumbaType* t) {
  if (t == nullptr) {
    unsupported(b->range, "this operation");
    return nullptr;
  }
  return binary(b->op, b->left, b->right, *t, b->range);
}

ir::Expr* FunctionLowering::binary(ast::BinOpKind op, const ast::Expr* l, const ast::Expr* r,
                                   const NumbaType& result, SourceRange at) {
  if (typeOf(l) == nullptr || typeOf(r) == nullptr) {
    unsupported(at, "this operation");
    return nullptr;
  }
  ir::Expr* left = expr(l);
  ir::Expr* right = expr(r);
  return binary(op, left, right, result, at);
}

ir::Expr* FunctionLowering::datetimeOperation(const std::optional<sema::DatetimeRule>& rule,
                                              ir::Expr* l, ir::Expr* r, SourceRange at) {
  if (!rule || !rule->numbaFails.empty()) {
    unsupported(at, "this operation");
    return nullptr;
  }
  auto* out = makeExpr<ir::DatetimeOperation>(at, rule->result);
  out->op = rule->op;
  out->lhs = as(l, rule->left);
  out->rhs = r != nullptr ? as(r, rule->right) : nullptr;
  return out->lhs != nullptr && (r == nullptr || out->rhs != nullptr) ? out : nullptr;
}

ir::Expr* FunctionLowering::binary(ast::BinOpKind op, ir::Expr* l, ir::Expr* r,
                                   const NumbaType& result, SourceRange at) {
  if (l == nullptr || r == nullptr)
    return nullptr;
  if (l->type.isDatetimeLike() || r->type.isDatetimeLike())
    return datetimeOperation(sema::datetimeBinary(op, l->type, r->type), l, r, at);
  l = as(l, sema::computedAs(l->type)); // an IntEnum member computes as its integer
  r = as(r, sema::computedAs(r->type));
  const NumbaType lt = l->type, rt = r->type;
  if (!lt.isScalar() || !rt.isScalar() || !result.isScalar()) {
    unsupported(at, "this operation");
    return nullptr;
  }
  const std::optional<ScalarKind> operand =
      sema::binaryOperandType(op, lt.scalarKind(), rt.scalarKind());
  if (!operand) {
    unsupported(at, "this operation");
    return nullptr;
  }
  const NumbaType o = NumbaType::scalar(*operand);
  auto node = [&](ir::BinaryOp irOp, ir::Expr* left, ir::Expr* right, const NumbaType& type) {
    auto* out = makeExpr<ir::Binary>(at, type);
    out->op = irOp;
    out->lhs = left;
    out->rhs = right;
    return out;
  };
  // Computed in the operand type, then converted to the result's (bool & bool computes in int).
  auto inOperandType = [&](ir::BinaryOp irOp) {
    return as(node(irOp, as(l, o), as(r, o), o), result);
  };
  switch (op) {
  case ast::BinOpKind::Add:
    return inOperandType(ir::BinaryOp::Add);
  case ast::BinOpKind::Sub:
    return inOperandType(ir::BinaryOp::Sub);
  case ast::BinOpKind::Mult:
    return inOperandType(ir::BinaryOp::Mult);
  case ast::BinOpKind::BitAnd:
    return inOperandType(ir::BinaryOp::BitAnd);
  case ast::BinOpKind::BitOr:
    return inOperandType(ir::BinaryOp::BitOr);
  case ast::BinOpKind::BitXor:
    return inOperandType(ir::BinaryOp::BitXor);
  case ast::BinOpKind::Div:
    // numba converts integer operands of `/` to float64 first (the operand type), so `/` always
    // divides floats or complex numbers.
    return inOperandType(ir::BinaryOp::Div);
  case ast::BinOpKind::FloorDiv:
    return inOperandType(ir::BinaryOp::FloorDiv);
  case ast::BinOpKind::Mod:
    return inOperandType(ir::BinaryOp::Mod);
  case ast::BinOpKind::Pow:
    if (isComplexType(result))
      return node(ir::BinaryOp::PowComplex, as(l, result), as(r, result), result);
    if (isFloating(result) && isIntegral(rt))
      return node(ir::BinaryOp::PowFloatInteger, as(l, result),
                  as(r, NumbaType::scalar(ScalarKind::Int64)), result);
    if (isFloating(result))
      return node(ir::BinaryOp::PowFloat, as(l, result), as(r, result), result);
    return node(ir::BinaryOp::PowInteger, as(l, result), as(r, result), result);
  case ast::BinOpKind::LShift:
    return node(ir::BinaryOp::LShift, as(l, result), r, result);
  case ast::BinOpKind::RShift:
    return node(ir::BinaryOp::RShift, as(l, result), r, result);
  default:
    unsupported(at, std::string("the operator `") + ast::toString(op) + "`");
    return nullptr;
  }
}

ir::Expr* FunctionLowering::visitUnaryOp(const ast::UnaryOp* u, const NumbaType* t) {
  return unary(u->op, u->operand, t, u->range);
}

ir::Expr* FunctionLowering::unary(ast::UnaryOpKind op, const ast::Expr* operand, const NumbaType* t,
                                  SourceRange at) {
  if (op == ast::UnaryOpKind::Not || (t != nullptr && op == ast::UnaryOpKind::Invert &&
                                      isBoolean(*t))) { // `~b` of a boolean is `not b`
    ir::Expr* value = op == ast::UnaryOpKind::Not ? condition(operand) : exprAs(operand, *t);
    if (value == nullptr)
      return nullptr;
    auto* out = makeExpr<ir::Not>(at, NumbaType::scalar(ScalarKind::Boolean));
    out->operand = value;
    return out;
  }
  if (t == nullptr) {
    unsupported(at, "this operation");
    return nullptr;
  }
  if (const NumbaType* operandType = typeOf(operand);
      operandType != nullptr && operandType->isDatetimeLike()) {
    ir::Expr* value = expr(operand);
    return value ? datetimeOperation(sema::datetimeUnary(op, *operandType), value, nullptr, at)
                 : nullptr;
  }
  ir::Expr* value = exprAs(operand, *t);
  if (value == nullptr)
    return nullptr;
  auto* out = makeExpr<ir::Unary>(at, *t);
  out->op = op == ast::UnaryOpKind::USub   ? ir::UnaryOp::Negate
            : op == ast::UnaryOpKind::UAdd ? ir::UnaryOp::Plus
                                           : ir::UnaryOp::Invert;
  out->operand = value;
  return out;
}

ir::Expr* FunctionLowering::visitCompare(const ast::Compare* c, const NumbaType*) {
  if (c->ops.size() == 1)
    return comparison(c->ops[0], c->left, c->comparators[0], c->range);
  // `a < b < c` is `a < b and b < c`, the middle operand evaluated for each comparison.
  auto* out = makeExpr<ir::Logical>(c->range, NumbaType::scalar(ScalarKind::Boolean));
  out->op = ir::LogicalOp::And;
  const ast::Expr* left = c->left;
  bool ok = true;
  for (size_t i = 0; i < c->ops.size(); ++i) {
    const ast::Expr* right = c->comparators[i];
    out->operands.push_back(comparison(c->ops[i], left, right, c->range));
    ok = ok && out->operands.back() != nullptr;
    left = right;
  }
  return ok ? out : nullptr;
}

ir::Expr* FunctionLowering::comparison(ast::CmpOpKind op, const ast::Expr* left,
                                       const ast::Expr* right, SourceRange at) {
  const NumbaType* lt = typeOf(left);
  const NumbaType* rt = typeOf(right);
  const NumbaType boolean = NumbaType::scalar(ScalarKind::Boolean);
  if ((op == ast::CmpOpKind::Is || op == ast::CmpOpKind::IsNot) && lt != nullptr && rt != nullptr) {
    // numba's generic `is`: `==` on one scalar type, true for None is None, false between types
    // that differ (the operands still evaluated).
    const bool is = op == ast::CmpOpKind::Is;
    // An Optional against None (typing allows no other `is` of an Optional).
    if (lt->isOptional() || rt->isOptional()) {
      auto* test = makeExpr<ir::OptionalIsNone>(at, boolean);
      test->value = expr(lt->isOptional() ? left : right);
      if (test->value == nullptr)
        return nullptr;
      if (is)
        return test;
      auto* negated = makeExpr<ir::Not>(at, boolean);
      negated->operand = test;
      return negated;
    }
    if (*lt == *rt && (lt->isScalar() || lt->isEnumMember()))
      return comparison(is ? ast::CmpOpKind::Eq : ast::CmpOpKind::NotEq, left, right, at);
    const bool same = *lt == *rt && lt->isVoid();
    auto* out = makeExpr<ir::IdentityTest>(at, boolean);
    out->lhs = lt->isVoid() ? nullptr : expr(left);
    out->rhs = rt->isVoid() ? nullptr : expr(right);
    out->result = same == is;
    if ((!lt->isVoid() && out->lhs == nullptr) || (!rt->isVoid() && out->rhs == nullptr))
      return nullptr;
    return out;
  }
  if (lt == nullptr || rt == nullptr) {
    unsupported(at, "this comparison");
    return nullptr;
  }
  ir::Expr* l = expr(left); // in the source's order
  ir::Expr* r = expr(right);
  if (l == nullptr || r == nullptr)
    return nullptr;
  if (lt->isDatetimeLike() || rt->isDatetimeLike())
    return datetimeOperation(sema::datetimeComparison(op, *lt, *rt), l, r, at);
  if ((op == ast::CmpOpKind::In || op == ast::CmpOpKind::NotIn) && rt->isTuple())
    return tupleContains(op == ast::CmpOpKind::NotIn, l, r, at);
  return compareValues(op, l, r, at);
}

ir::Expr* FunctionLowering::compareValues(ast::CmpOpKind op, ir::Expr* l, ir::Expr* r,
                                          SourceRange at) {
  // Members of one Enum class compare by their values (tuples too); IntEnum members otherwise
  // as integers.
  const bool oneClass = l->type.isEnumMember() && l->type == r->type;
  const NumbaType lv = oneClass ? l->type.enumValue() : sema::computedAs(l->type);
  const NumbaType rv = oneClass ? r->type.enumValue() : sema::computedAs(r->type);
  if (lv.isTuple() && rv.isTuple())
    return tupleComparison(op, as(l, lv), as(r, rv), at);
  static const ir::CompareOp kOps[] = {ir::CompareOp::Eq, ir::CompareOp::NotEq,
                                       ir::CompareOp::Lt, ir::CompareOp::LtE,
                                       ir::CompareOp::Gt, ir::CompareOp::GtE};
  const size_t opIndex = static_cast<size_t>(op);
  const std::optional<ScalarKind> k =
      lv.isScalar() && rv.isScalar()
          ? sema::comparisonOperandType(op, lv.scalarKind(), rv.scalarKind())
          : std::nullopt;
  if (!k || opIndex >= 6) {
    unsupported(at, "this comparison");
    return nullptr;
  }
  auto* out = makeExpr<ir::Compare>(at, NumbaType::scalar(ScalarKind::Boolean));
  out->op = kOps[opIndex];
  out->lhs = as(l, NumbaType::scalar(*k));
  out->rhs = as(r, NumbaType::scalar(*k));
  return out;
}

ir::Expr* FunctionLowering::tupleContains(bool negated, ir::Expr* value, ir::Expr* tuple,
                                          SourceRange at) {
  // `value in tuple`: `value == item` for each item in turn, the first that holds deciding (both
  // operands evaluated once, before); the empty tuple holds nothing.
  const NumbaType boolean = NumbaType::scalar(ScalarKind::Boolean);
  auto* out = makeExpr<ir::SpreadCall>(at, boolean);
  const int vb = nextBinding_++, tb = nextBinding_++;
  out->spreads = {value, tuple};
  out->bindings = {vb, tb};
  auto* any = makeExpr<ir::Logical>(at, boolean);
  any->op = ir::LogicalOp::Or;
  bool ok = true;
  const std::vector<NumbaType>& items = tuple->type.elements();
  for (size_t i = 0; i < items.size(); ++i) {
    auto* v = makeExpr<ir::Bound>(at, value->type);
    v->binding = vb;
    auto* t = makeExpr<ir::Bound>(at, tuple->type);
    t->binding = tb;
    auto* item = makeExpr<ir::TupleElement>(at, items[i]);
    item->tuple = t;
    item->index = static_cast<int64_t>(i);
    item->byField = false;
    any->operands.push_back(compareValues(ast::CmpOpKind::Eq, v, item, at));
    ok = ok && any->operands.back() != nullptr;
  }
  ir::Expr* found = any;
  if (items.empty()) {
    auto* nothing = makeExpr<ir::Literal>(at, boolean);
    nothing->value = sema::ConstantValue::boolean(false);
    found = nothing;
  } else if (items.size() == 1) {
    found = any->operands[0];
  }
  if (negated) {
    auto* no = makeExpr<ir::Not>(at, boolean);
    no->operand = found;
    found = no;
  }
  out->call = found;
  return ok ? out : nullptr;
}

ir::Expr* FunctionLowering::tupleComparison(ast::CmpOpKind op, ir::Expr* l, ir::Expr* r,
                                            SourceRange at) {
  const NumbaType boolean = NumbaType::scalar(ScalarKind::Boolean);
  auto* out = makeExpr<ir::SpreadCall>(at, boolean); // binds the two operands, evaluated once
  const int lb = nextBinding_++, rb = nextBinding_++;
  out->spreads = {l, r};
  out->bindings = {lb, rb};
  const std::vector<NumbaType>& le = l->type.elements();
  const std::vector<NumbaType>& re = r->type.elements();
  auto element = [&](int binding, const NumbaType& tuple, size_t i) {
    auto* bound = makeExpr<ir::Bound>(at, tuple);
    bound->binding = binding;
    auto* e = makeExpr<ir::TupleElement>(at, tuple.elements()[i]);
    e->tuple = bound;
    e->index = static_cast<int64_t>(i);
    e->byField = false;
    return e;
  };
  auto pair = [&](ast::CmpOpKind k, size_t i) {
    return compareValues(k, element(lb, l->type, i), element(rb, r->type, i), at);
  };
  auto known = [&](bool value) {
    auto* c = makeExpr<ir::Literal>(at, boolean);
    c->value = sema::ConstantValue::boolean(value);
    return c;
  };
  const size_t n = std::min(le.size(), re.size());
  bool ok = true;
  ir::Expr* result = nullptr;
  if (op == ast::CmpOpKind::Eq || op == ast::CmpOpKind::NotEq) {
    ir::Expr* equal = nullptr;
    if (le.size() != re.size() || n == 0) {
      equal = known(le.size() == re.size());
    } else {
      auto* all = makeExpr<ir::Logical>(at, boolean);
      all->op = ir::LogicalOp::And;
      for (size_t i = 0; i < n; ++i) {
        all->operands.push_back(pair(ast::CmpOpKind::Eq, i));
        ok = ok && all->operands.back() != nullptr;
      }
      equal = n == 1 ? all->operands[0] : all;
    }
    if (op == ast::CmpOpKind::Eq) {
      result = equal;
    } else {
      auto* negated = makeExpr<ir::Not>(at, boolean);
      negated->operand = equal;
      result = negated;
    }
  } else {
    // The first pair that differs decides; all equal, the lengths do.
    const size_t a = le.size(), b = re.size();
    const bool byLength = op == ast::CmpOpKind::Lt    ? a < b
                          : op == ast::CmpOpKind::LtE ? a <= b
                          : op == ast::CmpOpKind::Gt  ? a > b
                                                      : a >= b;
    result = known(byLength);
    for (size_t i = n; i-- > 0;) {
      auto* decide = makeExpr<ir::Conditional>(at, boolean);
      decide->condition = pair(ast::CmpOpKind::NotEq, i);
      decide->then = pair(op, i);
      decide->otherwise = result;
      ok = ok && decide->condition != nullptr && decide->then != nullptr;
      result = decide;
    }
  }
  out->call = result;
  return ok ? out : nullptr;
}

ir::Expr* FunctionLowering::visitBoolOp(const ast::BoolOp* b, const NumbaType* t) {
  const ir::LogicalOp op = b->op == ast::BoolOpKind::And ? ir::LogicalOp::And : ir::LogicalOp::Or;
  bool ok = true;
  if (isBoolean(*t)) {
    auto* out = makeExpr<ir::Logical>(b->range, *t);
    out->op = op;
    for (const ast::Expr* v : b->values) {
      out->operands.push_back(condition(v));
      ok = ok && out->operands.back() != nullptr;
    }
    return ok ? out : nullptr;
  }
  // Python's value semantics: `a and b` is a if a is false, else b (in the unified type).
  auto* out = makeExpr<ir::LogicalValue>(b->range, *t);
  out->op = op;
  for (const ast::Expr* v : b->values) {
    out->operands.push_back(exprAs(v, *t));
    ok = ok && out->operands.back() != nullptr;
  }
  return ok ? out : nullptr;
}

ir::Expr* FunctionLowering::visitIfExp(const ast::IfExp* i, const NumbaType* t) {
  auto* out = makeExpr<ir::Conditional>(i->range, *t);
  out->condition = condition(i->test);
  out->then = exprAs(i->body, *t);
  out->otherwise = exprAs(i->orelse, *t);
  return out->condition && out->then && out->otherwise ? out : nullptr;
}

ir::Expr* FunctionLowering::visitTuple(const ast::Tuple* tuple, const NumbaType* t) {
  auto* out = makeExpr<ir::MakeTuple>(tuple->range, *t);
  bool ok = t->isTuple() && t->elements().size() == tuple->elts.size();
  for (size_t i = 0; ok && i < tuple->elts.size(); ++i) {
    out->elements.push_back(exprAs(tuple->elts[i], t->elements()[i]));
    ok = out->elements.back() != nullptr;
  }
  return ok ? out : nullptr;
}

} // namespace pyk::lower
