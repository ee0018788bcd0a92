// TypeInference: numba's type inference over one compiled function for given argument types.
//
// Python scoping is per function, and numba gives each variable one type: the unification of
// everything assigned to it. The typer (FunctionTyper.h) types the body repeatedly until the
// locals' types stop changing (loops can carry a type back to their start), with diagnostics held
// back; a last pass records every expression's type and reports what is wrong. This file holds
// that fixed point, the entry point and the unification rules; each family of constructs is typed
// in a file of its own.
#include "sema/typing/TypeInference.h"

#include <algorithm>

#include "sema/typing/FunctionTyper.h"
#include "sema/typing/TypeRules.h"

namespace pyk::sema {

namespace {

constexpr int kMaxPasses = 16;

} // namespace

std::string Specialization::describe() const {
  std::string out = function->name + "(";
  for (size_t i = 0; i < params.size(); ++i) {
    out += (i ? ", " : "") + params[i].spelling();
    if (i < literals.size() && literals[i])
      out += " = " + literals[i]->repr();
  }
  return out + ") -> " + returnType.str();
}

Specialization* SpecializationSet::find(const CompiledFunction* function,
                                        const std::vector<NumbaType>& params,
                                        const std::vector<std::optional<ConstantValue>>& literals) {
  for (auto& s : all_)
    if (s->function == function && s->params == params && s->literals == literals)
      return s.get();
  return nullptr;
}

Specialization* SpecializationSet::add(const CompiledFunction* function,
                                       std::vector<NumbaType> params,
                                       std::vector<std::optional<ConstantValue>> literals) {
  auto s = std::make_unique<Specialization>();
  s->function = function;
  s->params = std::move(params);
  s->literals = std::move(literals);
  s->localTypes.assign(function->scope.locals.size(), std::nullopt);
  s->versionTypes.assign(function->scope.versions.versions.size(), std::nullopt);
  all_.push_back(std::move(s));
  return all_.back().get();
}

std::string typeList(const std::vector<NumbaType>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i)
    out += (i ? ", " : "") + types[i].str();
  return out;
}

NumbaType tupleOf(std::vector<NumbaType> elements) {
  const bool uniform =
      !elements.empty() && std::all_of(elements.begin(), elements.end(),
                                       [&](const NumbaType& t) { return t == elements[0]; });
  return uniform ? NumbaType::uniTuple(elements[0], static_cast<int>(elements.size()))
                 : NumbaType::tuple(std::move(elements));
}

bool isIntegerType(const NumbaType& t) {
  return t.isScalar() && isInteger(t.scalarKind());
}

bool isIntegerOrBool(const NumbaType& t) {
  return t.isScalar() && (isInteger(t.scalarKind()) || t.scalarKind() == ScalarKind::Boolean);
}

namespace {
// Whether numba's Optional may hold a value of type `t` here: one with a value at run time.
bool optionalCanHold(const NumbaType& t) {
  return !t.isVoid() && !t.isOptional() && !t.isCompileTimeOnly() &&
         t.kind() != NumbaType::Kind::GridGroup;
}
} // namespace

OptType unify(const NumbaType& a, const NumbaType& b) {
  if (a == b)
    return a;
  // None and a value: numba's Optional of the value (its unify_pairs); an Optional and a value
  // or another Optional: the Optional of their values' unification.
  if (a.isVoid() || b.isVoid()) {
    const NumbaType& value = a.isVoid() ? b : a;
    if (value.isOptional())
      return value;
    return optionalCanHold(value) ? OptType(NumbaType::optional(value)) : std::nullopt;
  }
  if (a.isOptional() || b.isOptional()) {
    OptType value =
        unify(a.isOptional() ? a.optionalValue() : a, b.isOptional() ? b.optionalValue() : b);
    if (!value || !optionalCanHold(*value))
      return std::nullopt;
    return NumbaType::optional(*value);
  }
  if (a.isScalar() && b.isScalar()) {
    std::optional<ScalarKind> k = unifyScalars(a.scalarKind(), b.scalarKind());
    return k ? OptType(NumbaType::scalar(*k)) : std::nullopt;
  }
  if (a.isArray() && b.isArray() && a.elementType() == b.elementType() && a.ndim() == b.ndim())
    return a.withShape(a.ndim(), a.layout() == b.layout() ? a.layout() : ArrayLayout::A,
                       a.readonly() || b.readonly());
  if (a.isTuple() && b.isTuple() && a.elements().size() == b.elements().size()) {
    std::vector<NumbaType> elements;
    for (size_t i = 0; i < a.elements().size(); ++i) {
      OptType e = unify(a.elements()[i], b.elements()[i]);
      if (!e)
        return std::nullopt;
      elements.push_back(*e);
    }
    return tupleOf(std::move(elements));
  }
  return std::nullopt;
}

void FunctionTyper::typeBody() {
  // A read no assignment reaches (numba's UndefVar, which unifies with anything) has the type
  // the variable's other versions unify to, as far as they are typed.
  const LocalVersions& versions = fn_.scope.versions;
  for (size_t u = 0; u < versions.versions.size(); ++u) {
    if (versions.versions[u].kind != LocalVersion::Kind::Undefined)
      continue;
    OptType joined;
    for (size_t v = 0; v < versions.versions.size(); ++v) {
      const LocalVersion& other = versions.versions[v];
      if (v == u || other.variable != versions.versions[u].variable || !spec_.versionTypes[v] ||
          (other.kind == LocalVersion::Kind::Phi && !other.live))
        continue;
      OptType next = joined ? unify(*joined, *spec_.versionTypes[v]) : spec_.versionTypes[v];
      if (!next) {
        // Reported at the first read in the source (its reads would fail without a word).
        const ast::Name* first = nullptr;
        for (const auto& [name, version] : versions.ofName)
          if (version == u && name->ctx == ast::ExprContext::Load &&
              (first == nullptr || name->range.begin < first->range.begin))
            first = name;
        if (first != nullptr)
          error(DiagKind::TypeCannotUnify, first->range,
                {joined->str(), spec_.versionTypes[v]->str(), first->id});
        break;
      }
      joined = next;
    }
    if (joined && !(spec_.versionTypes[u] && *spec_.versionTypes[u] == *joined)) {
      spec_.versionTypes[u] = joined;
      changed_ = true;
    }
  }
  returnType_.reset();
  block(fn_.def->body);
  // A function whose end is reached returns None there (numba's implicit `return None`): with
  // values returned elsewhere, an Optional.
  if (fn_.kind != CompiledFunctionKind::Kernel && returnType_ && !returnType_->isVoid() &&
      fallsThrough(fn_.def->body))
    addReturn(NumbaType::voidType(), fn_.def->nameRange);
}

bool FunctionTyper::run() {
  const ast::FunctionDef* def = fn_.def;
  const LocalVersions& versions = fn_.scope.versions;
  // Each parameter's value on entry has the argument's type.
  for (size_t v = 0; v < versions.versions.size(); ++v)
    if (versions.versions[v].kind == LocalVersion::Kind::Entry &&
        versions.versions[v].variable < spec_.params.size())
      spec_.versionTypes[v] = spec_.params[versions.versions[v].variable];
  // Iterate to a fixed point of the versions' types, quietly.
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    changed_ = false;
    returnWidened_ = false;
    failed_ = false;
    typeBody();
    if (!changed_)
      break;
  }
  // Still widening after every pass: a recursion whose return type grows with each call
  // (`return (n, f(n - 1))`), which numba refuses ("does not converge").
  if (returnWidened_ && spec_.partialReturn) {
    std::string shown = spec_.partialReturn->str();
    if (shown.size() > 80)
      shown = shown.substr(0, 77) + "...";
    diags_.report(DiagKind::TypeRecursionDiverges, def->nameRange, {fn_.name, shown});
    spec_.complete = true;
    return false;
  }
  // The last pass: record and report.
  reporting_ = true;
  failed_ = false;
  typeBody();
  // Each local's type: the unification of its versions' (one C++ variable holds them when they
  // agree); a local assigned but never given a type, when nothing else failed (else it is an
  // echo of that).
  const size_t params = fn_.scope.params.size();
  std::vector<bool> assigned(spec_.localTypes.size(), false);
  std::vector<bool> unifiable(spec_.localTypes.size(), true);
  for (size_t v = 0; v < versions.versions.size(); ++v) {
    const VariableId var = versions.versions[v].variable;
    if (var < params)
      continue;
    const size_t local = var - params;
    assigned[local] = true;
    const OptType& t = spec_.versionTypes[v];
    if (!t || !unifiable[local])
      continue;
    std::optional<NumbaType>& slot = spec_.localTypes[local];
    if (!slot) {
      slot = *t;
    } else if (OptType u = unify(*slot, *t)) {
      slot = *u;
    } else {
      slot.reset();
      unifiable[local] = false;
    }
  }
  for (size_t i = 0; i < spec_.localTypes.size() && !failed_; ++i)
    if (assigned[i] && unifiable[i] && !spec_.localTypes[i])
      error(DiagKind::TypeUndetermined, def->nameRange, {fn_.scope.locals[i]});
  if (fn_.kind == CompiledFunctionKind::Kernel)
    spec_.returnType = NumbaType::voidType();
  else
    spec_.returnType = returnType_.value_or(NumbaType::voidType());
  spec_.complete = true;
  return !failed_;
}

const Specialization* specialize(const ResolvedModule& module, const CompiledFunction& function,
                                 const std::vector<NumbaType>& params, SpecializationSet& set,
                                 DiagnosticEngine& diags,
                                 const std::optional<NumbaType>& declaredReturn) {
  size_t arity = function.def->args.args.size() + function.def->args.posonlyargs.size();
  if (params.size() != arity) {
    diags.report(DiagKind::TypeSignatureArity, function.def->nameRange,
                 {std::to_string(params.size()), function.name, std::to_string(arity)});
    return nullptr;
  }
  if (Specialization* existing = set.find(&function, params))
    return existing->complete ? existing : nullptr;
  Specialization* spec = set.add(&function, params);
  const unsigned errorsBefore = diags.errorCount();
  SpecializationSet scratch;
  DiagnosticEngine quiet;
  FunctionTyper typer(module, *spec, set, scratch, diags, quiet, /*quietOnly=*/false, 0);
  bool ok = typer.run();
  if (ok && declaredReturn && function.kind != CompiledFunctionKind::Kernel)
    ok = adoptDeclaredReturn(*spec, *declaredReturn, function, diags);
  return ok && diags.errorCount() == errorsBefore ? spec : nullptr;
}

bool adoptDeclaredReturn(Specialization& spec, const NumbaType& declared,
                         const CompiledFunction& function, DiagnosticEngine& diags) {
  if (spec.returnType == declared)
    return true;
  // An Optional converts to its value's type as numba's optional_to_any does (None: numba raises,
  // which only debug=True checks on CUDA).
  // An IntEnum member converts as its integer value does (numba's IntEnumMember to Integer).
  NumbaType body = spec.returnType.isOptional() ? spec.returnType.optionalValue() : spec.returnType;
  if (body.isIntEnumMember())
    body = body.enumValue();
  const bool convertible =
      (body.isScalar() && declared.isScalar()) || (body.isVoid() && declared.isVoid());
  if (!convertible)
    diags.report(
        DiagKind::TypeCannotUnify, function.def->nameRange,
        {spec.returnType.str(), declared.str(), "the declared return type of " + function.name});
  spec.returnType = declared;
  return convertible;
}

} // namespace pyk::sema
