// EmitExpressions: expressions as C++ — literals, names, module constants (numpy arrays frozen
// into the unit), operators with numba's operand conversions and Python's semantics, comparisons,
// `and`/`or` with Python's value semantics, conditional expressions and tuples.
#include <cmath>
#include <cstdio>

#include "codegen/UnitEmitter.h"
#include "sema/ConstantFolder.h"
#include "sema/FunctionConstants.h"
#include "sema/TypeRules.h"

namespace pyk::codegen {

std::string UnitEmitter::expr(const ast::Expr* e) {
  if (auto it = spreadValues_.find(e); it != spreadValues_.end())
    return it->second; // a `*` value, evaluated once already (call)
  const NumbaType* t = typeOf(e);
  // Every kind below but these needs the expression's type; one typing left without a type
  // (a `print(...)` used as a value, say) is reported, never dereferenced.
  const bool typeless =
      e->is<ast::Constant>() || e->is<ast::Name>() || e->is<ast::Call>() || e->is<ast::Compare>() ||
      e->is<ast::Subscript>() || e->is<ast::BinOp>() ||
      (e->is<ast::UnaryOp>() && e->as<ast::UnaryOp>()->op == ast::UnaryOpKind::Not) ||
      (e->is<ast::Attribute>() && !sema::qualifiedApiName(spec_->function->scope, e).empty());
  if (t == nullptr && !typeless) {
    unsupported(e->range, "this expression here");
    return "0";
  }
  return ExprVisitor::visit(e, t);
}

std::string UnitEmitter::visitBinOp(const ast::BinOp* b, const NumbaType* t) {
  if (t == nullptr) {
    unsupported(b->range, "this operation");
    return "0";
  }
  // Written out, a thread's global index takes the CUDA spelling's 32-bit variant too.
  if (target_.backend() == Backend::Cuda && t->isScalar() && t->scalarKind() == ScalarKind::Int64)
    if (const int axis = writtenGlobalIndexAxis(b); axis >= 0)
      return globalIndexOnAxis(axis);
  return binary(b->op, b->left, b->right, *t, b->range);
}

int UnitEmitter::writtenGlobalIndexAxis(const ast::BinOp* b) const {
  if (b->op != ast::BinOpKind::Add)
    return -1;
  auto product = [&](const ast::Expr* e) {
    const auto* m = e->as<ast::BinOp>();
    if (m == nullptr || m->op != ast::BinOpKind::Mult)
      return -1;
    const sema::Intrinsic l = spec_->intrinsicOf(m->left), r = spec_->intrinsicOf(m->right);
    for (int d = 0; d < 3; ++d)
      if ((l == sema::blockIdx(d) && r == sema::blockDim(d)) ||
          (l == sema::blockDim(d) && r == sema::blockIdx(d)))
        return d;
    return -1;
  };
  for (const auto& [p, t] : {std::pair{b->left, b->right}, std::pair{b->right, b->left}})
    if (const int d = product(p); d >= 0 && spec_->intrinsicOf(t) == sema::threadIdx(d))
      return d;
  return -1;
}

std::string UnitEmitter::visitIfExp(const ast::IfExp* i, const NumbaType* t) {
  return "(" + truthy(i->test) + " ? " + castTo(i->body, *t) + " : " + castTo(i->orelse, *t) + ")";
}

std::string UnitEmitter::visitTuple(const ast::Tuple* tuple, const NumbaType* t) {
  std::vector<std::string> elements;
  for (size_t i = 0; i < tuple->elts.size(); ++i)
    elements.push_back(castTo(tuple->elts[i], t->elements()[i]));
  return tupleValue(*t, elements);
}

std::string UnitEmitter::visitExpr(const ast::Expr* e, const NumbaType*) {
  unsupported(e->range, std::string("the expression `") + ast::nodeKindName(e->kind) + "`");
  return "0";
}

std::string UnitEmitter::visitConstant(const ast::Constant* c, const NumbaType* t) {
  switch (c->valueKind) {
  case ast::ConstantKind::Bool:
    return c->boolValue ? "true" : "false";
  case ast::ConstantKind::Int:
    return int128Literal(c->intValue, t != nullptr ? t->scalarKind() : ScalarKind::Int64);
  case ast::ConstantKind::Float:
    return doubleLiteral(c->floatValue);
  case ast::ConstantKind::Complex:
    return "pyk::complex128{0.0, " + doubleLiteral(c->floatValue) + "}";
  default:
    unsupported(c->range, "this constant");
    return "0";
  }
}

std::string UnitEmitter::visitName(const ast::Name* n, const NumbaType* t) {
  auto it = spec_->function->scope.names.find(n);
  if (it == spec_->function->scope.names.end()) {
    unsupported(n->range, "this name");
    return "0";
  }
  const sema::NameBinding& b = it->second;
  // A constant imported by name (`from math import pi`): its value, as `math.pi` spells it.
  if (const sema::Intrinsic id = spec_->intrinsicOf(n); id != sema::Intrinsic::None)
    return intrinsicValue(id, n);
  if (b.kind == sema::NameBinding::Kind::ModuleConstant && t != nullptr)
    return constantValue(definingModule().symbols.constants()[b.index].value, *t, n->range);
  if (b.kind == sema::NameBinding::Kind::Builtin)
    return n->id == "True" ? "true" : "false";
  const sema::LocalVersions& versions = spec_->function->scope.versions;
  const size_t v = versions.ofNameOr(n);
  const StorageSlot* slot = storage_.slotOf(v);
  if (slot == nullptr || t == nullptr) {
    unsupported(n->range, "this variable");
    return "0";
  }
  return cast(slotVariable(*slot, versions.versions[v].variable), slot->type, *t);
}

std::string UnitEmitter::truthy(const ast::Expr* e) {
  const NumbaType* t = typeOf(e);
  if (t == nullptr) {
    unsupported(e->range, "this condition");
    return "false";
  }
  if (t->isScalar() && t->scalarKind() == ScalarKind::Boolean)
    return expr(e);
  if (t->isScalar())
    return castScalar(e, ScalarKind::Boolean);
  if (t->isTuple())
    return t->elements().empty() ? "false" : "true";
  unsupported(e->range, "this condition");
  return "false";
}

std::string UnitEmitter::binary(ast::BinOpKind op, const ast::Expr* l, const ast::Expr* r,
                                const NumbaType& result, SourceRange at) {
  const NumbaType* lt = typeOf(l);
  const NumbaType* rt = typeOf(r);
  if (lt == nullptr || rt == nullptr) {
    unsupported(at, "this operation");
    return "0";
  }
  return binary(op, Operand{expr(l), *lt}, Operand{expr(r), *rt}, result, at);
}

std::string UnitEmitter::binary(ast::BinOpKind op, const Operand& l, const Operand& r,
                                const NumbaType& result, SourceRange at) {
  const NumbaType* lt = &l.type;
  const NumbaType* rt = &r.type;
  if (!lt->isScalar() || !rt->isScalar() || !result.isScalar()) {
    unsupported(at, "this operation");
    return "0";
  }
  std::optional<ScalarKind> operand =
      sema::binaryOperandType(op, lt->scalarKind(), rt->scalarKind());
  if (!operand) {
    unsupported(at, "this operation");
    return "0";
  }
  NumbaType o = NumbaType::scalar(*operand);
  auto castTo = [&](const Operand& x, const NumbaType& to) { return cast(x.code, x.type, to); };
  auto castScalar = [&](const Operand& x, ScalarKind to) {
    return cast(x.code, x.type, NumbaType::scalar(to));
  };
  auto expr = [](const Operand& x) { return x.code; };
  switch (op) {
  case ast::BinOpKind::Add:
  case ast::BinOpKind::Sub:
  case ast::BinOpKind::Mult:
  case ast::BinOpKind::BitAnd:
  case ast::BinOpKind::BitOr:
  case ast::BinOpKind::BitXor: {
    std::string expr = "(" + castTo(l, o) + " " + ast::toString(op) + " " + castTo(r, o) + ")";
    return cast(expr, o, result); // bool & bool computes in int, as C++ promotes
  }
  case ast::BinOpKind::Div:
    // numba converts integer operands of `/` to float64 first (TypeRules' operand type), so `/`
    // always divides floats or complex numbers here: by zero, inf or nan as in numba.
    return cast("(" + castTo(l, o) + " / " + castTo(r, o) + ")", o, result);
  case ast::BinOpKind::FloorDiv:
    return cast("pyk::floordiv(" + castTo(l, o) + ", " + castTo(r, o) + ")", o, result);
  case ast::BinOpKind::Mod:
    return cast("pyk::mod(" + castTo(l, o) + ", " + castTo(r, o) + ")", o, result);
  case ast::BinOpKind::Pow:
    if (isComplexType(result))
      return "pyk::cpow(" + castTo(l, result) + ", " + castTo(r, result) + ")";
    if (isFloating(result) && isIntegral(*rt))
      return "pyk::fpowi(" + castTo(l, result) + ", " + castScalar(r, ScalarKind::Int64) + ")";
    if (isFloating(result))
      return "pyk::fpow(" + castTo(l, result) + ", " + castTo(r, result) + ")";
    return "pyk::ipow(" + castTo(l, result) + ", " + castTo(r, result) + ")";
  case ast::BinOpKind::LShift:
    return "pyk::shl(" + castTo(l, result) + ", " + expr(r) + ")";
  case ast::BinOpKind::RShift:
    return "pyk::shr(" + castTo(l, result) + ", " + expr(r) + ")";
  default:
    unsupported(at, std::string("the operator `") + ast::toString(op) + "`");
    return "0";
  }
}

std::string UnitEmitter::visitUnaryOp(const ast::UnaryOp* u, const NumbaType* t) {
  return unary(u->op, u->operand, t);
}

std::string UnitEmitter::unary(ast::UnaryOpKind op, const ast::Expr* operand, const NumbaType* t) {
  if (op == ast::UnaryOpKind::Not)
    return "(!" + truthy(operand) + ")";
  if (t == nullptr)
    return "0";
  std::string v = castTo(operand, *t);
  if (op == ast::UnaryOpKind::USub)
    return "(-" + v + ")";
  if (op == ast::UnaryOpKind::UAdd)
    return "(+" + v + ")";
  if (t->scalarKind() == ScalarKind::Boolean)
    return "(!" + v + ")";
  return cast("(~" + v + ")", *t, *t);
}

std::string UnitEmitter::visitCompare(const ast::Compare* c, const NumbaType*) {
  std::string out;
  const ast::Expr* left = c->left;
  for (size_t i = 0; i < c->ops.size(); ++i) {
    const ast::Expr* right = c->comparators[i];
    out += (i ? " && " : "") + comparison(c->ops[i], left, right, c->range);
    left = right;
  }
  return c->ops.size() > 1 ? "(" + out + ")" : out;
}

std::string UnitEmitter::comparison(ast::CmpOpKind op, const ast::Expr* left,
                                    const ast::Expr* right, SourceRange at) {
  const NumbaType* lt = typeOf(left);
  const NumbaType* rt = typeOf(right);
  if ((op == ast::CmpOpKind::Is || op == ast::CmpOpKind::IsNot) && lt != nullptr && rt != nullptr) {
    // numba's generic `is`: `==` on one scalar type, true for None is None, false between types
    // that differ (the operands still evaluated).
    const bool is = op == ast::CmpOpKind::Is;
    if (*lt == *rt && lt->isScalar())
      return comparison(is ? ast::CmpOpKind::Eq : ast::CmpOpKind::NotEq, left, right, at);
    const bool same = *lt == *rt && lt->isVoid();
    return std::string("((void)(") + (lt->isVoid() ? "0" : expr(left)) + "), (void)(" +
           (rt->isVoid() ? "0" : expr(right)) + "), " + ((same == is) ? "true" : "false") + ")";
  }
  if (lt == nullptr || rt == nullptr || !lt->isScalar() || !rt->isScalar()) {
    unsupported(at, "this comparison");
    return "false";
  }
  std::optional<ScalarKind> k = sema::comparisonOperandType(op, lt->scalarKind(), rt->scalarKind());
  static const char* const kOps[] = {"==", "!=", "<", "<=", ">", ">="};
  size_t opIndex = static_cast<size_t>(op);
  if (!k || opIndex >= 6) {
    unsupported(at, "this comparison");
    return "false";
  }
  return "(" + castScalar(left, *k) + " " + kOps[opIndex] + " " + castScalar(right, *k) + ")";
}

std::string UnitEmitter::visitBoolOp(const ast::BoolOp* b, const NumbaType* t) {
  const bool allBool = t != nullptr && t->isScalar() && t->scalarKind() == ScalarKind::Boolean;
  if (allBool) {
    std::string out;
    for (size_t i = 0; i < b->values.size(); ++i)
      out += (i ? (b->op == ast::BoolOpKind::And ? " && " : " || ") : "") + truthy(b->values[i]);
    return "(" + out + ")";
  }
  // Python's value semantics: `a and b` is a if a is false, else b (in the unified type).
  std::string out = castTo(b->values.back(), *t);
  for (size_t i = b->values.size() - 1; i-- > 0;) {
    std::string v = temp("v");
    std::string value = castTo(b->values[i], *t);
    out = "[&] { const " + type(*t) + " " + v + " = " + value + "; return " + v +
          (b->op == ast::BoolOpKind::And ? " ? " + out + " : " + v : " ? " + v + " : " + out) +
          "; }()";
  }
  return out;
}

std::string UnitEmitter::constantValue(const sema::ConstantValue& v, const NumbaType& t,
                                       SourceRange at) {
  switch (v.kind) {
  case sema::ConstantValue::Kind::Bool:
    return v.boolValue ? "true" : "false";
  case sema::ConstantValue::Kind::Int:
    return int128Literal(v.intValue, t.scalarKind());
  case sema::ConstantValue::Kind::Float:
    return cast(doubleLiteral(v.floatValue), NumbaType::scalar(ScalarKind::Float64), t);
  case sema::ConstantValue::Kind::Tuple: {
    std::vector<std::string> elements;
    for (size_t i = 0; i < v.elements.size(); ++i)
      elements.push_back(constantValue(v.elements[i], t.elements()[i], at));
    return tupleValue(t, elements);
  }
  case sema::ConstantValue::Kind::Array: {
    // A module-level numpy array: frozen into __constant__ memory, read through a view.
    const sema::ConstantArray& a = *v.array;
    if (a.isRecordArray())
      return constantRecordArray(a, t);
    if (auto it = constantArrays_.find(&a); it != constantArrays_.end())
      return arrayView("const_cast<" + scalarCpp(a.dtype) + "*>(" + it->second + ")", t, a.shape);
    if (a.values.empty()) // no storage (C++ has no arrays of size 0); nothing is ever read
      return arrayView("static_cast<" + scalarCpp(a.dtype) + "*>(nullptr)", t, a.shape);
    std::string name = "pyk_constant_" + std::to_string(constantArrays_.size());
    std::ostringstream s;
    s << target_.constantArrayQualifier() << scalarCpp(a.dtype) << " " << name << "["
      << a.values.size() << "] = {";
    for (size_t i = 0; i < a.values.size(); ++i)
      s << (i ? ", " : "") << constantElement(a.values[i], a.dtype);
    s << "};\n\n";
    prelude_ << s.str();
    constantArrays_[&a] = name;
    return arrayView("const_cast<" + scalarCpp(a.dtype) + "*>(" + name + ")", t, a.shape);
  }
  default:
    unsupported(at, "this constant");
    return "0";
  }
}

// A module array of records: its bytes as numpy holds them, in constant memory aligned for the
// record's struct (16 bytes covers every field), read through a view of the struct.
std::string UnitEmitter::constantRecordArray(const sema::ConstantArray& a, const NumbaType& t) {
  const std::string item = elementCpp(t);
  auto view = [&](const std::string& name) {
    return arrayView("reinterpret_cast<" + item + "*>(const_cast<unsigned char*>(" + name + "))", t,
                     a.shape);
  };
  if (auto it = constantArrays_.find(&a); it != constantArrays_.end())
    return view(it->second);
  std::string name = "pyk_constant_" + std::to_string(constantArrays_.size());
  std::ostringstream s;
  s << "// " << a.elementType().str() << " x " << a.size() << "\n";
  // An empty array still needs storage of one byte (C++ has no zero-length arrays).
  s << "alignas(16) " << target_.constantArrayQualifier() << "unsigned char " << name << "["
    << std::max<size_t>(a.bytes.size(), 1) << "] = {";
  for (size_t i = 0; i < a.bytes.size(); ++i)
    s << (i ? (i % 24 == 0 ? ",\n    " : ", ") : "") << static_cast<unsigned>(a.bytes[i]);
  s << "};\n\n";
  prelude_ << s.str();
  constantArrays_[&a] = name;
  return view(name);
}

// One element of a frozen array, already converted to the array's dtype by the constant folder:
// complex numbers both parts, float32 values as float literals (NaN and infinities converted
// explicitly, as they do not narrow implicitly).
std::string UnitEmitter::constantElement(const sema::ConstantValue& x, ScalarKind dtype) {
  if (dtype == ScalarKind::Float16)
    return halfLiteral(x.kind == sema::ConstantValue::Kind::Float
                           ? x.floatValue
                           : static_cast<double>(x.intValue));
  switch (x.kind) {
  case sema::ConstantValue::Kind::Complex:
    return scalarCpp(dtype) + "(" + doubleLiteral(x.complexValue.real()) + ", " +
           doubleLiteral(x.complexValue.imag()) + ")";
  case sema::ConstantValue::Kind::Float: {
    if (dtype != ScalarKind::Float32 || !std::isfinite(static_cast<float>(x.floatValue)))
      return dtype == ScalarKind::Float64
                 ? doubleLiteral(x.floatValue)
                 : "static_cast<" + scalarCpp(dtype) + ">(" + doubleLiteral(x.floatValue) + ")";
    // The float32 numpy holds (the double rounded once), spelt so that it reads back exactly.
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g",
                  static_cast<double>(static_cast<float>(x.floatValue)));
    std::string literal = buffer;
    if (literal.find_first_of(".eE") == std::string::npos)
      literal += ".0";
    return literal + "f";
  }
  case sema::ConstantValue::Kind::Bool:
    return x.boolValue ? "true" : "false";
  default:
    return int128Literal(x.intValue, dtype);
  }
}

std::string UnitEmitter::arrayView(const std::string& storage, const NumbaType& t,
                                   const std::vector<int64_t>& shape) {
  // C-contiguous: strides in bytes from the last dimension up.
  std::vector<int64_t> strides(shape.size());
  int64_t stride = itemBytes(t);
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= shape[d];
  }
  std::string out = type(t) + "{" + storage + ", {";
  for (size_t d = 0; d < shape.size(); ++d)
    out += (d ? ", " : "") + std::to_string(shape[d]) + "LL";
  out += "}, {";
  for (size_t d = 0; d < strides.size(); ++d)
    out += (d ? ", " : "") + std::to_string(strides[d]) + "LL";
  return out + "}}";
}

std::vector<int64_t> UnitEmitter::constantShape(const ast::Expr* e) {
  DiagnosticEngine quiet;
  sema::ConstantFolder folder(definingModule().symbols, quiet);
  folder.setLocalNames(sema::functionLocalNames(*spec_, folder));
  sema::FoldResult r = folder.fold(e);
  std::vector<int64_t> shape;
  if (!r.isConstant())
    return shape;
  if (r.value().kind == sema::ConstantValue::Kind::Int)
    shape.push_back(static_cast<int64_t>(r.value().intValue));
  for (const sema::ConstantValue& x : r.value().elements)
    shape.push_back(static_cast<int64_t>(x.intValue));
  return shape;
}

} // namespace pyk::codegen
