// LowerCalls: calls as IR — device functions (the callee typing chose), `f(*t)`, named-tuple
// construction, the methods numba has on values (`z.conjugate()`, `a.view(t)`, `g.sync()`), casts
// to scalar types, print, and the dispatch of intrinsic calls, by their typing rule, to the family
// that lowers them (LowerIntrinsics.cpp).
#include <algorithm>

#include "lower/FunctionLowering.h"
#include "sema/typing/TypeRules.h"

namespace pyk::lower {

using sema::IntrinsicTyping;

ir::Expr* FunctionLowering::foreignCall(const ast::Call* c, const sema::ForeignCallee& f) {
  // Declared once a unit; the same symbol declared twice with different signatures is an error,
  // as it would be in C++.
  ir::Module::ForeignDeclaration declaration{
      f.symbol, *f.signature.returnType, f.signature.params, f.cAbi,
      &definingModule() == &m_.module ? c->range : SourceRange()};
  auto& declared = m_.out.foreignDeclarations;
  auto same = std::find_if(declared.begin(), declared.end(),
                           [&](const auto& d) { return d.symbol == f.symbol; });
  if (same == declared.end()) {
    declared.push_back(declaration);
  } else if (!(same->returnType == declaration.returnType) || same->params != declaration.params ||
             same->cAbi != declaration.cAbi) {
    unsupported(c->range,
                "`" + f.symbol + "` declared with two different signatures or ABIs in one kernel");
    return nullptr;
  }
  for (const types::LinkedSource& source : f.sources)
    m_.out.addLinkedSource(source);
  auto* out = makeExpr<ir::ForeignCall>(c->range, *f.signature.returnType);
  out->symbol = f.symbol;
  bool ok = true;
  for (size_t i = 0; i < c->args.size(); ++i) {
    out->args.push_back(exprAs(c->args[i], f.signature.params[i]));
    ok = ok && out->args.back() != nullptr;
  }
  return ok ? out : nullptr;
}

ir::Expr* FunctionLowering::call(const ast::Call* c) {
  if (auto it = spec_.spreadCalls.find(c); it != spec_.spreadCalls.end())
    return spreadCall(c, it->second);
  if (auto it = spec_.callees.find(c); it != spec_.callees.end()) {
    // Functions and type objects passed as arguments have no value at run time: the callee was
    // specialized for them, and nothing is passed.
    const sema::Specialization* callee = it->second;
    auto* out = makeExpr<ir::Call>(c->range, callee->returnType);
    out->callee = m_.functions.at(callee);
    bool ok = true;
    for (size_t i = 0; i < c->args.size(); ++i)
      if (!callee->params[i].isCompileTimeOnly()) {
        out->args.push_back(exprAs(c->args[i], callee->params[i]));
        ok = ok && out->args.back() != nullptr;
      }
    return ok ? out : nullptr;
  }
  if (auto it = spec_.foreignCalls.find(c); it != spec_.foreignCalls.end())
    return foreignCall(c, it->second);
  if (const auto* n = c->func->as<ast::Name>()) {
    auto it = scope_.names.find(n);
    if (it != scope_.names.end() && it->second.kind == sema::NameBinding::Kind::ModuleConstant) {
      const sema::ConstantValue& v = definingModule().symbols.constants()[it->second.index].value;
      const NumbaType* t = typeOf(c);
      if (v.kind == sema::ConstantValue::Kind::NamedTupleClass && t != nullptr)
        return namedTupleConstruction(c, v, *t);
    }
  }
  if (const sema::Intrinsic id = spec_.intrinsicOf(c->func); id != sema::Intrinsic::None)
    return intrinsicCall(id, c);
  const std::string api = sema::qualifiedApiName(scope_, c->func);
  const NumbaType* t = typeOf(c);
  if (api.empty()) {
    if (const auto* a = c->func->as<ast::Attribute>())
      return methodCall(a, c);
    // A variable holding a function or a type object: the intrinsic or the cast its type names
    // (a device function held so was a callee above).
    const NumbaType* callee = typeOf(c->func);
    if (callee != nullptr && callee->isFunction() && callee->intrinsic() != sema::Intrinsic::None)
      return intrinsicCall(callee->intrinsic(), c);
    if (callee != nullptr && callee->isTypeRef() && t != nullptr && c->args.size() == 1)
      return writtenCast(c->args[0], *t, c->range);
    unsupported(c->range, "this call");
    return nullptr;
  }
  if (t == nullptr) {
    unsupported(c->range, "this call here");
    return nullptr;
  }
  // A cast to a numba or numpy scalar type.
  if (sema::scalarTypeObject(scope_, c->func) && t->isScalar() && c->args.size() == 1)
    return writtenCast(c->args[0], *t, c->range);
  unsupported(c->range, "`" + api + "`");
  return nullptr;
}

ir::Expr* FunctionLowering::writtenCast(const ast::Expr* value, const NumbaType& to,
                                        SourceRange at) {
  ir::Expr* out = exprAs(value, to);
  if (auto* cast = out != nullptr ? out->as<ir::Cast>() : nullptr) {
    cast->written = true;
    cast->range = at; // where the source writes it
  }
  return out;
}

// f(*t): the call of t's elements (t[0], t[1], ...), each `*` value evaluated once and bound.
ir::Expr* FunctionLowering::spreadCall(const ast::Call* c, const ast::Call* spread) {
  const NumbaType* t = typeOf(spread);
  auto* out = makeExpr<ir::SpreadCall>(c->range, t != nullptr ? *t : NumbaType());
  bool ok = true;
  std::vector<const ast::Expr*> bound;
  for (const ast::Expr* a : c->args)
    if (const auto* starred = a->as<ast::Starred>()) {
      out->spreads.push_back(expr(starred->value));
      ok = ok && out->spreads.back() != nullptr;
      out->bindings.push_back(nextBinding_);
      spreadBindings_[starred->value] = nextBinding_++;
      bound.push_back(starred->value);
    }
  out->call = call(spread);
  for (const ast::Expr* value : bound)
    spreadBindings_.erase(value);
  if (out->call != nullptr)
    out->type = out->call->type;
  return ok && out->call != nullptr ? out : nullptr;
}

ir::Expr* FunctionLowering::methodCall(const ast::Attribute* a, const ast::Call* c) {
  const sema::ValueMember method = sema::methodNamed(a->attr);
  const NumbaType* object = typeOf(a->value);
  const NumbaType* t = typeOf(c);
  auto make = [&](const NumbaType& type) -> ir::Expr* {
    ir::Expr* value = expr(a->value);
    if (value == nullptr)
      return nullptr;
    auto* out = makeExpr<ir::MethodCall>(c->range, type);
    out->method = method;
    out->object = value;
    return out;
  };
  switch (method) {
  case sema::ValueMember::Conjugate: // `z.conjugate()` of a complex number
    if (object != nullptr && object->isScalar() && types::isComplex(object->scalarKind()))
      return make(*object);
    break;
  case sema::ValueMember::BitCount: { // `i.bit_count()` is `cuda.popc(i)` (numba-cuda's overload)
    if (object == nullptr || !object->isScalar() || t == nullptr)
      break;
    const ScalarKind kinds[] = {object->scalarKind()};
    const auto converted = sema::callArgumentTypes(sema::Intrinsic::Popc, kinds);
    if (!converted)
      break;
    ir::Expr* value = exprAs(a->value, (*converted)[0]);
    if (value == nullptr)
      return nullptr;
    auto* out = makeExpr<ir::IntrinsicCall>(c->range, *t);
    out->intrinsic = sema::Intrinsic::Popc;
    out->args = {value};
    return out;
  }
  case sema::ValueMember::View: // `a.view(T)`: the same bytes as another scalar type
    if (object != nullptr && object->isArray() && t != nullptr && t->isArray())
      return make(*t);
    break;
  case sema::ValueMember::Reshape: { // `a.reshape(shape)`: the shape as int64s, or its tuple
    if (object == nullptr || !object->isArray() || t == nullptr || !t->isArray())
      break;
    auto* out = static_cast<ir::MethodCall*>(make(*t));
    if (out == nullptr)
      return nullptr;
    for (const ast::Expr* arg : c->args) {
      const NumbaType* at = typeOf(arg);
      ir::Expr* value = at != nullptr && at->isTuple() ? expr(arg) : exprAs(arg, ScalarKind::Int64);
      if (value == nullptr)
        return nullptr;
      out->args.push_back(value);
    }
    return out;
  }
  case sema::ValueMember::Sync: { // `g.sync()` on a grid group
    bool direct = false;
    if (const auto* inner = a->value->as<ast::Call>())
      direct = spec_.intrinsicOf(inner->func) == sema::Intrinsic::ThisGrid;
    if (direct || (object != nullptr && object->kind() == NumbaType::Kind::GridGroup))
      return make(NumbaType::voidType());
    break;
  }
  default:
    break;
  }
  unsupported(c->range, "this call");
  return nullptr;
}

// `Point(x, y=...)`: the fields in declaration order, each converted to its element type.
ir::Expr* FunctionLowering::namedTupleConstruction(const ast::Call* c,
                                                   const sema::ConstantValue& cls,
                                                   const NumbaType& t) {
  const std::vector<std::string> fields = cls.fieldNames();
  std::vector<const ast::Expr*> values(fields.size(), nullptr);
  for (size_t i = 0; i < c->args.size() && i < values.size(); ++i)
    values[i] = c->args[i];
  for (const ast::Keyword& k : c->keywords)
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i] == k.arg)
        values[i] = k.value;
  auto* out = makeExpr<ir::MakeTuple>(c->range, t);
  bool ok = true;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] == nullptr || i >= t.elements().size()) {
      unsupported(c->range, "this named tuple construction");
      return nullptr;
    }
    out->elements.push_back(exprAs(values[i], t.elements()[i]));
    ok = ok && out->elements.back() != nullptr;
  }
  return ok ? out : nullptr;
}

ir::IntrinsicCall* FunctionLowering::intrinsic(sema::Intrinsic id, const ast::Call* c,
                                               const NumbaType& type, std::vector<ir::Expr*> args) {
  for (const ir::Expr* a : args)
    if (a == nullptr)
      return nullptr;
  auto* out = makeExpr<ir::IntrinsicCall>(c->range, type);
  out->intrinsic = id;
  out->args = std::move(args);
  return out;
}

std::vector<ir::Expr*> FunctionLowering::argumentsAs(const ast::Call* c,
                                                     const std::vector<ScalarKind>& kinds) {
  std::vector<ir::Expr*> args;
  for (size_t i = 0; i < c->args.size() && i < kinds.size(); ++i)
    args.push_back(exprAs(c->args[i], kinds[i]));
  return args;
}

ir::Expr* FunctionLowering::intrinsicCall(sema::Intrinsic id, const ast::Call* c) {
  const sema::IntrinsicInfo& info = sema::intrinsicInfo(id);
  const NumbaType* t = typeOf(c);
  // Only print has no type of its own (its string arguments have none); any other call typing
  // left without one cannot be lowered.
  if (t == nullptr && info.typing != IntrinsicTyping::Print) {
    unsupported(c->range, "this call here");
    return nullptr;
  }
  switch (sema::familyOf(info.typing)) {
  case sema::IntrinsicFamily::ThreadModel:
    return threadModelCall(info, c, *t);
  case sema::IntrinsicFamily::Memory:
    return arrayConstructor(info, c, t);
  case sema::IntrinsicFamily::Atomic:
  case sema::IntrinsicFamily::CacheHint: // (array, index, value...) as atomics take them
    return atomic(info, c, *t);
  case sema::IntrinsicFamily::Warp:
    return warpOperation(info, c, *t);
  case sema::IntrinsicFamily::IntegerAndFloat:
    return bitOrFloatIntrinsic(info, c, *t);
  case sema::IntrinsicFamily::Cmath:
    return cmathCall(info, c, *t);
  case sema::IntrinsicFamily::Vector:
    return vectorConstruction(info, c, *t);
  case sema::IntrinsicFamily::Libdevice:
    return libdeviceCall(info, c, *t);
  case sema::IntrinsicFamily::Ufunc:
    return ufuncCall(info, c, *t);
  default:
    break;
  }
  if (info.typing == IntrinsicTyping::Print)
    return print(c);
  if (info.typing == IntrinsicTyping::TupleCopy) { // tuple(t) is t (tuples are values)
    if (!c->args.empty())
      return expr(c->args[0]);
    return makeExpr<ir::MakeTuple>(c->range, *t);
  }
  if (info.typing == IntrinsicTyping::BufferPointer) // ffi.from_buffer(a): a's first item
    return arrayAddress(c->args[0], *t, c->range);
  if (info.typing == IntrinsicTyping::RealImag) { // numpy.real / numpy.imag
    ir::Expr* value = expr(c->args[0]);
    if (value == nullptr)
      return nullptr;
    auto* out = makeExpr<ir::ComplexPart>(c->range, *t);
    out->imaginary = id == sema::Intrinsic::NumpyImag;
    out->value = value;
    return out;
  }
  if (info.typing == IntrinsicTyping::Len)
    return intrinsic(id, c, *t, {expr(c->args[0])});
  if (info.typing == IntrinsicTyping::BuiltinSum) { // the iterable; the start in the sum's type
    std::vector<ir::Expr*> args{expr(c->args[0])};
    if (c->args.size() > 1)
      args.push_back(exprAs(c->args[1], *t));
    return intrinsic(id, c, *t, std::move(args));
  }
  return mathCall(info, c, *t); // math and the numeric builtins
}

// print(...): its str constants as text, its values (scalars, not complex; float16 as float64,
// as numba prints it).
ir::Expr* FunctionLowering::print(const ast::Call* c) {
  auto* out = makeExpr<ir::Print>(c->range, NumbaType::voidType());
  bool ok = true;
  for (size_t i = 0; i < c->args.size(); ++i) {
    const ast::Expr* a = c->args[i];
    if (i != 0)
      out->pieces.push_back({false, " "});
    if (const auto* k = a->as<ast::Constant>(); k && k->valueKind == ast::ConstantKind::Str) {
      out->pieces.push_back({false, k->strValue});
      continue;
    }
    const NumbaType at = argType(c, i);
    if (!at.isScalar() || types::isComplex(at.scalarKind())) {
      unsupported(a->range, "printing a value of type `" + at.str() + "`");
      return nullptr;
    }
    out->pieces.push_back({true, ""});
    out->values.push_back(at.scalarKind() == ScalarKind::Float16 ? exprAs(a, ScalarKind::Float64)
                                                                 : expr(a));
    ok = ok && out->values.back() != nullptr;
  }
  return ok ? out : nullptr;
}

} // namespace pyk::lower
