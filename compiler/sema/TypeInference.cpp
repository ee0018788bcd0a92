// TypeInference: numba's type inference over one compiled function for given argument types.
//
// Python scoping is per function, and numba gives each variable one type: the unification of
// everything assigned to it. The walker types the body repeatedly until the locals' types stop
// changing (loops can carry a type back to their start), with diagnostics held back; a last
// pass records every expression's type and reports what is wrong.
#include "sema/TypeInference.h"

#include <algorithm>
#include <functional>
#include <span>

#include "sema/ConstantFolder.h"
#include "sema/LibraryModule.h"
#include "sema/TypeRules.h"

namespace pyk::sema {

std::string Specialization::describe() const {
  std::string out = function->name + "(";
  for (size_t i = 0; i < params.size(); ++i)
    out += (i ? ", " : "") + params[i].spelling();
  return out + ") -> " + returnType.str();
}

Specialization* SpecializationSet::find(const CompiledFunction* function,
                                        const std::vector<NumbaType>& params) {
  for (auto& s : all_)
    if (s->function == function && s->params == params)
      return s.get();
  return nullptr;
}

Specialization* SpecializationSet::add(const CompiledFunction* function,
                                       std::vector<NumbaType> params) {
  auto s = std::make_unique<Specialization>();
  s->function = function;
  s->params = std::move(params);
  s->localTypes.assign(function->scope.locals.size(), std::nullopt);
  all_.push_back(std::move(s));
  return all_.back().get();
}

namespace {

using Type = NumbaType;
using OptType = std::optional<NumbaType>;

constexpr int kMaxPasses = 16;
constexpr int kMaxCallDepth = 64;

std::string typeList(const std::vector<Type>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i)
    out += (i ? ", " : "") + types[i].str();
  return out;
}

bool isIntegerType(const Type& t) {
  return t.isScalar() && isInteger(t.scalarKind());
}
bool isIntegerOrBool(const Type& t) {
  return t.isScalar() && (isInteger(t.scalarKind()) || t.scalarKind() == ScalarKind::Boolean);
}

// The type numba gives a folded module constant used in a kernel.
OptType typeOfConstant(const ConstantValue& v) {
  switch (v.kind) {
  case ConstantValue::Kind::Bool:
  case ConstantValue::Kind::Int:
  case ConstantValue::Kind::Float:
  case ConstantValue::Kind::Complex:
    return Type::scalar(v.scalar);
  case ConstantValue::Kind::None:
    return Type::voidType();
  case ConstantValue::Kind::Tuple: {
    std::vector<Type> elements;
    for (const ConstantValue& e : v.elements) {
      OptType t = typeOfConstant(e);
      if (!t)
        return std::nullopt;
      elements.push_back(*t);
    }
    bool uniform =
        !elements.empty() && std::all_of(elements.begin(), elements.end(),
                                         [&](const Type& t) { return t == elements[0]; });
    return uniform ? Type::uniTuple(elements[0], static_cast<int>(elements.size()))
                   : Type::tuple(std::move(elements));
  }
  case ConstantValue::Kind::Array:
    return Type::array(v.array->dtype, static_cast<int>(v.array->shape.size()), ArrayLayout::C,
                       /*readonly=*/true);
  default:
    return std::nullopt; // strings and type objects are not values in a kernel
  }
}

// numba's unification of two types assigned to one variable.
OptType unify(const Type& a, const Type& b) {
  if (a == b)
    return a;
  if (a.isScalar() && b.isScalar()) {
    std::optional<ScalarKind> k = unifyScalars(a.scalarKind(), b.scalarKind());
    return k ? OptType(Type::scalar(*k)) : std::nullopt;
  }
  if (a.isArray() && b.isArray() && a.elementType() == b.elementType() && a.ndim() == b.ndim())
    return a.withShape(a.ndim(), a.layout() == b.layout() ? a.layout() : ArrayLayout::A,
                       a.readonly() || b.readonly());
  if (a.isTuple() && b.isTuple() && a.elements().size() == b.elements().size()) {
    std::vector<Type> elements;
    for (size_t i = 0; i < a.elements().size(); ++i) {
      OptType e = unify(a.elements()[i], b.elements()[i]);
      if (!e)
        return std::nullopt;
      elements.push_back(*e);
    }
    bool uniform = std::all_of(elements.begin(), elements.end(),
                               [&](const Type& t) { return t == elements[0]; });
    return uniform && !elements.empty()
               ? Type::uniTuple(elements[0], static_cast<int>(elements.size()))
               : Type::tuple(std::move(elements));
  }
  return std::nullopt;
}

class FunctionTyper {
public:
  // `set` receives the real specializations; `scratch` and `quiet` (shared by one whole typing
  // run) serve the quiet fixed-point passes, whose callees' types may still change. A typer
  // made for such a pass is `quietOnly`: it reports nothing and adds nothing to `set`.
  FunctionTyper(const ResolvedModule& module, Specialization& spec, SpecializationSet& set,
                SpecializationSet& scratch, DiagnosticEngine& diags, DiagnosticEngine& quiet,
                bool quietOnly, int depth)
      : module_(module), fn_(*spec.function), spec_(spec), set_(set), scratch_(scratch),
        diags_(quietOnly ? quiet : diags), realDiags_(diags), quiet_(quiet), quietOnly_(quietOnly),
        depth_(depth) {}

  bool run();

private:
  // ---- reporting: only in the last pass, so fixed-point iterations stay quiet ----
  void error(DiagKind kind, SourceRange range, std::vector<std::string> args = {}) {
    if (reporting_)
      diags_.report(kind, range, args);
    failed_ = true;
  }
  OptType record(const ast::Expr* e, OptType t) {
    if (t && reporting_)
      spec_.exprTypes[e] = *t;
    return t;
  }

  // ---- statements ----
  void block(const std::vector<ast::Stmt*>& body);
  void statement(const ast::Stmt* s);
  void assign(const ast::Expr* target, const Type& value, const ast::Expr* valueNode);
  void assignLocal(const ast::Name* name, const Type& value);
  void forLoop(const ast::For* loop);
  void condition(const ast::Expr* test);

  // ---- expressions ----
  OptType expr(const ast::Expr* e);
  OptType name(const ast::Name* n);
  OptType attribute(const ast::Attribute* a);
  OptType namedTupleConstruction(const ast::Call* c, const ConstantValue& cls);
  OptType recordField(const Type& record, const std::string& name, SourceRange at);
  OptType subscript(const ast::Subscript* s);
  OptType binary(const ast::BinOp* b);
  OptType unary(const ast::UnaryOp* u);
  OptType compare(const ast::Compare* c);
  OptType call(const ast::Call* c);
  OptType apiCall(const std::string& api, const ast::Call* c, const std::vector<Type>& args);
  OptType deviceCall(const CompiledFunction& callee, const ast::Call* c,
                     const std::vector<Type>& args);
  OptType arrayConstructor(const std::string& api, const ast::Call* c);
  std::optional<std::vector<Type>> arguments(const ast::Call* c);
  std::optional<ConstantValue> constant(const ast::Expr* e, const char* what);
  std::optional<ScalarKind> dtype(const ast::Expr* e);
  // The qualified name of an API reference (`numba.cuda.grid`), or "" when `e` is not one.
  std::string apiName(const ast::Expr* e) const;

  const ResolvedModule& module_;
  const CompiledFunction& fn_;
  Specialization& spec_;
  SpecializationSet& set_;
  SpecializationSet& scratch_;
  DiagnosticEngine& diags_;
  DiagnosticEngine& realDiags_;
  DiagnosticEngine& quiet_;
  bool quietOnly_;
  int depth_;
  bool reporting_ = false;
  bool changed_ = false;
  bool failed_ = false;
  std::optional<Type> returnType_;
};

bool FunctionTyper::run() {
  const ast::FunctionDef* def = fn_.def;
  // Iterate to a fixed point of the locals' types, quietly.
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    changed_ = false;
    failed_ = false;
    returnType_.reset();
    block(def->body);
    if (!changed_)
      break;
  }
  // The last pass: record and report.
  reporting_ = true;
  failed_ = false;
  returnType_.reset();
  block(def->body);
  // A local with no type at all, when nothing else failed (else it is an echo of that).
  for (size_t i = 0; i < spec_.localTypes.size() && !failed_; ++i)
    if (!spec_.localTypes[i])
      error(DiagKind::TypeUndetermined, def->nameRange, {fn_.scope.locals[i]});
  if (fn_.kind == CompiledFunctionKind::Kernel)
    spec_.returnType = Type::voidType();
  else
    spec_.returnType = returnType_.value_or(Type::voidType());
  spec_.complete = true;
  return !failed_;
}

// ---- statements ---------------------------------------------------------------------------

void FunctionTyper::block(const std::vector<ast::Stmt*>& body) {
  for (const ast::Stmt* s : body)
    statement(s);
}

void FunctionTyper::condition(const ast::Expr* test) {
  OptType t = expr(test);
  if (t && !t->isScalar() && !t->isTuple())
    error(DiagKind::TypeNotACondition, test->range, {t->str()});
}

void FunctionTyper::statement(const ast::Stmt* s) {
  switch (s->kind) {
  case ast::NodeKind::ExprStmt:
    expr(s->as<ast::ExprStmt>()->value);
    return;
  case ast::NodeKind::Assign: {
    const auto* a = s->as<ast::Assign>();
    OptType value = expr(a->value);
    if (!value)
      return;
    for (const ast::Expr* target : a->targets)
      assign(target, *value, a->value);
    return;
  }
  case ast::NodeKind::AugAssign: {
    const auto* a = s->as<ast::AugAssign>();
    // `t op= v` types as `t = t op v`, through a BinOp made on the fly (which evaluates the
    // target as a load and the value once each).
    ast::BinOp op;
    op.left = a->target;
    op.op = a->op;
    op.right = a->value;
    op.range = s->range;
    OptType result = binary(&op);
    if (!result)
      return;
    if (const auto* n = a->target->as<ast::Name>()) {
      assignLocal(n, *result);
    } else if (const auto* sub = a->target->as<ast::Subscript>()) {
      const Type* container = nullptr;
      if (auto it = spec_.exprTypes.find(sub->value); it != spec_.exprTypes.end())
        container = &it->second;
      OptType base = container != nullptr ? OptType(*container) : expr(sub->value);
      if (base && base->isArray() && base->readonly())
        error(DiagKind::TypeWriteReadonly, a->target->range, {base->str()});
      else if (!result->isScalar())
        error(DiagKind::TypeAssignToElement, a->value->range,
              {result->str(), base ? base->str() : "?"});
    } else if (const auto* at = a->target->as<ast::Attribute>();
               at != nullptr && expr(at->value).value_or(Type()).isRecord()) {
      if (!result->isScalar())
        error(DiagKind::TypeAssignToElement, a->value->range, {result->str(), "a record field"});
    } else {
      error(DiagKind::TypeNotSupported, a->target->range, {"augmented assignment to this target"});
    }
    return;
  }
  case ast::NodeKind::AnnAssign: {
    const auto* a = s->as<ast::AnnAssign>();
    if (a->value == nullptr)
      return;
    if (OptType value = expr(a->value))
      assign(a->target, *value, a->value);
    return;
  }
  case ast::NodeKind::If: {
    const auto* i = s->as<ast::If>();
    condition(i->test);
    block(i->body);
    block(i->orelse);
    return;
  }
  case ast::NodeKind::While: {
    const auto* w = s->as<ast::While>();
    condition(w->test);
    block(w->body);
    block(w->orelse);
    return;
  }
  case ast::NodeKind::For:
    forLoop(s->as<ast::For>());
    return;
  case ast::NodeKind::Return: {
    const auto* r = s->as<ast::Return>();
    Type value = Type::voidType();
    if (r->value != nullptr) {
      OptType t = expr(r->value);
      if (!t)
        return;
      value = *t;
    }
    if (!returnType_) {
      returnType_ = value;
    } else if (OptType u = unify(*returnType_, value)) {
      returnType_ = *u;
    } else {
      error(DiagKind::TypeCannotUnify, s->range,
            {returnType_->str(), value.str(), "the return value of " + fn_.name});
    }
    return;
  }
  case ast::NodeKind::Assert: {
    const auto* a = s->as<ast::Assert>();
    condition(a->test);
    return;
  }
  case ast::NodeKind::Raise:
  case ast::NodeKind::Pass:
  case ast::NodeKind::Break:
  case ast::NodeKind::Continue:
    return;
  default:
    // Resolution has already reported every other statement as unsupported in a kernel.
    return;
  }
}

void FunctionTyper::assignLocal(const ast::Name* n, const Type& value) {
  auto it = fn_.scope.names.find(n);
  if (it == fn_.scope.names.end() || it->second.kind != NameBinding::Kind::Local) {
    error(DiagKind::TypeNotSupported, n->range, {"assigning to `" + n->id + "`"});
    return;
  }
  std::optional<Type>& slot = spec_.localTypes[it->second.index];
  if (!slot) {
    slot = value;
    changed_ = true;
  } else if (OptType u = unify(*slot, value)) {
    if (!(*u == *slot)) {
      slot = *u;
      changed_ = true;
    }
  } else {
    error(DiagKind::TypeCannotUnify, n->range, {slot->str(), value.str(), n->id});
  }
  record(n, slot);
}

void FunctionTyper::assign(const ast::Expr* target, const Type& value, const ast::Expr* valueNode) {
  switch (target->kind) {
  case ast::NodeKind::Name:
    assignLocal(target->as<ast::Name>(), value);
    return;
  case ast::NodeKind::Tuple:
  case ast::NodeKind::List: {
    const auto& elts =
        target->is<ast::Tuple>() ? target->as<ast::Tuple>()->elts : target->as<ast::List>()->elts;
    if (!value.isTuple()) {
      error(DiagKind::TypeUnpackCount, target->range, {value.str(), std::to_string(elts.size())});
      return;
    }
    if (value.elements().size() != elts.size()) {
      error(DiagKind::TypeUnpackCount, target->range, {value.str(), std::to_string(elts.size())});
      return;
    }
    for (size_t i = 0; i < elts.size(); ++i)
      assign(elts[i], value.elements()[i], nullptr);
    return;
  }
  case ast::NodeKind::Subscript: {
    const auto* s = target->as<ast::Subscript>();
    OptType container = expr(s->value);
    if (!container)
      return;
    if (container->isArray() && container->readonly()) {
      error(DiagKind::TypeWriteReadonly, target->range, {container->str()});
      return;
    }
    OptType element = subscript(s);
    if (!element)
      return;
    if (container->isRecord()) {
      record(target, *element);
      if (!value.isScalar())
        error(DiagKind::TypeAssignToElement,
              valueNode != nullptr ? valueNode->range : target->range,
              {value.str(), element->str()});
      return;
    }
    if (!element->isScalar()) {
      error(DiagKind::TypeNotSupported, target->range, {"assigning to an array slice"});
      return;
    }
    if (!value.isScalar())
      error(DiagKind::TypeAssignToElement, valueNode != nullptr ? valueNode->range : target->range,
            {value.str(), container->str()});
    return;
  }
  case ast::NodeKind::Attribute: {
    // A record's field (`r.x = v`, `a[i].x = v`): the value converts to the field's type.
    const auto* a = target->as<ast::Attribute>();
    OptType base = expr(a->value);
    if (!base)
      return;
    if (!base->isRecord()) {
      error(DiagKind::TypeNotSupported, target->range, {"assigning to an attribute"});
      return;
    }
    OptType field = attribute(a);
    if (!field)
      return;
    record(target, *field);
    if (!value.isScalar())
      error(DiagKind::TypeAssignToElement, valueNode != nullptr ? valueNode->range : target->range,
            {value.str(), field->str()});
    return;
  }
  default:
    error(DiagKind::TypeNotSupported, target->range, {"this assignment target"});
  }
}

void FunctionTyper::forLoop(const ast::For* loop) {
  const ast::Expr* iter = loop->iter;
  std::optional<Type> element;
  if (const auto* c = iter->as<ast::Call>(); c != nullptr && c->func->is<ast::Name>()) {
    std::string callee = apiName(c->func);
    if (callee == "range") {
      std::optional<std::vector<Type>> args = arguments(c);
      if (!args)
        return;
      if (args->empty() || args->size() > 3) {
        error(DiagKind::TypeArity, c->range, {"range", "1 to 3", std::to_string(args->size())});
        return;
      }
      std::vector<ScalarKind> kinds;
      for (const Type& a : *args)
        kinds.push_back(isIntegerOrBool(a) ? a.scalarKind() : ScalarKind::Float64);
      std::optional<ScalarKind> kind = rangeIterationType(kinds);
      if (!kind) {
        error(DiagKind::TypeBadArguments, c->range, {"range", typeList(*args)});
        return;
      }
      element = Type::scalar(*kind);
    } else if (callee == "enumerate" || callee == "zip") {
      std::optional<std::vector<Type>> args = arguments(c);
      if (!args)
        return;
      std::vector<Type> parts;
      if (callee == "enumerate")
        parts.push_back(Type::scalar(ScalarKind::Int64));
      for (const Type& a : *args) {
        if (a.kind() == NumbaType::Kind::UniTuple)
          parts.push_back(a.elements()[0]);
        else if (a.isArray() && a.ndim() == 1)
          parts.push_back(Type::scalar(a.scalarKind()));
        else {
          error(DiagKind::TypeNotIterable, c->range, {a.str()});
          return;
        }
      }
      element = Type::tuple(parts);
      if (std::all_of(parts.begin(), parts.end(), [&](const Type& t) { return t == parts[0]; }))
        element = Type::uniTuple(parts[0], static_cast<int>(parts.size()));
    }
  }
  if (!element) {
    OptType t = expr(iter);
    if (!t)
      return;
    if (t->kind() == NumbaType::Kind::UniTuple)
      element = t->elements()[0];
    else if (t->isArray() && t->ndim() == 1)
      element = t->elementType();
    else if (t->isArray())
      element = t->withShape(t->ndim() - 1,
                             t->layout() == ArrayLayout::C ? ArrayLayout::C : ArrayLayout::A,
                             t->readonly());
    else {
      error(DiagKind::TypeNotIterable, iter->range, {t->str()});
      return;
    }
  }
  assign(loop->target, *element, nullptr);
  block(loop->body);
  block(loop->orelse);
}

// ---- expressions --------------------------------------------------------------------------

std::string FunctionTyper::apiName(const ast::Expr* e) const {
  return qualifiedApiName(fn_.scope, e);
}

std::optional<ConstantValue> FunctionTyper::constant(const ast::Expr* e, const char* what) {
  DiagnosticEngine quiet; // the folder's own reports would repeat on every pass
  ConstantFolder folder(module_.symbols, reporting_ ? diags_ : quiet);
  FoldResult r = folder.fold(e);
  if (r.isConstant())
    return r.value();
  if (r.status() == FoldResult::Status::NotConstant)
    error(DiagKind::TypeNotConstant, e->range, {what});
  else
    failed_ = true;
  return std::nullopt;
}

std::optional<ScalarKind> FunctionTyper::dtype(const ast::Expr* e) {
  std::string api = apiName(e);
  if (!api.empty()) {
    std::string_view last = std::string_view(api).substr(api.rfind('.') + 1);
    if (api.rfind("numba.", 0) == 0)
      if (std::optional<ScalarKind> k = scalarKindNamed(last))
        return k;
    if (api.rfind("numpy.", 0) == 0)
      if (std::optional<ScalarKind> k = numpyScalarKindNamed(last))
        return k;
  }
  if (const auto* c = e->as<ast::Constant>();
      c != nullptr && c->valueKind == ast::ConstantKind::Str) {
    if (std::optional<ScalarKind> k = numpyScalarKindNamed(c->strValue))
      return k;
  }
  std::string shown = api;
  if (const auto* c = e->as<ast::Constant>();
      c != nullptr && c->valueKind == ast::ConstantKind::Str)
    shown = "'" + c->strValue + "'";
  else if (shown.empty())
    shown = std::string("this ") + ast::nodeKindName(e->kind);
  error(DiagKind::TypeNotADtype, e->range, {shown});
  return std::nullopt;
}

OptType FunctionTyper::expr(const ast::Expr* e) {
  switch (e->kind) {
  case ast::NodeKind::Constant: {
    const auto* c = e->as<ast::Constant>();
    switch (c->valueKind) {
    case ast::ConstantKind::Int:
      if (c->intTooLarge || c->intValue > static_cast<__int128>(UINT64_MAX) ||
          c->intValue < static_cast<__int128>(INT64_MIN)) {
        error(DiagKind::TypeNotSupported, e->range, {"an integer literal wider than 64 bits"});
        return std::nullopt;
      }
      return record(e, Type::scalar(c->intValue > static_cast<__int128>(INT64_MAX)
                                        ? ScalarKind::UInt64
                                        : ScalarKind::Int64));
    case ast::ConstantKind::Float:
      return record(e, Type::scalar(ScalarKind::Float64));
    case ast::ConstantKind::Complex:
      return record(e, Type::scalar(ScalarKind::Complex128));
    case ast::ConstantKind::Bool:
      return record(e, Type::scalar(ScalarKind::Boolean));
    case ast::ConstantKind::None:
      return record(e, Type::voidType());
    default:
      return std::nullopt; // strings: only print and assert messages take them
    }
  }
  case ast::NodeKind::Name:
    return record(e, name(e->as<ast::Name>()));
  case ast::NodeKind::Attribute:
    return record(e, attribute(e->as<ast::Attribute>()));
  case ast::NodeKind::Subscript:
    return record(e, subscript(e->as<ast::Subscript>()));
  case ast::NodeKind::BinOp:
    return record(e, binary(e->as<ast::BinOp>()));
  case ast::NodeKind::UnaryOp:
    return record(e, unary(e->as<ast::UnaryOp>()));
  case ast::NodeKind::Compare:
    return record(e, compare(e->as<ast::Compare>()));
  case ast::NodeKind::BoolOp: {
    OptType result;
    for (const ast::Expr* v : e->as<ast::BoolOp>()->values) {
      OptType t = expr(v);
      if (!t)
        return std::nullopt;
      if (!result)
        result = t;
      else if (OptType u = unify(*result, *t))
        result = u;
      else {
        error(DiagKind::TypeCannotUnify, e->range, {result->str(), t->str(), "`and`/`or`"});
        return std::nullopt;
      }
    }
    return record(e, result);
  }
  case ast::NodeKind::IfExp: {
    const auto* i = e->as<ast::IfExp>();
    condition(i->test);
    OptType a = expr(i->body), b = expr(i->orelse);
    if (!a || !b)
      return std::nullopt;
    OptType u = unify(*a, *b);
    if (!u)
      error(DiagKind::TypeCannotUnify, e->range, {a->str(), b->str(), "a conditional expression"});
    return record(e, u);
  }
  case ast::NodeKind::Tuple: {
    std::vector<Type> elements;
    for (const ast::Expr* x : e->as<ast::Tuple>()->elts) {
      OptType t = expr(x);
      if (!t)
        return std::nullopt;
      elements.push_back(*t);
    }
    if (!elements.empty() && std::all_of(elements.begin(), elements.end(),
                                         [&](const Type& t) { return t == elements[0]; }))
      return record(e, Type::uniTuple(elements[0], static_cast<int>(elements.size())));
    return record(e, Type::tuple(std::move(elements)));
  }
  case ast::NodeKind::Call:
    return record(e, call(e->as<ast::Call>()));
  case ast::NodeKind::NamedExpr: {
    const auto* n = e->as<ast::NamedExpr>();
    OptType v = expr(n->value);
    if (v)
      assign(n->target, *v, n->value);
    return record(e, v);
  }
  default:
    // Lists, dicts, comprehensions, lambdas... were reported by resolution already.
    failed_ = true;
    return std::nullopt;
  }
}

OptType FunctionTyper::name(const ast::Name* n) {
  auto it = fn_.scope.names.find(n);
  if (it == fn_.scope.names.end()) {
    failed_ = true; // resolution reported it
    return std::nullopt;
  }
  const NameBinding& b = it->second;
  switch (b.kind) {
  case NameBinding::Kind::Parameter:
    if (b.index < spec_.params.size())
      return spec_.params[b.index];
    return std::nullopt;
  case NameBinding::Kind::Local:
    return spec_.localTypes[b.index]; // nullopt until assigned (a later pass will know)
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
      return Type::scalar(ScalarKind::Boolean);
    if (b.qualifiedName == "None")
      return Type::voidType();
    return std::nullopt;
  case NameBinding::Kind::Api: {
    const std::string& q = b.qualifiedName;
    if (q == "math.pi" || q == "math.e" || q == "math.tau" || q == "math.inf" || q == "math.nan")
      return Type::scalar(ScalarKind::Float64);
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

OptType FunctionTyper::recordField(const Type& record, const std::string& name, SourceRange at) {
  if (const RecordField* f = record.recordLayout().field(name))
    return Type::scalar(f->type);
  error(DiagKind::TypeUnknownAttribute, at, {record.str(), name});
  return std::nullopt;
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
  std::vector<Type> types;
  for (const OptType& t : elements)
    types.push_back(*t);
  return Type::namedTuple(std::move(types), cls.strValue, std::move(fields));
}

OptType FunctionTyper::attribute(const ast::Attribute* a) {
  std::string api = apiName(a);
  if (!api.empty()) {
    static const char* const kInt32Attributes[] = {
        "numba.cuda.threadIdx.x", "numba.cuda.threadIdx.y", "numba.cuda.threadIdx.z",
        "numba.cuda.blockIdx.x",  "numba.cuda.blockIdx.y",  "numba.cuda.blockIdx.z",
        "numba.cuda.blockDim.x",  "numba.cuda.blockDim.y",  "numba.cuda.blockDim.z",
        "numba.cuda.gridDim.x",   "numba.cuda.gridDim.y",   "numba.cuda.gridDim.z",
        "numba.cuda.laneid",      "numba.cuda.warpsize"};
    for (const char* name : kInt32Attributes)
      if (api == name)
        return Type::scalar(ScalarKind::Int32);
    if (api == "math.pi" || api == "math.e" || api == "math.tau" || api == "math.inf" ||
        api == "math.nan")
      return Type::scalar(ScalarKind::Float64);
    return std::nullopt; // a module or function: no value of its own
  }
  OptType base = expr(a->value);
  if (!base)
    return std::nullopt;
  if (base->isArray()) {
    if (a->attr == "shape" || a->attr == "strides")
      return Type::uniTuple(Type::scalar(ScalarKind::Int64), base->ndim());
    if (a->attr == "size" || a->attr == "ndim")
      return Type::scalar(ScalarKind::Int64);
    // The transpose: the same items, dimensions reversed (C and F swap, as numba types it).
    if (a->attr == "T") {
      if (base->ndim() == 1)
        return *base;
      const ArrayLayout layout = base->layout() == ArrayLayout::C   ? ArrayLayout::F
                                 : base->layout() == ArrayLayout::F ? ArrayLayout::C
                                                                    : ArrayLayout::A;
      return base->withShape(base->ndim(), layout, base->readonly());
    }
  }
  if (base->isRecord())
    return recordField(*base, a->attr, a->attrRange);
  if (base->isNamedTuple()) {
    const std::vector<std::string>& fields = base->fieldNames();
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i] == a->attr)
        return base->elements()[i];
  }
  if (base->isScalar() && isComplex(base->scalarKind()) && (a->attr == "real" || a->attr == "imag"))
    return Type::scalar(base->scalarKind() == ScalarKind::Complex64 ? ScalarKind::Float32
                                                                    : ScalarKind::Float64);
  error(DiagKind::TypeUnknownAttribute, a->attrRange, {base->str(), a->attr});
  return std::nullopt;
}

OptType FunctionTyper::subscript(const ast::Subscript* s) {
  OptType base = expr(s->value);
  if (!base)
    return std::nullopt;
  std::vector<const ast::Expr*> indices;
  if (const auto* t = s->slice->as<ast::Tuple>())
    indices.assign(t->elts.begin(), t->elts.end());
  else
    indices.push_back(s->slice);

  if (base->isTuple()) {
    if (indices.size() != 1) {
      error(DiagKind::TypeTupleIndex, s->slice->range,
            {base->str(), std::to_string(base->elements().size())});
      return std::nullopt;
    }
    OptType it = expr(indices[0]);
    if (!it)
      return std::nullopt;
    if (base->kind() == NumbaType::Kind::UniTuple && isIntegerType(*it))
      return base->elements()[0];
    std::optional<ConstantValue> k = constant(indices[0], "the index of a heterogeneous tuple");
    if (!k)
      return std::nullopt;
    int64_t n = static_cast<int64_t>(base->elements().size());
    if (k->kind != ConstantValue::Kind::Int || k->intValue >= n || k->intValue < -n) {
      error(DiagKind::TypeTupleIndex, indices[0]->range, {base->str(), std::to_string(n)});
      return std::nullopt;
    }
    int64_t i = static_cast<int64_t>(k->intValue);
    return base->elements()[static_cast<size_t>(i < 0 ? i + n : i)];
  }
  if (base->isRecord()) {
    const auto* k = s->slice->as<ast::Constant>();
    if (k == nullptr || k->valueKind != ast::ConstantKind::Str) {
      error(DiagKind::TypeRecordIndex, s->slice->range, {base->str()});
      return std::nullopt;
    }
    return recordField(*base, k->strValue, s->slice->range);
  }
  if (!base->isArray()) {
    error(DiagKind::TypeIndexScalar, s->value->range, {base->str()});
    return std::nullopt;
  }
  int sliced = 0;
  for (const ast::Expr* index : indices) {
    if (const auto* slice = index->as<ast::Slice>()) {
      ++sliced;
      for (const ast::Expr* part : {slice->lower, slice->upper, slice->step}) {
        if (part == nullptr)
          continue;
        OptType pt = expr(part);
        if (pt && !isIntegerOrBool(*pt))
          error(DiagKind::TypeIndexNotInteger, part->range, {pt->str()});
      }
      continue;
    }
    OptType it = expr(index);
    if (!it)
      return std::nullopt;
    if (!isIntegerOrBool(*it)) {
      error(DiagKind::TypeIndexNotInteger, index->range, {it->str()});
      return std::nullopt;
    }
  }
  if (static_cast<int>(indices.size()) > base->ndim()) {
    error(DiagKind::TypeTooManyIndices, s->slice->range,
          {base->str(), std::to_string(indices.size()), std::to_string(base->ndim())});
    return std::nullopt;
  }
  int remaining = base->ndim() - static_cast<int>(indices.size()) + sliced;
  if (remaining == 0)
    return base->elementType();
  // A view: C stays C only when the leading dimensions were indexed and the rest kept whole.
  ArrayLayout layout =
      (base->layout() == ArrayLayout::C && sliced == 0) ? ArrayLayout::C : ArrayLayout::A;
  return base->withShape(remaining, layout, base->readonly());
}

OptType FunctionTyper::binary(const ast::BinOp* b) {
  OptType l = expr(b->left), r = expr(b->right);
  if (!l || !r)
    return std::nullopt;
  if (l->isArray() || r->isArray()) {
    error(DiagKind::TypeArrayArithmetic, b->range, {ast::toString(b->op), l->str(), r->str()});
    return std::nullopt;
  }
  if (l->isScalar() && r->isScalar())
    if (std::optional<ScalarKind> k = binaryResultType(b->op, l->scalarKind(), r->scalarKind()))
      return Type::scalar(*k);
  error(DiagKind::TypeBadOperands, b->range, {ast::toString(b->op), l->str(), r->str()});
  return std::nullopt;
}

OptType FunctionTyper::unary(const ast::UnaryOp* u) {
  OptType t = expr(u->operand);
  if (!t)
    return std::nullopt;
  if (u->op == ast::UnaryOpKind::Not)
    return Type::scalar(ScalarKind::Boolean);
  if (t->isScalar())
    if (std::optional<ScalarKind> k = unaryResultType(u->op, t->scalarKind()))
      return Type::scalar(*k);
  if (t->isArray())
    error(DiagKind::TypeArrayArithmetic, u->range, {ast::toString(u->op), t->str(), t->str()});
  else
    error(DiagKind::TypeBadOperand, u->range, {ast::toString(u->op), t->str()});
  return std::nullopt;
}

OptType FunctionTyper::compare(const ast::Compare* c) {
  OptType left = expr(c->left);
  for (size_t i = 0; i < c->ops.size(); ++i) {
    OptType right = expr(c->comparators[i]);
    if (!left || !right)
      return std::nullopt;
    bool ok = left->isScalar() && right->isScalar() &&
              comparisonOperandType(c->ops[i], left->scalarKind(), right->scalarKind());
    if (!ok && (c->ops[i] == ast::CmpOpKind::Is || c->ops[i] == ast::CmpOpKind::IsNot) &&
        (left->isVoid() || right->isVoid()))
      ok = true; // `x is None`
    if (!ok) {
      error(DiagKind::TypeBadOperands, c->range,
            {ast::toString(c->ops[i]), left->str(), right->str()});
      return std::nullopt;
    }
    left = right;
  }
  return Type::scalar(ScalarKind::Boolean);
}

std::optional<std::vector<Type>> FunctionTyper::arguments(const ast::Call* c) {
  std::vector<Type> out;
  bool ok = true;
  for (const ast::Expr* a : c->args) {
    OptType t = expr(a);
    if (t)
      out.push_back(*t);
    else
      ok = false;
  }
  if (!ok)
    return std::nullopt;
  return out;
}

OptType FunctionTyper::call(const ast::Call* c) {
  // A device function of this module?
  if (const auto* n = c->func->as<ast::Name>()) {
    auto it = fn_.scope.names.find(n);
    if (it != fn_.scope.names.end() && it->second.kind == NameBinding::Kind::CompiledFunction) {
      std::optional<std::vector<Type>> args = arguments(c);
      if (!args)
        return std::nullopt;
      return deviceCall(module_.functions[it->second.index], c, *args);
    }
    if (it != fn_.scope.names.end() && it->second.kind == NameBinding::Kind::ModuleConstant) {
      const ConstantValue& v = module_.symbols.constants()[it->second.index].value;
      if (v.kind == ConstantValue::Kind::NamedTupleClass)
        return namedTupleConstruction(c, v);
    }
  }
  std::string api = apiName(c->func);
  // A device function of pyk's stdlib (`xoroshiro128p_uniform_float32`, `cuda.random.*`)?
  if (const CompiledFunction* library = libraryFunction(api)) {
    std::optional<std::vector<Type>> args = arguments(c);
    if (!args)
      return std::nullopt;
    return deviceCall(*library, c, *args);
  }
  if (api.empty()) {
    // A method call on a value: a grid group's `.sync()` is the one numba has
    // (`cuda.cg.this_grid().sync()`, or `g = cuda.cg.this_grid()` then `g.sync()`).
    if (const auto* a = c->func->as<ast::Attribute>()) {
      OptType group = expr(a->value);
      if (!group)
        return std::nullopt;
      if (group->kind() == Type::Kind::GridGroup && a->attr == "sync") {
        if (!c->args.empty() || !c->keywords.empty()) {
          error(DiagKind::TypeArity, c->range,
                {"GridGroup.sync", "0", std::to_string(c->args.size() + c->keywords.size())});
          return std::nullopt;
        }
        return Type::voidType();
      }
      // z.conjugate() of a complex number (numba's only method on numbers that kernels use).
      if (group->isScalar() && isComplex(group->scalarKind()) && a->attr == "conjugate") {
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
    failed_ = true; // resolution reported the callee
    return std::nullopt;
  }
  // Calls whose arguments are not all values: shapes, dtypes, constant arrays.
  if (api == "numba.cuda.shared.array" || api == "numba.cuda.local.array" ||
      api == "numba.cuda.const.array_like")
    return arrayConstructor(api, c);
  if (api == "numba.cuda.grid" || api == "numba.cuda.gridsize") {
    if (c->args.size() != 1) {
      error(DiagKind::TypeArity, c->range, {api, "1", std::to_string(c->args.size())});
      return std::nullopt;
    }
    std::optional<ConstantValue> n = constant(c->args[0], "the argument of `cuda.grid`");
    if (!n)
      return std::nullopt;
    if (n->kind != ConstantValue::Kind::Int || n->intValue < 1 || n->intValue > 3) {
      error(DiagKind::TypeBadArguments, c->args[0]->range, {api, n->repr()});
      return std::nullopt;
    }
    expr(c->args[0]);
    Type i64 = Type::scalar(ScalarKind::Int64);
    return n->intValue == 1 ? i64 : Type::uniTuple(i64, static_cast<int>(n->intValue));
  }
  if (api == "numba.cuda.cg.this_grid") {
    if (!c->args.empty() || !c->keywords.empty()) {
      error(DiagKind::TypeArity, c->range,
            {api, "0", std::to_string(c->args.size() + c->keywords.size())});
      return std::nullopt;
    }
    return Type::gridGroup();
  }
  std::optional<std::vector<Type>> args = arguments(c);
  if (!args)
    return std::nullopt;
  return apiCall(api, c, *args);
}

OptType FunctionTyper::arrayConstructor(const std::string& api, const ast::Call* c) {
  const ast::Expr* shapeArg = c->args.size() > 0 ? c->args[0] : nullptr;
  const ast::Expr* dtypeArg = c->args.size() > 1 ? c->args[1] : nullptr;
  for (const ast::Keyword& k : c->keywords) {
    if (k.arg == "shape" || k.arg == "ary")
      shapeArg = k.value;
    else if (k.arg == "dtype")
      dtypeArg = k.value;
  }
  if (api == "numba.cuda.const.array_like") {
    if (shapeArg == nullptr) {
      error(DiagKind::TypeArity, c->range, {api, "1", "0"});
      return std::nullopt;
    }
    OptType t = expr(shapeArg);
    if (t && t->isArray())
      return t->withShape(t->ndim(), ArrayLayout::C, /*readonly=*/true);
    if (t)
      error(DiagKind::TypeBadArguments, c->range, {api, t->str()});
    return std::nullopt;
  }
  if (shapeArg == nullptr || dtypeArg == nullptr) {
    error(DiagKind::TypeArity, c->range, {api, "2 (shape, dtype)", std::to_string(c->args.size())});
    return std::nullopt;
  }
  std::optional<ConstantValue> shape = constant(shapeArg, "an array shape");
  std::optional<ScalarKind> elementType = dtype(dtypeArg);
  if (!shape || !elementType)
    return std::nullopt;
  int ndim = 0;
  if (shape->kind == ConstantValue::Kind::Int) {
    ndim = 1;
  } else if (shape->kind == ConstantValue::Kind::Tuple && !shape->elements.empty() &&
             std::all_of(
                 shape->elements.begin(), shape->elements.end(),
                 [](const ConstantValue& v) { return v.kind == ConstantValue::Kind::Int; })) {
    ndim = static_cast<int>(shape->elements.size());
  } else {
    error(DiagKind::TypeNotConstant, shapeArg->range,
          {"an array shape (an integer or a tuple of integers)"});
    return std::nullopt;
  }
  return Type::array(*elementType, ndim, ArrayLayout::C);
}

OptType FunctionTyper::apiCall(const std::string& api, const ast::Call* c,
                               const std::vector<Type>& args) {
  auto bad = [&]() -> OptType {
    error(DiagKind::TypeBadArguments, c->range, {api, typeList(args)});
    return std::nullopt;
  };
  auto scalars = [&]() -> std::optional<std::vector<ScalarKind>> {
    std::vector<ScalarKind> out;
    for (const Type& t : args) {
      if (!t.isScalar())
        return std::nullopt;
      out.push_back(t.scalarKind());
    }
    return out;
  };
  const Type i32 = Type::scalar(ScalarKind::Int32);
  const Type u32 = Type::scalar(ScalarKind::UInt32);
  const Type boolean = Type::scalar(ScalarKind::Boolean);

  // Barriers and fences.
  if (api == "numba.cuda.syncthreads" || api == "numba.cuda.syncwarp" ||
      api == "numba.cuda.threadfence" || api == "numba.cuda.threadfence_block" ||
      api == "numba.cuda.threadfence_system")
    return Type::voidType();
  if (api == "numba.cuda.syncthreads_count" || api == "numba.cuda.syncthreads_and" ||
      api == "numba.cuda.syncthreads_or")
    return args.size() == 1 && args[0].isScalar() ? OptType(i32) : bad();

  // Atomics: (array, index, value...) → the element type, the old value.
  if (api.rfind("numba.cuda.atomic.", 0) == 0) {
    std::string op = api.substr(std::string("numba.cuda.atomic.").size());
    size_t valueCount = op == "cas" ? 2 : op == "compare_and_swap" ? 2 : 1;
    bool indexed = op != "compare_and_swap";
    if (args.size() != (indexed ? 2 : 1) + valueCount)
      return bad();
    const Type& array = args[0];
    if (!array.isArray() || array.readonly())
      return bad();
    if (indexed) {
      const Type& index = args[1];
      bool okIndex =
          isIntegerType(index) ||
          (index.isTuple() && static_cast<int>(index.elements().size()) == array.ndim() &&
           std::all_of(index.elements().begin(), index.elements().end(), isIntegerType));
      if (!okIndex)
        return bad();
    }
    ScalarKind k = array.scalarKind();
    bool integer = isInteger(k) && bitWidth(k) >= 32;
    bool floating = k == ScalarKind::Float32 || k == ScalarKind::Float64;
    bool ok = (op == "add" || op == "sub" || op == "max" || op == "min" || op == "nanmax" ||
               op == "nanmin")
                  ? integer || floating
              : (op == "and_" || op == "or_" || op == "xor" || op == "exch" || op == "cas" ||
                 op == "compare_and_swap")
                  ? integer
              : (op == "inc" || op == "dec") ? (k == ScalarKind::UInt32 || k == ScalarKind::UInt64)
                                             : false;
    for (size_t i = args.size() - valueCount; i < args.size(); ++i)
      ok = ok && args[i].isScalar();
    return ok ? OptType(Type::scalar(k)) : bad();
  }

  // Warp-level intrinsics.
  if (api == "numba.cuda.activemask" || api == "numba.cuda.lanemask_lt")
    return args.empty() ? OptType(u32) : bad();
  if (api == "numba.cuda.all_sync" || api == "numba.cuda.any_sync" || api == "numba.cuda.eq_sync")
    return args.size() == 2 && isIntegerType(args[0]) && args[1].isScalar() ? OptType(boolean)
                                                                            : bad();
  if (api == "numba.cuda.ballot_sync")
    return args.size() == 2 && isIntegerType(args[0]) && args[1].isScalar() ? OptType(i32) : bad();
  if (api == "numba.cuda.shfl_sync" || api == "numba.cuda.shfl_up_sync" ||
      api == "numba.cuda.shfl_down_sync" || api == "numba.cuda.shfl_xor_sync") {
    if (args.size() != 3 || !isIntegerType(args[0]) || !isIntegerType(args[2]) ||
        !args[1].isScalar())
      return bad();
    ScalarKind k = args[1].scalarKind();
    bool ok = k == ScalarKind::Int32 || k == ScalarKind::Int64 || k == ScalarKind::UInt32 ||
              k == ScalarKind::UInt64 || k == ScalarKind::Float32 || k == ScalarKind::Float64;
    return ok ? OptType(args[1]) : bad();
  }
  if (api == "numba.cuda.match_any_sync")
    return args.size() == 2 && args[1].isScalar() ? OptType(i32) : bad();
  if (api == "numba.cuda.match_all_sync")
    return args.size() == 2 && args[1].isScalar() ? OptType(Type::tuple({i32, boolean})) : bad();

  // Integer and float intrinsics.
  if (api == "numba.cuda.popc" || api == "numba.cuda.clz")
    return args.size() == 1 && isIntegerType(args[0]) ? OptType(args[0]) : bad();
  if (api == "numba.cuda.ffs")
    return args.size() == 1 && isIntegerType(args[0]) ? OptType(u32) : bad();
  if (api == "numba.cuda.brev")
    return args.size() == 1 && args[0].isScalar() &&
                   (args[0].scalarKind() == ScalarKind::UInt32 ||
                    args[0].scalarKind() == ScalarKind::UInt64)
               ? OptType(args[0])
               : bad();
  if (api == "numba.cuda.fma" || api == "numba.cuda.cbrt") {
    size_t n = api == "numba.cuda.fma" ? 3 : 1;
    if (args.size() != n || !args[0].isScalar())
      return bad();
    ScalarKind k = args[0].scalarKind();
    for (const Type& a : args)
      if (!(a == args[0]))
        return bad();
    return k == ScalarKind::Float32 || k == ScalarKind::Float64 ? OptType(args[0]) : bad();
  }
  if (api == "numba.cuda.selp") {
    if (args.size() != 3 || !args[1].isScalar() || !args[2].isScalar())
      return bad();
    OptType u = unify(args[1], args[2]);
    return u ? u : bad();
  }

  // Casts: numba and numpy scalar types called as functions.
  if (api.rfind("numba.", 0) == 0 || api.rfind("numpy.", 0) == 0) {
    std::string_view last = std::string_view(api).substr(api.rfind('.') + 1);
    std::optional<ScalarKind> target =
        api.rfind("numba.", 0) == 0 ? scalarKindNamed(last) : numpyScalarKindNamed(last);
    if (target) {
      if (args.size() != 1 || !args[0].isScalar())
        return bad();
      return Type::scalar(*target);
    }
  }

  // Builtins with tuple or special results.
  if (api == "print")
    return Type::voidType();
  if (api == "len") {
    if (args.size() == 1 && (args[0].isArray() || args[0].isTuple()))
      return Type::scalar(ScalarKind::Int64);
    return bad();
  }
  if (api == "math.frexp") {
    std::optional<std::vector<ScalarKind>> k = scalars();
    if (!k || k->size() != 1)
      return bad();
    std::optional<ScalarKind> m = mathResultType("math.frexp", *k);
    return m ? OptType(Type::tuple({Type::scalar(*m), i32})) : bad();
  }
  if (api == "math.modf" || api == "divmod") {
    std::optional<std::vector<ScalarKind>> k = scalars();
    if (!k)
      return bad();
    std::optional<ScalarKind> m = mathResultType(api, *k);
    return m ? OptType(Type::uniTuple(Type::scalar(*m), 2)) : bad();
  }

  // cmath: on a real or complex argument, computed in complex64 for float32/complex64 and in
  // complex128 otherwise.
  if (api.rfind("cmath.", 0) == 0) {
    std::optional<std::vector<ScalarKind>> k = scalars();
    if (!k || k->empty())
      return bad();
    bool single = true;
    for (ScalarKind x : *k)
      single = single && (x == ScalarKind::Float32 || x == ScalarKind::Complex64);
    const Type complexType = Type::scalar(single ? ScalarKind::Complex64 : ScalarKind::Complex128);
    const Type f = Type::scalar(single ? ScalarKind::Float32 : ScalarKind::Float64);
    const std::string name = api.substr(6);
    static const char* const kComplexResults[] = {"exp",  "log",   "log10", "sqrt", "sin",  "cos",
                                                  "tan",  "asin",  "acos",  "atan", "sinh", "cosh",
                                                  "tanh", "asinh", "acosh", "atanh"};
    if (k->size() == 1)
      for (const char* f : kComplexResults)
        if (name == f)
          return complexType;
    if (k->size() == 1 && name == "phase")
      return f;
    if (k->size() == 1 && name == "polar")
      return Type::uniTuple(f, 2);
    if (k->size() == 1 && (name == "isnan" || name == "isinf" || name == "isfinite"))
      return boolean;
    if (k->size() == 2 && name == "rect" && !isComplex((*k)[0]) && !isComplex((*k)[1]))
      return complexType;
    error(DiagKind::TypeNotSupported, c->range, {"`" + api + "` with these arguments"});
    return std::nullopt;
  }

  // Everything else with a scalar result: math.*, abs, min, max, round, int, float, bool,
  // complex, pow.
  std::optional<std::vector<ScalarKind>> k = scalars();
  if (k)
    if (std::optional<ScalarKind> result = mathResultType(api, *k))
      return Type::scalar(*result);
  if (api == "min" || api == "max") {
    // min/max over a UniTuple of scalars.
    if (args.size() == 1 && args[0].kind() == NumbaType::Kind::UniTuple &&
        args[0].elements()[0].isScalar())
      return args[0].elements()[0];
  }
  return bad();
}

OptType FunctionTyper::deviceCall(const CompiledFunction& callee, const ast::Call* c,
                                  const std::vector<Type>& args) {
  if (callee.kind == CompiledFunctionKind::Kernel) {
    failed_ = true; // resolution reported it
    return std::nullopt;
  }
  size_t arity = callee.def->args.args.size() + callee.def->args.posonlyargs.size();
  if (args.size() != arity || !c->keywords.empty()) {
    error(DiagKind::TypeArity, c->range,
          {callee.name, std::to_string(arity), std::to_string(args.size() + c->keywords.size())});
    return std::nullopt;
  }
  // With declared signatures, numba picks the first whose parameters accept the arguments and
  // converts them; otherwise it specializes for the argument types as they are.
  std::vector<Type> params = args;
  std::optional<Type> declaredReturn;
  if (!callee.signatures.empty()) {
    bool found = false;
    for (const FunctionSignature& sig : callee.signatures) {
      if (sig.params.size() != args.size())
        continue;
      bool accepts = true;
      for (size_t i = 0; i < args.size() && accepts; ++i)
        accepts = sig.params[i] == args[i] || (sig.params[i].isScalar() && args[i].isScalar());
      if (accepts) {
        params = sig.params;
        declaredReturn = sig.returnType;
        found = true;
        break;
      }
    }
    if (!found) {
      error(DiagKind::TypeBadArguments, c->range, {callee.name, typeList(args)});
      return std::nullopt;
    }
  }
  const bool real = reporting_ && !quietOnly_;
  SpecializationSet& set = real ? set_ : scratch_;
  Specialization* s = set.find(&callee, params);
  if (s == nullptr && !real) {
    // Still being typed for real further up the call stack: a recursive call.
    if (Specialization* inProgress = set_.find(&callee, params);
        inProgress && !inProgress->complete)
      s = inProgress;
  }
  if (s == nullptr) {
    if (depth_ >= kMaxCallDepth) {
      error(DiagKind::TypeNotSupported, c->range, {"calls nested this deeply"});
      return std::nullopt;
    }
    s = set.add(&callee, params);
    // The callee reports its own errors, once, in its own last pass. A stdlib function's body is
    // not the user's to fix: what fails in it is reported here, as arguments it does not accept.
    const bool intoLibrary = callee.library != nullptr && callee.library != fn_.library;
    DiagnosticEngine libraryDiags;
    FunctionTyper typer(callee.library ? callee.library->resolved : module_, *s, set_, scratch_,
                        intoLibrary ? libraryDiags : realDiags_, quiet_, !real, depth_ + 1);
    if (!typer.run()) {
      failed_ = true;
      if (intoLibrary) {
        error(DiagKind::TypeBadArguments, c->range,
              {callee.library->qualifiedName + "." + callee.name, typeList(args)});
        return std::nullopt;
      }
    }
  } else if (!s->complete) {
    // A recursive call: its return type must be declared.
    if (!declaredReturn) {
      error(DiagKind::TypeRecursionNeedsSignature, c->range, {callee.name});
      return std::nullopt;
    }
    if (reporting_)
      spec_.callees[c] = s;
    return declaredReturn;
  }
  if (reporting_)
    spec_.callees[c] = s;
  return declaredReturn ? declaredReturn : OptType(s->returnType);
}

} // namespace

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
  if (ok && declaredReturn && function.kind != CompiledFunctionKind::Kernel &&
      !(spec->returnType == *declaredReturn)) {
    bool convertible = (spec->returnType.isScalar() && declaredReturn->isScalar()) ||
                       (spec->returnType.isVoid() && declaredReturn->isVoid());
    if (!convertible) {
      diags.report(DiagKind::TypeCannotUnify, function.def->nameRange,
                   {spec->returnType.str(), declaredReturn->str(),
                    "the declared return type of " + function.name});
      ok = false;
    }
    spec->returnType = *declaredReturn;
  }
  return ok && diags.errorCount() == errorsBefore ? spec : nullptr;
}

} // namespace pyk::sema
