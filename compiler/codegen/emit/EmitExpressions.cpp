// EmitExpressions: expressions as C++ — literals, variables (the C++ variable that holds their
// version), module constants (numpy arrays frozen into the unit), operators with Python's
// semantics, comparisons, `and`/`or` (of booleans, or with Python's value semantics), conditional
// expressions and tuples.
#include <cmath>
#include <cstdio>

#include "codegen/emit/UnitEmitter.h"

// Where a construct emits more than one operand, the right-hand ones are emitted first, so that
// the temporaries they declare are numbered as they always have been: the unit's text, and so
// its cache key, stay the same from one version of pyk to the next.

namespace pyk::codegen {

std::string UnitEmitter::visitOther(const ir::Expr* e) {
  // A Slice is only ever an ArrayView's item; the IR's verifier rejects anything else.
  unsupported(e->range, std::string("the expression `") + ir::nodeKindName(e->kind) + "`");
  return "0";
}

std::string UnitEmitter::visitLiteral(const ir::Literal* l) {
  const sema::ConstantValue& v = l->value;
  switch (v.kind) {
  case sema::ConstantValue::Kind::Bool:
    return v.boolValue ? "true" : "false";
  case sema::ConstantValue::Kind::Int:
    return int128Literal(v.intValue, l->type.scalarKind());
  case sema::ConstantValue::Kind::Float:
    return doubleLiteral(v.floatValue);
  case sema::ConstantValue::Kind::Complex: // an imaginary literal
    return "pyk::complex128{0.0, " + doubleLiteral(v.complexValue.imag()) + "}";
  case sema::ConstantValue::Kind::None: // converted to an Optional
    return "pyk::none";
  case sema::ConstantValue::Kind::Str: { // into a character sequence: truncated, zero-padded
    std::vector<uint32_t> codes;
    if (l->type.isUnicode())
      codes = sema::utf8CodePoints(v.strValue);
    else
      for (char ch : v.strValue)
        codes.push_back(static_cast<unsigned char>(ch));
    std::string out = type(l->type) + "{{";
    for (size_t k = 0; k < codes.size() && static_cast<int64_t>(k) < l->type.charCount(); ++k)
      out += (k ? ", " : "") + std::to_string(codes[k]) + "u";
    return out + "}}";
  }
  default:
    unsupported(l->range, "this constant");
    return "0";
  }
}

std::string UnitEmitter::visitFrozenConstant(const ir::FrozenConstant* c) {
  return constantValue(c->value, c->type, c->range);
}

std::string UnitEmitter::visitRead(const ir::Read* r) {
  const StorageSlot* slot = storage_.slotOf(r->variable.version);
  if (slot == nullptr) {
    unsupported(r->range, "this variable");
    return "0";
  }
  if (slot->type.isVoid()) // a variable that only ever holds None has no C++ variable
    return cast("pyk::none", slot->type, r->type);
  return cast(slotVariable(*slot, r->variable.variable), slot->type, r->type);
}

std::string UnitEmitter::visitBinary(const ir::Binary* b) {
  // Written out, a thread's global index takes the CUDA spelling's 32-bit variant too.
  if (target_.backend() == Backend::Cuda && b->type.isScalar() &&
      b->type.scalarKind() == ScalarKind::Int64)
    if (const int axis = writtenGlobalIndexAxis(b); axis >= 0)
      return globalIndexOnAxis(axis);
  const std::string r = expr(b->rhs);
  const std::string l = expr(b->lhs);
  switch (b->op) {
  case ir::BinaryOp::Add:
  case ir::BinaryOp::Sub:
  case ir::BinaryOp::Mult:
  case ir::BinaryOp::BitAnd:
  case ir::BinaryOp::BitOr:
  case ir::BinaryOp::BitXor:
  case ir::BinaryOp::Div:
    // numba converts integer operands of `/` to float64 first, so `/` always divides floats or
    // complex numbers here: by zero, inf or nan as in numba.
    return "(" + l + " " + ir::spellingOf(b->op) + " " + r + ")";
  case ir::BinaryOp::FloorDiv:
    return "pyk::floordiv(" + l + ", " + r + ")";
  case ir::BinaryOp::Mod:
    return "pyk::mod(" + l + ", " + r + ")";
  case ir::BinaryOp::PowComplex:
    return "pyk::cpow(" + l + ", " + r + ")";
  case ir::BinaryOp::PowFloatInteger:
    return "pyk::fpowi(" + l + ", " + r + ")";
  case ir::BinaryOp::PowFloat:
    return "pyk::fpow(" + l + ", " + r + ")";
  case ir::BinaryOp::PowInteger:
    return "pyk::ipow(" + l + ", " + r + ")";
  case ir::BinaryOp::LShift:
    return "pyk::shl(" + l + ", " + r + ")";
  case ir::BinaryOp::RShift:
    return "pyk::shr(" + l + ", " + r + ")";
  }
  return "0";
}

// numba's npdatetime lowering as pyk::npdatetime's template of the operands' and result's units
// (numba's unit numbers; a number operand's is the generic unit's).
std::string UnitEmitter::visitDatetimeOperation(const ir::DatetimeOperation* d) {
  auto unit = [](const NumbaType& t) {
    return std::to_string(
        static_cast<int>(t.isDatetimeLike() ? t.datetimeUnit() : types::DatetimeUnit::Generic));
  };
  std::string out = std::string("pyk::npdatetime::") + ir::nameOf(d->op) + "<" +
                    unit(d->lhs->type) + ", " + unit(d->rhs ? d->rhs->type : NumbaType()) + ", " +
                    unit(d->type) + ">(" + expr(d->lhs);
  if (d->rhs != nullptr)
    out += ", " + expr(d->rhs);
  return out + ")";
}

int UnitEmitter::writtenGlobalIndexAxis(const ir::Binary* b) {
  if (b->op != ir::BinaryOp::Add)
    return -1;
  // The intrinsic an operand reads (converted implicitly, as numba widens int32 operands).
  auto intrinsicOf = [](const ir::Expr* e) {
    if (const auto* c = e->as<ir::Cast>(); c != nullptr && !c->written)
      e = c->value;
    const auto* v = e->as<ir::IntrinsicValue>();
    return v != nullptr ? v->intrinsic : sema::Intrinsic::None;
  };
  auto product = [&](const ir::Expr* e) {
    const auto* m = e->as<ir::Binary>();
    if (m == nullptr || m->op != ir::BinaryOp::Mult)
      return -1;
    const sema::Intrinsic l = intrinsicOf(m->lhs), r = intrinsicOf(m->rhs);
    for (int d = 0; d < 3; ++d)
      if ((l == sema::blockIdx(d) && r == sema::blockDim(d)) ||
          (l == sema::blockDim(d) && r == sema::blockIdx(d)))
        return d;
    return -1;
  };
  for (const auto& [p, t] : {std::pair{b->lhs, b->rhs}, std::pair{b->rhs, b->lhs}})
    if (const int d = product(p); d >= 0 && intrinsicOf(t) == sema::threadIdx(d))
      return d;
  return -1;
}

std::string UnitEmitter::visitUnary(const ir::Unary* u) {
  const std::string v = expr(u->operand);
  switch (u->op) {
  case ir::UnaryOp::Negate:
    return "(-" + v + ")";
  case ir::UnaryOp::Plus:
    return "(+" + v + ")";
  case ir::UnaryOp::Invert:
    return "(~" + v + ")";
  }
  return "0";
}

std::string UnitEmitter::visitCompare(const ir::Compare* c) {
  const std::string r = expr(c->rhs);
  return "(" + expr(c->lhs) + " " + ir::spellingOf(c->op) + " " + r + ")";
}

// numba's generic `is` between types that decide it: the operands evaluated, then the answer.
std::string UnitEmitter::visitIdentityTest(const ir::IdentityTest* t) {
  const std::string r = t->rhs == nullptr ? "0" : expr(t->rhs);
  return std::string("((void)(") + (t->lhs == nullptr ? "0" : expr(t->lhs)) + "), (void)(" + r +
         "), " + (t->result ? "true" : "false") + ")";
}

// numba's cast of an Optional to its value's type (optional_to_any): None raises TypeError,
// which ends the thread as a numba.cuda kernel's exception does without debug=True; with
// debug=True, the launch stops with numba's message.
std::string UnitEmitter::visitUnwrapOptional(const ir::UnwrapOptional* u) {
  std::string onNone;
  if (u->debug) {
    onNone =
        target_.trapWith(stopMessage(u, "TypeError: expected " + u->type.str() + ", got None"));
  } else {
    onNone = target_.endThread();
    endsThreadsEarly_ = true;
  }
  return "pyk::unwrap_optional(" + expr(u->value) + ", [&]() { " + onNone + " })";
}

std::string UnitEmitter::visitOptionalIsNone(const ir::OptionalIsNone* t) {
  return "(!(" + expr(t->value) + ").valid)";
}

std::string UnitEmitter::visitLogical(const ir::Logical* l) {
  std::string out;
  for (size_t i = 0; i < l->operands.size(); ++i)
    out += (i ? (l->op == ir::LogicalOp::And ? " && " : " || ") : "") + expr(l->operands[i]);
  return "(" + out + ")";
}

// Python's value semantics: `a and b` is a if a is false, else b (in the unified type).
std::string UnitEmitter::visitLogicalValue(const ir::LogicalValue* l) {
  std::string out = expr(l->operands.back());
  for (size_t i = l->operands.size() - 1; i-- > 0;) {
    std::string v = temp("v");
    std::string value = expr(l->operands[i]);
    out = "[&] { const " + type(l->type) + " " + v + " = " + value + "; return " + v +
          (l->op == ir::LogicalOp::And ? " ? " + out + " : " + v : " ? " + v + " : " + out) +
          "; }()";
  }
  return out;
}

std::string UnitEmitter::visitConditional(const ir::Conditional* c) {
  const std::string otherwise = expr(c->otherwise);
  const std::string then = expr(c->then);
  return "(" + expr(c->condition) + " ? " + then + " : " + otherwise + ")";
}

std::string UnitEmitter::visitMakeTuple(const ir::MakeTuple* t) {
  std::vector<std::string> elements;
  for (const ir::Expr* e : t->elements)
    elements.push_back(expr(e));
  return tupleValue(t->type, elements);
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
  case sema::ConstantValue::Kind::Complex: // `IMG = 1j`, `np.complex64(1 + 2j)`
    return cast("pyk::complex128{" + doubleLiteral(v.complexValue.real()) + ", " +
                    doubleLiteral(v.complexValue.imag()) + "}",
                NumbaType::scalar(ScalarKind::Complex128), t);
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

} // namespace pyk::codegen
