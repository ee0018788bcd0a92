// EmitCalls: calls as C++ — device functions (the callee typing chose), named-tuple construction,
// the methods numba has on values (`z.conjugate()`, `g.sync()`), casts to scalar types, print, and
// the dispatch of intrinsic calls, by their typing rule, to the family that emits them.
#include "codegen/UnitEmitter.h"

namespace pyk::codegen {

using sema::IntrinsicTyping;

std::string UnitEmitter::call(const ast::Call* c) {
  if (auto it = spec_->spreadCalls.find(c); it != spec_->spreadCalls.end()) {
    // f(*t): the call of t's elements (t[0], t[1], ...), each `*` value evaluated once, into a
    // lambda parameter its elements are read from.
    std::vector<std::pair<std::string, std::string>> spreads; // (parameter, value)
    for (const ast::Expr* a : c->args)
      if (const auto* starred = a->as<ast::Starred>()) {
        const std::string name = temp("spread");
        spreads.emplace_back(name, expr(starred->value));
        spreadValues_[starred->value] = name;
      }
    std::string out = call(it->second);
    for (const ast::Expr* a : c->args)
      if (const auto* starred = a->as<ast::Starred>())
        spreadValues_.erase(starred->value);
    for (auto s = spreads.rbegin(); s != spreads.rend(); ++s)
      out = "[&](const auto& " + s->first + ") { return " + out + "; }(" + s->second + ")";
    return out;
  }
  if (auto it = spec_->callees.find(c); it != spec_->callees.end()) {
    // Functions and type objects passed as arguments have no value at run time: the callee was
    // specialized for them, and nothing is passed.
    const Specialization* callee = it->second;
    std::vector<std::string> args;
    for (size_t i = 0; i < c->args.size(); ++i)
      if (!callee->params[i].isCompileTimeOnly())
        args.push_back(castTo(c->args[i], callee->params[i]));
    std::string out = mangledName(*callee) + "(" + contextArgumentList(!args.empty());
    for (size_t i = 0; i < args.size(); ++i)
      out += (i ? ", " : "") + args[i];
    return out + ")";
  }
  if (const auto* n = c->func->as<ast::Name>()) {
    auto it = spec_->function->scope.names.find(n);
    if (it != spec_->function->scope.names.end() &&
        it->second.kind == sema::NameBinding::Kind::ModuleConstant) {
      const sema::ConstantValue& v = definingModule().symbols.constants()[it->second.index].value;
      const NumbaType* t = typeOf(c);
      if (v.kind == sema::ConstantValue::Kind::NamedTupleClass && t != nullptr)
        return namedTupleConstruction(c, v, *t);
    }
  }
  if (const sema::Intrinsic id = spec_->intrinsicOf(c->func); id != sema::Intrinsic::None)
    return intrinsicCall(id, c);
  const std::string api = sema::qualifiedApiName(spec_->function->scope, c->func);
  if (api.empty()) {
    if (const auto* a = c->func->as<ast::Attribute>())
      return methodCall(a, c);
    // A variable holding a function or a type object: the intrinsic or the cast its type names
    // (a device function held so was a callee above).
    const NumbaType* callee = typeOf(c->func);
    const NumbaType* t = typeOf(c);
    if (callee != nullptr && callee->isFunction() && callee->intrinsic() != sema::Intrinsic::None)
      return intrinsicCall(callee->intrinsic(), c);
    if (callee != nullptr && callee->isTypeRef() && t != nullptr && c->args.size() == 1)
      return castTo(c->args[0], *t);
    unsupported(c->range, "this call");
    return "0";
  }
  const NumbaType* t = typeOf(c);
  if (t == nullptr) {
    unsupported(c->range, "this call here");
    return "0";
  }
  // A cast to a numba or numpy scalar type.
  if (sema::scalarTypeObject(spec_->function->scope, c->func) && t->isScalar() &&
      c->args.size() == 1)
    return castTo(c->args[0], *t);
  unsupported(c->range, "`" + api + "`");
  return "0";
}

std::string UnitEmitter::methodCall(const ast::Attribute* a, const ast::Call* c) {
  // `z.conjugate()` of a complex number.
  if (a->attr == "conjugate") {
    const NumbaType* z = typeOf(a->value);
    if (z != nullptr && isComplexType(*z))
      return "[&] { const auto w = " + expr(a->value) + "; return " + type(*z) +
             "(w.re, -w.im); }()";
  }
  // `a.view(T)`: numba raises ValueError where the view is impossible (an exception a kernel
  // only reports with debug=True); pyk stops the launch with numba's message instead of leaving
  // what the kernel would compute undefined.
  if (a->attr == "view") {
    const NumbaType* from = typeOf(a->value);
    const NumbaType* to = typeOf(c);
    if (from != nullptr && from->isArray() && to != nullptr && to->isArray()) {
      const std::string ok = temp("ok"), view = temp("view");
      return "[&] {\n    bool " + ok + " = true;\n    const auto " + view + " = pyk::view_as<" +
             elementCpp(*to) + ", pyk::Layout::" + sema::layoutName(to->layout()) + ">(" +
             expr(a->value) + ", " + ok + ");\n    if (!" + ok + ")\n      " +
             target_.trapWith(stopMessage(c, "ValueError: new type not compatible with array")) +
             "\n    return " + view + ";\n  }()";
    }
  }
  // `g.sync()` on a grid group (typing allows no other method call).
  if (a->attr == "sync") {
    const NumbaType* g = typeOf(a->value);
    bool direct = false;
    if (const auto* inner = a->value->as<ast::Call>())
      direct = spec_->intrinsicOf(inner->func) == sema::Intrinsic::ThisGrid;
    if (direct || (g != nullptr && g->kind() == NumbaType::Kind::GridGroup)) {
      usesGridSync_ = true;
      return target_.gridSync();
    }
  }
  unsupported(c->range, "this call");
  return "0";
}

// `Point(x, y=...)`: the fields in declaration order, each converted to its element type.
std::string UnitEmitter::namedTupleConstruction(const ast::Call* c, const sema::ConstantValue& cls,
                                                const NumbaType& t) {
  std::vector<std::string> fields = cls.fieldNames();
  std::vector<const ast::Expr*> values(fields.size(), nullptr);
  for (size_t i = 0; i < c->args.size() && i < values.size(); ++i)
    values[i] = c->args[i];
  for (const ast::Keyword& k : c->keywords)
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i] == k.arg)
        values[i] = k.value;
  std::vector<std::string> elements;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] == nullptr) {
      unsupported(c->range, "this named tuple construction");
      return "0";
    }
    elements.push_back(castTo(values[i], t.elements()[i]));
  }
  return tupleValue(t, elements);
}

std::string UnitEmitter::intrinsicCall(sema::Intrinsic id, const ast::Call* c) {
  const sema::IntrinsicInfo& info = sema::intrinsicInfo(id);
  const NumbaType* t = typeOf(c);
  // Only print has no type of its own (its string arguments have none); any other call typing
  // left without one cannot be generated.
  if (t == nullptr && info.typing != IntrinsicTyping::Print) {
    unsupported(c->range, "this call here");
    return "0";
  }
  switch (sema::familyOf(info.typing)) {
  case sema::IntrinsicFamily::ThreadModel:
    if (info.typing == IntrinsicTyping::GridIndex)
      return gridIndex(info, *t);
    if (info.typing == IntrinsicTyping::ThisGrid)
      return "pyk::GridGroup{}";
    return threadModelCall(info, c);
  case sema::IntrinsicFamily::Memory:
    return arrayConstructor(info, c, t);
  case sema::IntrinsicFamily::Atomic:
    return atomic(info, c, *t);
  case sema::IntrinsicFamily::Warp:
    return warpOperation(info, c, *t);
  case sema::IntrinsicFamily::IntegerAndFloat:
    return bitOrFloatIntrinsic(info, c, *t);
  case sema::IntrinsicFamily::Cmath:
    return cmathCall(info, c, *t);
  case sema::IntrinsicFamily::Vector:
    return vectorConstruction(c, *t);
  case sema::IntrinsicFamily::Libdevice:
    return libdeviceCall(info, c, *t);
  default:
    break;
  }
  if (info.typing == IntrinsicTyping::Print)
    return print(c);
  if (info.typing == IntrinsicTyping::RealImag)
    return realOrImag(expr(c->args[0]), argType(c, 0), id == sema::Intrinsic::NumpyImag);
  if (info.typing == IntrinsicTyping::Len) {
    const NumbaType a = argType(c, 0);
    if (a.isArray())
      return expr(c->args[0]) + ".shape[0]";
    return std::to_string(a.elements().size()) + "LL";
  }
  return mathCall(info, c, *t); // math and the numeric builtins
}

// printf with numba's formats: ints as %lld/%llu, floats as %f, booleans as True/False.
std::string UnitEmitter::print(const ast::Call* c) {
  std::string format, args;
  for (size_t i = 0; i < c->args.size(); ++i) {
    const ast::Expr* a = c->args[i];
    format += i ? " " : "";
    if (const auto* k = a->as<ast::Constant>(); k && k->valueKind == ast::ConstantKind::Str) {
      std::string escaped;
      for (char ch : k->strValue)
        escaped += ch == '%' ? std::string("%%") : std::string(1, ch);
      format += escaped;
      continue;
    }
    const NumbaType at = argType(c, i);
    if (!at.isScalar() || isComplexType(at)) {
      unsupported(a->range, "printing a value of type `" + at.str() + "`");
      return "0";
    }
    // float16 prints as numba prints it: converted to float64 (printimpl's real_print_impl).
    const bool half = at.scalarKind() == ScalarKind::Float16;
    format += at.scalarKind() == ScalarKind::Boolean   ? "%s"
              : isFloating(at) || half                 ? "%f"
              : sema::isSignedInteger(at.scalarKind()) ? "%lld"
                                                       : "%llu";
    args += ", pyk::print_arg(" + (half ? castScalar(a, ScalarKind::Float64) : expr(a)) + ")";
  }
  std::string literal;
  for (char ch : format + "\n") {
    if (ch == '"' || ch == '\\')
      literal += '\\';
    if (ch == '\n') {
      literal += "\\n";
      continue;
    }
    literal += ch;
  }
  return spelled(sema::Intrinsic::Print) + "(\"" + literal + "\"" + args + ")";
}

} // namespace pyk::codegen
