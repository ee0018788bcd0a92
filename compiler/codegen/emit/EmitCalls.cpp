// EmitCalls: calls as C++ — device functions (the callee's specialization), `f(*t)`, the methods
// numba has on values (`z.conjugate()`, `a.view(t)`, `g.sync()`), print, and the dispatch of
// intrinsic calls, by their typing rule, to the family that emits them.
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

using sema::IntrinsicTyping;

std::string UnitEmitter::visitCall(const ir::Call* c) {
  std::vector<std::string> args;
  for (const ir::Expr* a : c->args)
    args.push_back(expr(a));
  std::string out = mangledName(*c->callee) + "(" + contextArgumentList(!args.empty());
  for (size_t i = 0; i < args.size(); ++i)
    out += (i ? ", " : "") + args[i];
  return out + ")";
}

// f(*t): the call of t's elements (t[0], t[1], ...), each `*` value evaluated once, into a lambda
// parameter its elements are read from.
std::string UnitEmitter::visitSpreadCall(const ir::SpreadCall* s) {
  std::vector<std::pair<std::string, std::string>> spreads; // (parameter, value)
  for (size_t i = 0; i < s->spreads.size(); ++i) {
    const std::string name = temp("spread");
    spreads.emplace_back(name, expr(s->spreads[i]));
    bindings_[s->bindings[i]] = name;
  }
  std::string out = expr(s->call);
  for (int binding : s->bindings)
    bindings_.erase(binding);
  for (auto it = spreads.rbegin(); it != spreads.rend(); ++it)
    out = "[&](const auto& " + it->first + ") { return " + out + "; }(" + it->second + ")";
  return out;
}

std::string UnitEmitter::visitBound(const ir::Bound* b) {
  return bindings_.at(b->binding);
}

std::string UnitEmitter::visitMethodCall(const ir::MethodCall* m) {
  switch (m->method) {
  case sema::ValueMember::Conjugate: // `z.conjugate()` of a complex number
    return "[&] { const auto w = " + expr(m->object) + "; return " + type(m->type) +
           "(w.re, -w.im); }()";
  case sema::ValueMember::View: {
    // `a.view(T)`: numba raises ValueError where the view is impossible (an exception a kernel
    // only reports with debug=True); pyk stops the launch with numba's message instead of leaving
    // what the kernel would compute undefined.
    const std::string ok = temp("ok"), view = temp("view");
    return "[&] {\n    bool " + ok + " = true;\n    const auto " + view + " = pyk::view_as<" +
           elementCpp(m->type) + ", pyk::Layout::" + types::layoutName(m->type.layout()) + ">(" +
           expr(m->object) + ", " + ok + ");\n    if (!" + ok + ")\n      " +
           target_.trapWith(stopMessage(m, "ValueError: new type not compatible with array")) +
           "\n    return " + view + ";\n  }()";
  }
  case sema::ValueMember::Reshape: {
    // `a.reshape(shape)`: a view with the new shape (one -1 inferred); where the sizes differ numba
    // raises ValueError, which pyk turns into a stop of the launch with numba's message.
    const std::string ok = temp("ok"), view = temp("view"), shape = temp("shape");
    std::string dims, prelude;
    if (m->args.size() == 1 && m->args[0]->type.isTuple()) {
      const std::string tuple = temp("tuple");
      prelude = "const auto " + tuple + " = " + expr(m->args[0]) + ";\n    ";
      for (size_t i = 0; i < m->args[0]->type.elements().size(); ++i)
        dims += std::string(i ? ", " : "") + "static_cast<pyk::int64>(" +
                element(m->args[0]->type, tuple, i) + ")";
    } else {
      for (size_t i = 0; i < m->args.size(); ++i)
        dims += std::string(i ? ", " : "") + expr(m->args[i]);
    }
    return "[&] {\n    " + prelude + "const pyk::int64 " + shape + "[" +
           std::to_string(m->type.ndim()) + "] = {" + dims + "};\n    bool " + ok +
           " = true;\n    const auto " + view + " = pyk::reshape<" +
           std::to_string(m->type.ndim()) +
           ", pyk::Layout::" + types::layoutName(m->type.layout()) + ">(" + expr(m->object) + ", " +
           shape + ", " + ok + ");\n    if (!" + ok + ")\n      " +
           target_.trapWith(
               stopMessage(m, "ValueError: total size of new array must be unchanged")) +
           "\n    return " + view + ";\n  }()";
  }
  case sema::ValueMember::Sync: // `g.sync()` on a grid group
    usesGridSync_ = true;
    return target_.gridSync();
  default:
    unsupported(m->range, "this call");
    return "0";
  }
}

std::string UnitEmitter::visitIntrinsicCall(const ir::IntrinsicCall* c) {
  const sema::IntrinsicInfo& info = sema::intrinsicInfo(c->intrinsic);
  switch (sema::familyOf(info.typing)) {
  case sema::IntrinsicFamily::ThreadModel:
    if (info.typing == IntrinsicTyping::GridIndex)
      return gridIndex(c);
    if (info.typing == IntrinsicTyping::ThisGrid)
      return "pyk::GridGroup{}";
    return threadModelCall(c);
  case sema::IntrinsicFamily::Atomic:
  case sema::IntrinsicFamily::CacheHint: // the element's address, as an atomic's
    return atomic(c);
  case sema::IntrinsicFamily::Warp:
    return warpOperation(c);
  case sema::IntrinsicFamily::IntegerAndFloat:
    return bitOrFloatIntrinsic(c);
  case sema::IntrinsicFamily::Cmath:
    return cmathCall(c);
  case sema::IntrinsicFamily::Vector:
    return vectorConstruction(c);
  case sema::IntrinsicFamily::Libdevice:
    return libdeviceCall(c);
  case sema::IntrinsicFamily::Ufunc:
    return ufuncCall(c);
  default:
    break;
  }
  if (info.typing == IntrinsicTyping::Len) {
    const NumbaType& a = c->args[0]->type;
    if (a.isArray())
      return expr(c->args[0]) + ".shape[0]";
    return std::to_string(a.elements().size()) + "LL";
  }
  return mathCall(c); // math and the numeric builtins
}

// printf with numba's formats: ints as %lld/%llu, floats as %f, booleans as True/False.
std::string UnitEmitter::visitPrint(const ir::Print* p) {
  std::string format, args;
  size_t next = 0;
  for (const ir::PrintPiece& piece : p->pieces) {
    if (!piece.isValue) {
      for (char ch : piece.text)
        format += ch == '%' ? std::string("%%") : std::string(1, ch);
      continue;
    }
    const ir::Expr* value = p->values[next++];
    const NumbaType& at = value->type; // float16 printed as float64, as numba prints it
    format += at.scalarKind() == ScalarKind::Boolean    ? "%s"
              : isFloating(at)                          ? "%f"
              : types::isSignedInteger(at.scalarKind()) ? "%lld"
                                                        : "%llu";
    args += ", pyk::print_arg(" + expr(value) + ")";
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
