// TypeStatements: typing of statements — assignments (to locals, items, record fields, by
// unpacking), augmented assignments, returns, conditions, and `for` loops over `range`,
// `enumerate`, `zip`, tuples and arrays.
#include <algorithm>

#include "sema/typing/FunctionTyper.h"
#include "sema/typing/TypeInference.h"
#include "sema/typing/TypeRules.h"

namespace pyk::sema {

void FunctionTyper::block(const std::vector<ast::Stmt*>& body) {
  for (const ast::Stmt* s : body)
    statement(s);
}

void FunctionTyper::condition(const ast::Expr* test) {
  // An Optional has no truth in numba (`bool(OptionalType(float64))` does not type): kept, and
  // refused below with the other types that are no condition.
  // None is false (numba prunes the branch of `if cond:` where cond is None).
  OptType t = optionalExpr(test);
  if (t && !t->isScalar() && !t->isTuple() && !t->isVoid())
    error(DiagKind::TypeNotACondition, test->range, {t->str()});
}

void FunctionTyper::visitExprStmt(const ast::ExprStmt* s) {
  expr(s->value);
}

void FunctionTyper::visitAssign(const ast::Assign* a) {
  if (stringIntoCharacterArray(a) || stringIntoRecordField(a))
    return;
  // A value stored into variables only keeps an Optional; any other target takes its value.
  const bool intoVariables = std::all_of(a->targets.begin(), a->targets.end(),
                                         [](const ast::Expr* t) { return t->is<ast::Name>(); });
  OptType value = intoVariables ? optionalExpr(a->value) : expr(a->value);
  if (!value)
    return;
  for (const ast::Expr* target : a->targets)
    assign(target, *value, a->value);
}

void FunctionTyper::visitAnnAssign(const ast::AnnAssign* a) {
  if (a->value == nullptr)
    return;
  if (OptType value = a->target->is<ast::Name>() ? optionalExpr(a->value) : expr(a->value))
    assign(a->target, *value, a->value);
}

void FunctionTyper::visitIf(const ast::If* i) {
  condition(i->test);
  block(i->body);
  block(i->orelse);
  typePhis(i, phisOf(fn_.scope.versions.joinPhis, i));
}

void FunctionTyper::visitWhile(const ast::While* w) {
  typePhis(w, phisOf(fn_.scope.versions.headPhis, w));
  condition(w->test);
  block(w->body);
  block(w->orelse);
  typePhis(w, phisOf(fn_.scope.versions.joinPhis, w));
}

void FunctionTyper::visitAssert(const ast::Assert* a) {
  condition(a->test);
}

void FunctionTyper::visitAugAssign(const ast::AugAssign* a) {
  if (const auto* n = a->target->as<ast::Name>()) {
    // `x op= v` types as `x = x op v`: the version of `x` read, the value, then the new version.
    auto read = fn_.scope.versions.augmentedRead.find(a);
    OptType value = expr(a->value);
    if (read == fn_.scope.versions.augmentedRead.end() || read->second == kNoVersion) {
      failed_ = true; // resolution reported the read before any assignment
      return;
    }
    OptType old = spec_.versionTypes[read->second];
    if (!old || !value)
      return;
    if (old->isOptional()) // the variable's value is unwrapped (lowering unwraps the read)
      old = old->optionalValue();
    if (OptType result = binaryOperation(a->op, *old, *value, a->range))
      assignLocal(n, *result);
    return;
  }
  // `t op= v` types as `t = t op v`, through a BinOp made on the fly (which evaluates the
  // target as a load and the value once each).
  ast::BinOp op;
  op.left = a->target;
  op.op = a->op;
  op.right = a->value;
  op.range = a->range;
  OptType result = visitBinOp(&op);
  if (!result)
    return;
  if (const auto* sub = a->target->as<ast::Subscript>()) {
    const NumbaType* container = nullptr;
    if (auto it = spec_.exprTypes.find(sub->value); it != spec_.exprTypes.end())
      container = &it->second;
    OptType base = container != nullptr ? OptType(*container) : expr(sub->value);
    if (base && base->isArray() && base->readonly())
      error(DiagKind::TypeWriteReadonly, a->target->range, {base->str()});
    else if (!result->isScalar())
      error(DiagKind::TypeAssignToElement, a->value->range,
            {result->str(), base ? base->str() : "?"});
  } else if (const auto* at = a->target->as<ast::Attribute>();
             at != nullptr && expr(at->value).value_or(NumbaType()).isRecord()) {
    if (!result->isScalar())
      error(DiagKind::TypeAssignToElement, a->value->range, {result->str(), "a record field"});
  } else {
    error(DiagKind::TypeNotSupported, a->target->range, {"augmented assignment to this target"});
  }
}

namespace {

// Whether `body` may contain a `break` of the loop it is the body of (not of a nested loop).
bool breaksOut(const std::vector<ast::Stmt*>& body) {
  for (const ast::Stmt* s : body) {
    if (s->is<ast::Break>())
      return true;
    if (const auto* i = s->as<ast::If>(); i && (breaksOut(i->body) || breaksOut(i->orelse)))
      return true;
  }
  return false;
}

bool alwaysTrue(const ast::Expr* test) {
  const auto* c = test->as<ast::Constant>();
  return c != nullptr && ((c->valueKind == ast::ConstantKind::Bool && c->boolValue) ||
                          (c->valueKind == ast::ConstantKind::Int && c->intValue != 0));
}

} // namespace

bool fallsThrough(const std::vector<ast::Stmt*>& body) {
  for (const ast::Stmt* s : body) {
    if (s->is<ast::Return>() || s->is<ast::Raise>())
      return false;
    if (const auto* i = s->as<ast::If>()) {
      if (!fallsThrough(i->body) && !fallsThrough(i->orelse))
        return false;
    } else if (const auto* w = s->as<ast::While>()) {
      // `while True:` ends only by `break`; another loop also by its test, then its `else`.
      if (!breaksOut(w->body) && (alwaysTrue(w->test) || !fallsThrough(w->orelse)))
        return false;
    } else if (const auto* f = s->as<ast::For>()) {
      if (!breaksOut(f->body) && !fallsThrough(f->orelse))
        return false;
    }
  }
  return true;
}

void FunctionTyper::visitReturn(const ast::Return* r) {
  NumbaType value = NumbaType::voidType();
  if (r->value != nullptr) {
    OptType t = optionalExpr(r->value);
    if (!t)
      return;
    value = *t;
  }
  // A kernel launched returns nothing (numba-cuda: "CUDA kernel must have void return type");
  // the same function called from device code is its device twin, which may.
  if (fn_.kind == CompiledFunctionKind::Kernel && !value.isVoid()) {
    error(DiagKind::KernelReturnValueInBody, r->range, {});
    return;
  }
  addReturn(value, r->range);
}

void FunctionTyper::addReturn(const NumbaType& value, SourceRange at) {
  if (!returnType_) {
    returnType_ = value;
  } else if (OptType u = unify(*returnType_, value)) {
    returnType_ = *u;
  } else {
    error(DiagKind::TypeCannotUnify, at,
          {returnType_->str(), value.str(), "the return value of " + fn_.name});
    return;
  }
  // What a recursive call of this function sees before its typing ends: every return so far,
  // over all passes (a widening is a change for the fixed point).
  OptType partial = spec_.partialReturn ? unify(*spec_.partialReturn, *returnType_) : returnType_;
  if (partial && !(spec_.partialReturn && *spec_.partialReturn == *partial)) {
    spec_.partialReturn = partial;
    changed_ = true;
    returnWidened_ = true;
  }
}

void FunctionTyper::assignLocal(const ast::Name* n, const NumbaType& value) {
  const size_t v = fn_.scope.versions.ofNameOr(n);
  if (v == kNoVersion || fn_.scope.versions.versions[v].kind != LocalVersion::Kind::Def) {
    error(DiagKind::TypeNotSupported, n->range, {"assigning to `" + n->id + "`"});
    return;
  }
  setVersionType(v, value);
  record(n, value);
}

void FunctionTyper::setVersionType(size_t version, const NumbaType& t) {
  std::optional<NumbaType>& slot = spec_.versionTypes[version];
  if (!slot || !(*slot == t)) {
    slot = t;
    changed_ = true;
  }
}

void FunctionTyper::typePhis(const ast::Node* at, const std::vector<size_t>* phis) {
  if (phis == nullptr)
    return;
  const LocalVersions& versions = fn_.scope.versions;
  for (size_t phi : *phis) {
    OptType joined;
    for (const PhiInput& in : versions.versions[phi].inputs) {
      if (in.version == phi || !spec_.versionTypes[in.version])
        continue; // the phi itself around a loop; a version not typed yet
      const NumbaType& t = *spec_.versionTypes[in.version];
      if (!joined) {
        joined = t;
      } else if (OptType u = unify(*joined, t)) {
        joined = u;
      } else {
        error(DiagKind::TypeCannotUnify, at->range,
              {joined->str(), t.str(), fn_.scope.variableName(versions.versions[phi].variable)});
        return;
      }
    }
    if (joined)
      setVersionType(phi, *joined);
  }
}

void FunctionTyper::assign(const ast::Expr* target, const NumbaType& value,
                           const ast::Expr* valueNode) {
  const SourceRange valueRange = valueNode != nullptr ? valueNode->range : target->range;
  switch (target->kind) {
  case ast::NodeKind::Name:
    assignLocal(target->as<ast::Name>(), value);
    return;
  case ast::NodeKind::Tuple:
  case ast::NodeKind::List: {
    const std::vector<ast::Expr*>& elts = *ast::tupleOrListElements(target);
    if (!value.isTuple() || value.elements().size() != elts.size()) {
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
    OptType element = visitSubscript(s);
    if (!element)
      return;
    if (container->isRecord() || element->isRecord()) {
      record(target, *element);
      if (!storableIn(value, *element))
        error(DiagKind::TypeAssignToElement, valueRange, {value.str(), element->str()});
      return;
    }
    if (element->isArray()) { // a view (`a[1:3] = x`): numba's setitem broadcasts onto it
      record(target, *element);
      if (!storableInView(value, *element))
        error(DiagKind::TypeAssignToElement, valueRange, {value.str(), element->str()});
      return;
    }
    // numba converts no other type to a datetime64, a timedelta64 or a character sequence.
    if (element->isDatetimeLike() || element->isCharSeq()) {
      if (!storableIn(value, *element))
        error(DiagKind::TypeAssignToElement, valueRange, {value.str(), container->str()});
      return;
    }
    if (!element->isScalar()) {
      error(DiagKind::TypeNotSupported, target->range, {"assigning to an array slice"});
      return;
    }
    if (!value.isScalar())
      error(DiagKind::TypeAssignToElement, valueRange, {value.str(), container->str()});
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
    OptType field = visitAttribute(a);
    if (!field)
      return;
    record(target, *field);
    if (!storableIn(value, *field))
      error(DiagKind::TypeAssignToElement, valueRange, {value.str(), field->str()});
    return;
  }
  default:
    error(DiagKind::TypeNotSupported, target->range, {"this assignment target"});
  }
}

void FunctionTyper::visitFor(const ast::For* loop) {
  OptType element = iterationElement(loop->iter);
  if (!element)
    return;
  typePhis(loop, phisOf(fn_.scope.versions.headPhis, loop));
  assign(loop->target, *element, nullptr);
  block(loop->body);
  block(loop->orelse);
  typePhis(loop, phisOf(fn_.scope.versions.joinPhis, loop));
}

OptType FunctionTyper::iterationElement(const ast::Expr* iter) {
  if (const auto* c = iter->as<ast::Call>(); c != nullptr && c->func->is<ast::Name>()) {
    const Intrinsic callee = intrinsicOf(c->func);
    if (callee == Intrinsic::Range) {
      std::optional<std::vector<NumbaType>> args = arguments(c);
      if (!args)
        return std::nullopt;
      if (!intrinsicInfo(callee).acceptsArgumentCount(args->size())) {
        error(DiagKind::TypeArity, c->range, {"range", "1 to 3", std::to_string(args->size())});
        return std::nullopt;
      }
      std::vector<ScalarKind> kinds;
      for (const NumbaType& a : *args)
        kinds.push_back(isIntegerOrBool(a) ? a.scalarKind() : ScalarKind::Float64);
      std::optional<ScalarKind> kind = rangeIterationType(kinds);
      if (!kind) {
        error(DiagKind::TypeBadArguments, c->range, {"range", typeList(*args)});
        return std::nullopt;
      }
      return NumbaType::scalar(*kind);
    }
    if (callee == Intrinsic::Enumerate || callee == Intrinsic::Zip) {
      if ((callee == Intrinsic::Enumerate && c->args.size() > 2) || c->args.empty() ||
          !c->keywords.empty()) {
        error(DiagKind::TypeArity, c->range,
              {callee == Intrinsic::Enumerate ? "enumerate" : "zip",
               callee == Intrinsic::Enumerate ? "1 or 2" : "1 or more",
               std::to_string(c->args.size() + c->keywords.size())});
        return std::nullopt;
      }
      // Each argument iterates as a `for` over it would: a tuple, an array (its items, or its
      // rows), a range, or an enumerate or zip in turn. enumerate's count is an intp (numba's
      // EnumerateType), from an integer `start`.
      std::vector<NumbaType> parts;
      std::vector<const ast::Expr*> iterables(c->args.begin(), c->args.end());
      if (callee == Intrinsic::Enumerate) {
        parts.push_back(NumbaType::scalar(ScalarKind::Int64));
        if (c->args.size() == 2) {
          OptType start = expr(c->args[1]);
          if (!start)
            return std::nullopt;
          if (!isIntegerType(*start)) {
            error(DiagKind::TypeBadArguments, c->range, {"enumerate", "`start` " + start->str()});
            return std::nullopt;
          }
          iterables.pop_back();
        }
      }
      for (const ast::Expr* a : iterables) {
        OptType element = iterationElement(a);
        if (!element)
          return std::nullopt;
        parts.push_back(*element);
      }
      return tupleOf(std::move(parts));
    }
  }
  OptType t = expr(iter);
  if (!t)
    return std::nullopt;
  if (t->kind() == NumbaType::Kind::UniTuple)
    return t->elements()[0];
  if (t->isArray() && t->ndim() == 1)
    return t->elementType();
  if (t->isArray())
    return t->withShape(t->ndim() - 1,
                        t->layout() == ArrayLayout::C ? ArrayLayout::C : ArrayLayout::A,
                        t->readonly());
  error(DiagKind::TypeNotIterable, iter->range, {t->str()});
  return std::nullopt;
}

} // namespace pyk::sema
