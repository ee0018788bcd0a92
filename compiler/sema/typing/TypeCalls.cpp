// TypeCalls: typing of calls — device functions of the module or of pyk's stdlib (specialized for
// the argument types, or for a declared signature), named-tuple construction, the methods numba
// has on values (`g.sync()`, `z.conjugate()`), casts to scalar types, and the dispatch of
// intrinsic calls to the family that types them.
#include <algorithm>

#include "sema/catalog/LibraryModule.h"
#include "sema/catalog/ValueMember.h"
#include "sema/fold/ConstantFolder.h"
#include "sema/fold/FunctionConstants.h"
#include "sema/resolve/SignatureParser.h"
#include "sema/typing/FunctionTyper.h"
#include "sema/typing/SignatureChoice.h"
#include "sema/typing/TypeInference.h"
#include "sema/typing/TypeRules.h"

namespace pyk::sema {

namespace {

constexpr int kMaxCallDepth = 64;

} // namespace

std::optional<std::vector<NumbaType>> FunctionTyper::arguments(const ast::Call* c,
                                                               bool keepOptionals) {
  std::vector<NumbaType> out;
  bool ok = true;
  for (const ast::Expr* a : c->args) {
    OptType t = keepOptionals ? optionalExpr(a) : expr(a);
    if (t)
      out.push_back(*t);
    else
      ok = false;
  }
  if (!ok)
    return std::nullopt;
  return out;
}

OptType FunctionTyper::badArguments(std::string_view function, const ast::Call* c,
                                    const std::vector<NumbaType>& args) {
  error(DiagKind::TypeBadArguments, c->range, {std::string(function), typeList(args)});
  return std::nullopt;
}

OptType FunctionTyper::visitCall(const ast::Call* c) {
  if (std::any_of(c->args.begin(), c->args.end(),
                  [](const ast::Expr* a) { return a->is<ast::Starred>(); }))
    return spreadCall(c);
  // A device function of this module, or a named tuple class?
  if (const auto* n = c->func->as<ast::Name>()) {
    auto it = fn_.scope.names.find(n);
    if (it != fn_.scope.names.end() && it->second.kind == NameBinding::Kind::CompiledFunction) {
      std::optional<std::vector<NumbaType>> args = arguments(c, /*keepOptionals=*/true);
      if (!args)
        return std::nullopt;
      return deviceCall(module_.functionOf(it->second), c, *args);
    }
    if (it != fn_.scope.names.end() && it->second.kind == NameBinding::Kind::ModuleConstant) {
      const ConstantValue& v = module_.symbols.constants()[it->second.index].value;
      if (v.kind == ConstantValue::Kind::NamedTupleClass)
        return namedTupleConstruction(c, v);
    }
  }
  // A function of CUDA C++ (`mul = cuda.declare_device('mul_f32_f32', sig, link=...)`).
  if (std::optional<ConstantValue> f = foreignFunctionOf(fn_.scope, module_.symbols, c->func))
    return foreignCall(c, *f);
  // A device function of an imported module of the user's (`helpers.clamp(x)`).
  if (const auto* a = c->func->as<ast::Attribute>())
    if (auto it = fn_.scope.moduleFunctions.find(a); it != fn_.scope.moduleFunctions.end()) {
      std::optional<std::vector<NumbaType>> args = arguments(c, /*keepOptionals=*/true);
      if (!args)
        return std::nullopt;
      return deviceCall(module_.functionOf(it->second), c, *args);
    }
  if (const Intrinsic id = intrinsicOf(c->func); id != Intrinsic::None)
    return intrinsicCall(id, c);
  const std::string api = apiName(c->func);
  if (api.empty()) {
    if (const auto* a = c->func->as<ast::Attribute>())
      return methodCall(a, c);
    // A variable holding a function or a type object (a parameter given `cuda.atomic.add`, a
    // device function or `float32`): the call is to what its type says.
    if (OptType callee = expr(c->func)) {
      if (callee->isFunction())
        return functionValueCall(*callee, c);
      if (callee->isTypeRef()) {
        std::optional<std::vector<NumbaType>> args = arguments(c);
        if (!args)
          return std::nullopt;
        return castCall(NumbaType::scalar(callee->scalarKind()), c, *args);
      }
      error(DiagKind::TypeNotCallable, c->func->range, {callee->str()});
      return std::nullopt;
    }
    failed_ = true; // resolution reported the callee, or its type is reported
    return std::nullopt;
  }
  std::optional<std::vector<NumbaType>> args = arguments(c);
  if (!args)
    return std::nullopt;
  // A scalar type object called: numba's cast (`float32(x)`, `np.int32(x)`).
  if (const std::optional<ScalarKind> target = scalarTypeObject(fn_.scope, c->func))
    return castCall(NumbaType::scalar(*target), c, *args);
  return badArguments(api, c, *args);
}

OptType FunctionTyper::functionValueCall(const NumbaType& callee, const ast::Call* c) {
  if (callee.intrinsic() != Intrinsic::None)
    return intrinsicCall(callee.intrinsic(), c);
  std::optional<std::vector<NumbaType>> args = arguments(c, /*keepOptionals=*/true);
  if (!args)
    return std::nullopt;
  return deviceCall(*callee.definition(), c, *args);
}

OptType FunctionTyper::spreadCall(const ast::Call* c) {
  auto* spread = spec_.spreadNodes.make<ast::Call>(c->range);
  spread->func = c->func;
  spread->keywords = c->keywords;
  for (ast::Expr* a : c->args) {
    const auto* starred = a->as<ast::Starred>();
    if (starred == nullptr) {
      spread->args.push_back(a);
      continue;
    }
    OptType t = expr(starred->value);
    if (!t)
      return std::nullopt;
    if (!t->isTuple()) {
      error(DiagKind::TypeSpreadNotTuple, a->range, {t->str()});
      return std::nullopt;
    }
    for (size_t i = 0; i < t->elements().size(); ++i) {
      auto* index = spec_.spreadNodes.make<ast::Constant>(a->range);
      index->valueKind = ast::ConstantKind::Int;
      index->intValue = static_cast<__int128>(i);
      auto* element = spec_.spreadNodes.make<ast::Subscript>(a->range);
      element->value = starred->value;
      element->slice = index;
      spread->args.push_back(element);
    }
  }
  spec_.spreadCalls[c] = spread;
  return expr(spread);
}

OptType FunctionTyper::methodCall(const ast::Attribute* a, const ast::Call* c) {
  // A method call on a value: a grid group's `.sync()` is the one numba has
  // (`cuda.cg.this_grid().sync()`, or `g = cuda.cg.this_grid()` then `g.sync()`).
  OptType group = expr(a->value);
  if (!group)
    return std::nullopt;
  const ValueMember method = methodNamed(a->attr);
  if (group->kind() == NumbaType::Kind::GridGroup && method == ValueMember::Sync) {
    if (!c->args.empty() || !c->keywords.empty()) {
      error(DiagKind::TypeArity, c->range,
            {"GridGroup.sync", "0", std::to_string(c->args.size() + c->keywords.size())});
      return std::nullopt;
    }
    return NumbaType::voidType();
  }
  // a.reshape(shape), a.reshape(n, m, ...): numba's view of a contiguous array with another shape
  // (the rank is the shape's length; C or F as the array is), refused for strided arrays.
  if (group->isArray() && method == ValueMember::Reshape) {
    std::optional<std::vector<NumbaType>> args = arguments(c);
    if (!args)
      return std::nullopt;
    if (group->layout() == ArrayLayout::A || group->isRecordArray()) {
      error(DiagKind::TypeNotSupported, a->attrRange,
            {"`reshape` of `" + group->str() +
             "` (numba reshapes C- or F-contiguous arrays only, and pyk not records yet)"});
      return std::nullopt;
    }
    int ndim = 0;
    bool ints = c->keywords.empty() && !args->empty();
    if (args->size() == 1 && (*args)[0].isTuple()) {
      for (const NumbaType& e : (*args)[0].elements())
        ints = ints && e.isScalar() && isInteger(e.scalarKind());
      ndim = static_cast<int>((*args)[0].elements().size());
    } else {
      for (const NumbaType& e : *args)
        ints = ints && e.isScalar() && isInteger(e.scalarKind());
      ndim = static_cast<int>(args->size());
    }
    if (!ints || ndim == 0)
      return badArguments("array.reshape", c, *args);
    return group->withShape(ndim, group->layout(), group->readonly());
  }
  // a.view(dtype): the same bytes as another scalar type; same rank and layout (numba's
  // array.view).
  if (group->isArray() && method == ValueMember::View) {
    if (c->args.size() != 1 || !c->keywords.empty()) {
      error(DiagKind::TypeArity, c->range,
            {"array.view", "1", std::to_string(c->args.size() + c->keywords.size())});
      return std::nullopt;
    }
    OptType to = dtype(c->args[0]);
    if (!to)
      return std::nullopt;
    if (!to->isScalar() || group->isRecordArray() || to->scalarKind() == ScalarKind::Float16) {
      error(DiagKind::TypeNotSupported, c->range,
            {"a view of `" + group->str() + "` as `" + to->str() + "`"});
      return std::nullopt;
    }
    return NumbaType::array(to->scalarKind(), group->ndim(), group->layout(), group->readonly());
  }
  // i.bit_count() of an integer: numba-cuda's overload is cuda.popc(i), typed as popc is.
  if (group->isScalar() && isInteger(group->scalarKind()) && method == ValueMember::BitCount) {
    if (!c->args.empty() || !c->keywords.empty()) {
      error(DiagKind::TypeArity, c->range,
            {"int.bit_count", "0", std::to_string(c->args.size() + c->keywords.size())});
      return std::nullopt;
    }
    const ScalarKind kinds[] = {group->scalarKind()};
    if (OptType popc = callResultType(Intrinsic::Popc, kinds))
      return popc;
    return badArguments("int.bit_count", c, {*group});
  }
  // z.conjugate() of a complex number (numba's only method on numbers that kernels use).
  if (group->isScalar() && isComplex(group->scalarKind()) && method == ValueMember::Conjugate) {
    if (!c->args.empty() || !c->keywords.empty()) {
      error(DiagKind::TypeArity, c->range,
            {"conjugate", "0", std::to_string(c->args.size() + c->keywords.size())});
      return std::nullopt;
    }
    return *group;
  }
  error(DiagKind::TypeUnknownAttribute, a->attrRange, {group->str(), a->attr});
  return std::nullopt;
}

OptType FunctionTyper::castCall(const NumbaType& target, const ast::Call* c,
                                const std::vector<NumbaType>& args) {
  // numba's NumberClass call of a datetime64 or timedelta64: its count, as a 64-bit integer
  // (numba types float64 too, then has no lowering for it).
  if (args.size() == 1 && args[0].isDatetimeLike() && target.isScalar() &&
      isInteger(target.scalarKind()) && bitWidth(target.scalarKind()) == 64)
    return target;
  if (args.size() != 1 || !computedAs(args[0]).isScalar())
    return badArguments(apiName(c->func), c, args);
  return target;
}

OptType FunctionTyper::intrinsicCall(Intrinsic id, const ast::Call* c) {
  const IntrinsicInfo& info = intrinsicInfo(id);
  // Calls whose arguments are not all values: shapes, dtypes, constant arrays, ranks.
  if (familyOf(info.typing) == IntrinsicFamily::Memory)
    return arrayConstructor(info, c);
  if (info.typing == IntrinsicTyping::GridIndex)
    return gridIndex(info, c);
  if (info.typing == IntrinsicTyping::ThisGrid)
    return thisGrid(info, c);
  std::optional<std::vector<NumbaType>> args = arguments(c);
  if (!args)
    return std::nullopt;
  switch (familyOf(info.typing)) {
  case IntrinsicFamily::Library:
    // A device function of pyk's stdlib (`xoroshiro128p_uniform_float32`, `cuda.random.*`).
    if (const CompiledFunction* library = libraryFunction(info.name))
      return deviceCall(*library, c, *args);
    return badArguments(info.name, c, *args);
  case IntrinsicFamily::ThreadModel:
    return threadModelCall(info, c, *args);
  case IntrinsicFamily::Atomic:
    return atomic(info, c, *args);
  case IntrinsicFamily::CacheHint:
    return cacheHint(info, c, *args);
  case IntrinsicFamily::Warp:
    return warpOperation(info, c, *args);
  case IntrinsicFamily::Cmath:
    return cmathCall(info, c, *args);
  case IntrinsicFamily::Vector:
    return vectorConstruction(info, c, *args);
  case IntrinsicFamily::Ufunc:
    return ufuncCall(info, c, *args);
  case IntrinsicFamily::NotYetTyped:
    if (moduleOf(info.id) == IntrinsicModule::Numpy) {
      error(DiagKind::TypeNumpyNotYet, c->range, {std::string(info.name)});
      return std::nullopt;
    }
    return mathCall(info, c, *args);
  default: // math, the builtins, the integer and float intrinsics; the rest is rejected there
    return mathCall(info, c, *args);
  }
}

// `Point(x, y=...)`: every field given once, by position or by name.
OptType FunctionTyper::foreignCall(const ast::Call* c, const ConstantValue& declared) {
  const ConstantValue::ForeignFunction f = declared.foreignFunction();
  const std::string name = c->func->is<ast::Name>() ? c->func->as<ast::Name>()->id : f.symbol;
  DiagnosticEngine quiet;
  const std::optional<FunctionSignature> sig =
      parseSignature(f.signature, StringLiteralLocation(c->range, f.signature), quiet);
  if (!sig || !sig->returnType) {
    std::string why = "it has no return type";
    if (!sig && !quiet.diagnostics().empty())
      why = quiet.diagnostics().front().message;
    error(DiagKind::TypeForeignSignature, c->func->range, {f.symbol, f.signature, why});
    return std::nullopt;
  }
  for (const NumbaType& p : sig->params)
    if (!p.isScalar() && !p.isPointer()) {
      error(DiagKind::TypeForeignUnsupported, c->func->range,
            {name, f.symbol,
             "a parameter of type `" + p.str() + "` (numbers and CPointers are passed)"});
      return std::nullopt;
    }
  if (!sig->returnType->isScalar() && !sig->returnType->isVoid()) {
    error(DiagKind::TypeForeignUnsupported, c->func->range,
          {name, f.symbol, "a result of type `" + sig->returnType->str() + "`"});
    return std::nullopt;
  }
  std::optional<std::vector<NumbaType>> args = arguments(c);
  if (!args)
    return std::nullopt;
  if (!c->keywords.empty() ||
      !chooseSignature(std::span<const FunctionSignature>(&*sig, 1), *args)) {
    error(DiagKind::TypeForeignArguments, c->range, {name, f.symbol, typeList(*args)});
    return std::nullopt;
  }
  spec_.foreignCalls[c] = ForeignCallee{f.symbol, *sig, f.abi == "c", f.sources};
  return *sig->returnType;
}

OptType FunctionTyper::namedTupleConstruction(const ast::Call* c, const ConstantValue& cls) {
  std::vector<std::string> fields = cls.fieldNames();
  std::vector<OptType> elements(fields.size());
  std::vector<bool> given(fields.size(), false);
  bool ok = true;
  auto fail = [&](SourceRange r, const std::string& what) {
    error(DiagKind::TypeNamedTupleArguments, r, {cls.strValue, what});
    ok = false;
  };
  for (size_t i = 0; i < c->args.size(); ++i) {
    OptType t = expr(c->args[i]);
    if (i >= fields.size()) {
      fail(c->args[i]->range, "takes " + std::to_string(fields.size()) + " field(s), " +
                                  std::to_string(c->args.size()) + " positional argument(s) given");
      break;
    }
    elements[i] = t;
    given[i] = true;
    ok = ok && t.has_value();
  }
  for (const ast::Keyword& k : c->keywords) {
    OptType t = expr(k.value);
    size_t f = static_cast<size_t>(std::find(fields.begin(), fields.end(), k.arg) - fields.begin());
    if (k.arg.empty() || f == fields.size()) {
      fail(k.range, "has no field `" + k.arg + "`");
    } else if (given[f]) {
      fail(k.range, "got field `" + k.arg + "` twice");
    } else {
      elements[f] = t;
      given[f] = true;
      ok = ok && t.has_value();
    }
  }
  for (size_t i = 0; ok && i < fields.size(); ++i)
    if (!given[i])
      fail(c->range, "is missing field `" + fields[i] + "`");
  if (!ok)
    return std::nullopt;
  std::vector<NumbaType> types;
  for (const OptType& t : elements)
    types.push_back(*t);
  return NumbaType::namedTuple(std::move(types), cls.strValue, std::move(fields));
}

OptType FunctionTyper::deviceCall(const CompiledFunction& callee, const ast::Call* c,
                                  const std::vector<NumbaType>& args) {
  if (callee.kind == CompiledFunctionKind::Kernel) {
    failed_ = true; // resolution reported it
    return std::nullopt;
  }
  if (std::optional<OptType> bound = boundDeviceCall(callee, c))
    return *bound;
  const ast::Arguments& parameters = callee.def->args;
  size_t arity = parameters.args.size() + parameters.posonlyargs.size() +
                 (parameters.vararg ? 1 : 0) + parameters.kwonlyargs.size();
  if (args.size() != arity || !c->keywords.empty()) {
    error(DiagKind::TypeArity, c->range,
          {callee.name, std::to_string(arity), std::to_string(args.size() + c->keywords.size())});
    return std::nullopt;
  }
  // With declared signatures, numba picks the one the arguments need the fewest conversions for
  // and converts them; otherwise it specializes for the argument types as they are.
  std::vector<NumbaType> params = args;
  std::optional<NumbaType> declaredReturn;
  // numba's literal types: where the callee's body needs a parameter as a constant (a shared
  // array's shape), a constant argument specializes the callee for its value.
  std::vector<std::optional<ConstantValue>> literals;
  {
    const std::vector<bool> needs = parametersNeedingConstants(callee);
    DiagnosticEngine quiet;
    ConstantFolder folder(module_.symbols, quiet);
    folder.setLocalNames(functionLocalNames(spec_, folder));
    for (size_t i = 0; i < needs.size() && i < c->args.size(); ++i) {
      if (!needs[i])
        continue;
      FoldResult r = folder.fold(c->args[i]);
      if (r.isConstant()) {
        literals.resize(needs.size());
        literals[i] = r.value();
      }
    }
  }
  if (!callee.signatures.empty()) {
    // numba's overload resolution: the signature the arguments convert to at the least cost (an
    // exact match first), converted to its parameters.
    const std::optional<size_t> chosen = chooseSignature(callee.signatures, args);
    if (!chosen)
      return badArguments(callee.name, c, args);
    params = callee.signatures[*chosen].params;
    declaredReturn = callee.signatures[*chosen].returnType;
  }
  const bool real = reporting_ && !quietOnly_;
  SpecializationSet& set = real ? set_ : scratch_;
  // Still being typed for real further up the call stack: a recursive call (which wins over a
  // quiet pass's finished copy, typed before the recursion's types were known).
  Specialization* s = set_.find(&callee, params, literals);
  if (s == nullptr || s->complete)
    s = set.find(&callee, params, literals);
  if (s == nullptr) {
    if (depth_ >= kMaxCallDepth) {
      error(DiagKind::TypeNotSupported, c->range, {"calls nested this deeply"});
      return std::nullopt;
    }
    s = set.add(&callee, params, literals);
    // The callee reports its own errors, once, in its own last pass. A stdlib function's body is
    // not the user's to fix: what fails in it is reported here, as arguments it does not accept.
    // A module of the user's (`from helpers import clamp`) reports into its own file.
    const bool intoLibrary =
        callee.library != nullptr && callee.library != fn_.library && !callee.library->user;
    DiagnosticEngine libraryDiags;
    std::optional<DiagnosticEngine::FileScope> inModule;
    if (callee.library != nullptr && callee.library->user && callee.library != fn_.library)
      inModule.emplace(realDiags_, &callee.library->file);
    FunctionTyper typer(callee.library ? callee.library->resolved : module_, *s, set_, scratch_,
                        intoLibrary ? libraryDiags : realDiags_, quiet_, !real, depth_ + 1);
    if (!typer.run()) {
      failed_ = true;
      if (intoLibrary)
        return badArguments(callee.library->qualifiedName + "." + callee.name, c, args);
      return std::nullopt; // the callee reported why; its result type would only add echoes
    }
    // A declared signature's return type is the specialization's (numba converts what the
    // body returns to it), as when the function is compiled for that signature alone.
    DiagnosticEngine& returnDiags = real ? realDiags_ : quiet_;
    if (declaredReturn && !adoptDeclaredReturn(*s, *declaredReturn, callee, returnDiags)) {
      failed_ = true;
      return std::nullopt;
    }
  } else if (!s->complete) {
    // A recursive call: its declared return type, else (as numba infers simple recursion) the
    // type the function's other returns give so far; a later pass sees it widened.
    OptType result = declaredReturn ? declaredReturn : s->partialReturn;
    if (!result) {
      if (reporting_)
        error(DiagKind::TypeRecursionNeedsSignature, c->range, {callee.name});
      failed_ = true;
      return std::nullopt;
    }
    if (reporting_)
      spec_.callees[c] = s;
    return result;
  }
  if (reporting_)
    spec_.callees[c] = s;
  return declaredReturn ? declaredReturn : OptType(s->returnType);
}

} // namespace pyk::sema
