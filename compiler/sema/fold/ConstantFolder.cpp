// ConstantFolder: evaluates a module-level expression at compile time, as Python would, when
// every name in it is an import or an already folded constant.
// This file: the dispatch on the expression's kind, literals, names, attributes, tuples, operators,
// subscripts and the choice of callee; the calls themselves are in ConstantFolderBuiltins.cpp,
// ConstantFolderApiCalls.cpp, ConstantFolderArrays.cpp and ConstantFolderRecordTypes.cpp.
#include "sema/fold/ConstantFolder.h"

#include <algorithm>
#include <cmath>

#include "sema/catalog/ModuleApiCatalog.h"
#include "sema/fold/ConstantFolderInternal.h"
#include "sema/fold/ConstantOperators.h"
#include "sema/resolve/DottedName.h"

namespace pyk::sema {

using namespace folding;

namespace {

using Kind = ConstantValue::Kind;

constexpr int kMaxDepth = 256;

// Python's slice index adjustment (PySlice_AdjustIndices) over a sequence of `length`.
std::vector<size_t> sliceIndices(int64_t length, std::optional<int64_t> start,
                                 std::optional<int64_t> stop, int64_t step) {
  int64_t lo, hi;
  auto clamp = [&](std::optional<int64_t> v, int64_t fallback, bool isStart) {
    if (!v)
      return fallback;
    int64_t x = *v;
    if (x < 0) {
      x += length;
      if (x < 0)
        x = step < 0 ? -1 : 0;
    } else if (x >= length) {
      x = step < 0 ? length - 1 : length;
    }
    (void)isStart;
    return x;
  };
  lo = clamp(start, step < 0 ? length - 1 : 0, true);
  hi = clamp(stop, step < 0 ? -1 : length, false);
  std::vector<size_t> out;
  if (step > 0)
    for (int64_t i = lo; i < hi; i += step)
      out.push_back(static_cast<size_t>(i));
  else
    for (int64_t i = lo; i > hi; i += step)
      out.push_back(static_cast<size_t>(i));
  return out;
}

} // namespace

namespace folding {

bool isReal(const ConstantValue& v) {
  return isIntegral(v) || v.kind == Kind::Float;
}

FoldResult invalid(std::string message) {
  return FoldResult::error(DiagKind::ConstantInvalidOperation, {std::move(message)});
}

std::optional<FoldResult> extendShape(std::vector<int64_t>& shape, size_t dim, int64_t n,
                                      bool leafFound, const char* mixed, SourceRange range) {
  if (dim == shape.size()) {
    if (leafFound)
      return FoldResult::error(DiagKind::ConstantArrayNotRectangular, {mixed}, range);
    shape.push_back(n);
    return std::nullopt;
  }
  if (shape[dim] == n)
    return std::nullopt;
  return FoldResult::error(
      DiagKind::ConstantArrayNotRectangular,
      {"expected " + std::to_string(shape[dim]) + " elements, found " + std::to_string(n)}, range);
}

FoldResult notFolded(const std::string& what) {
  return FoldResult::notConstant(what + " is not folded");
}

// The builtin types `float`, `int`, `bool`, `complex` as numpy dtypes.
std::optional<ScalarKind> builtinDtype(const std::string& name) {
  if (name == "float")
    return ScalarKind::Float64;
  if (name == "int")
    return ScalarKind::Int64;
  if (name == "bool")
    return ScalarKind::Boolean;
  if (name == "complex")
    return ScalarKind::Complex128;
  return std::nullopt;
}

FoldResult floatToInt(double x, const char* context) {
  if (std::isnan(x))
    return invalid(std::string("cannot convert float nan to integer in `") + context + "`");
  if (std::isinf(x))
    return invalid(std::string("cannot convert float infinity to integer in `") + context + "`");
  if (std::fabs(x) >= 1.8e19)
    return FoldResult::notConstant("the integer does not fit in 64 bits");
  __int128 i = static_cast<__int128>(x);
  if (!fitsPythonInt(i))
    return FoldResult::notConstant("the integer does not fit in 64 bits");
  return FoldResult::constant(ConstantValue::pythonInt(i));
}

} // namespace folding

FoldResult ConstantFolder::fold(const ast::Expr* expr) {
  FoldResult result = eval(expr, 0);
  if (result.status() == FoldResult::Status::Error) {
    result.at(expr->range);
    diags_.report(result.errorKind(), result.range(), result.errorArgs());
  }
  return result;
}

FoldResult ConstantFolder::eval(const ast::Expr* expr, int depth) {
  if (depth > kMaxDepth)
    return FoldResult::notConstant("the expression is nested too deeply to fold");
  FoldResult result = [&]() -> FoldResult {
    switch (expr->kind) {
    case ast::NodeKind::Constant: {
      const auto* c = expr->as<ast::Constant>();
      switch (c->valueKind) {
      case ast::ConstantKind::None:
        return FoldResult::constant(ConstantValue::none());
      case ast::ConstantKind::Bool:
        return FoldResult::constant(ConstantValue::boolean(c->boolValue));
      case ast::ConstantKind::Int:
        if (c->intTooLarge || !fitsPythonInt(c->intValue))
          return FoldResult::notConstant("the integer literal does not fit in 64 bits");
        return FoldResult::constant(ConstantValue::pythonInt(c->intValue));
      case ast::ConstantKind::Float:
        return FoldResult::constant(ConstantValue::floating(c->floatValue));
      case ast::ConstantKind::Complex:
        return FoldResult::constant(ConstantValue::complex({0.0, c->floatValue}));
      case ast::ConstantKind::Str:
        return FoldResult::constant(ConstantValue::string(c->strValue));
      case ast::ConstantKind::Bytes:
        return FoldResult::notConstant("bytes are not constants numba can use");
      case ast::ConstantKind::Ellipsis:
        return FoldResult::notConstant("`...` is not a constant numba can use");
      }
      return FoldResult::notConstant("unknown literal");
    }
    case ast::NodeKind::Name:
      return evalName(expr->as<ast::Name>());
    case ast::NodeKind::Attribute:
      return evalAttribute(expr->as<ast::Attribute>(), depth);
    case ast::NodeKind::Tuple:
      return evalSequence(expr->as<ast::Tuple>()->elts, depth);
    case ast::NodeKind::BinOp: {
      const auto* b = expr->as<ast::BinOp>();
      FoldResult left = eval(b->left, depth + 1);
      if (!left.isConstant())
        return left;
      FoldResult right = eval(b->right, depth + 1);
      if (!right.isConstant())
        return right;
      if (left.value().kind == Kind::Array || right.value().kind == Kind::Array)
        return elementwise(b->op, left.value(), right.value());
      return applyBinaryOperator(b->op, left.value(), right.value());
    }
    case ast::NodeKind::UnaryOp: {
      const auto* u = expr->as<ast::UnaryOp>();
      FoldResult operand = eval(u->operand, depth + 1);
      if (!operand.isConstant())
        return operand;
      if (operand.value().kind == Kind::Array && u->op != ast::UnaryOpKind::Not)
        return elementwiseNegation(u->op, operand.value());
      return applyUnaryOperator(u->op, operand.value());
    }
    case ast::NodeKind::BoolOp: {
      // Python value semantics: the first falsy (and) / truthy (or) operand, else the last.
      const auto* b = expr->as<ast::BoolOp>();
      FoldResult current = FoldResult::notConstant("empty boolean operation");
      for (size_t i = 0; i < b->values.size(); ++i) {
        current = eval(b->values[i], depth + 1);
        if (!current.isConstant())
          return current;
        if (i + 1 == b->values.size())
          break;
        std::optional<bool> truth = truthValue(current.value());
        if (!truth)
          return FoldResult::notConstant("the truth value of an array is not a constant");
        if (*truth == (b->op == ast::BoolOpKind::Or))
          break;
      }
      return current;
    }
    case ast::NodeKind::Compare: {
      const auto* c = expr->as<ast::Compare>();
      FoldResult left = eval(c->left, depth + 1);
      if (!left.isConstant())
        return left;
      ConstantValue leftValue = left.value();
      for (size_t i = 0; i < c->ops.size(); ++i) {
        FoldResult right = eval(c->comparators[i], depth + 1);
        if (!right.isConstant())
          return right;
        FoldResult r = applyComparison(c->ops[i], leftValue, right.value());
        if (!r.isConstant() || i + 1 == c->ops.size() || !r.value().boolValue)
          return r;
        leftValue = right.value();
      }
      return FoldResult::notConstant("empty comparison");
    }
    case ast::NodeKind::IfExp: {
      const auto* e = expr->as<ast::IfExp>();
      FoldResult test = eval(e->test, depth + 1);
      if (!test.isConstant())
        return test;
      std::optional<bool> truth = truthValue(test.value());
      if (!truth)
        return FoldResult::notConstant("the truth value of an array is not a constant");
      return eval(*truth ? e->body : e->orelse, depth + 1);
    }
    case ast::NodeKind::Call:
      return evalCall(expr->as<ast::Call>(), depth);
    case ast::NodeKind::Subscript:
      return evalSubscript(expr->as<ast::Subscript>(), depth);
    case ast::NodeKind::ListComp:
    case ast::NodeKind::GeneratorExp:
      if (runningCode_)
        if (std::optional<FoldResult> r = runningCode_(expr))
          return *r;
      return notFolded("a comprehension outside the module's code");
    case ast::NodeKind::List:
      return FoldResult::notConstant("a list is not a constant numba can use (use a tuple)");
    case ast::NodeKind::Dict:
    case ast::NodeKind::Set:
      return FoldResult::notConstant("dicts and sets are not constants numba can use");
    case ast::NodeKind::JoinedStr:
      return notFolded("an f-string");
    default:
      return FoldResult::notConstant(std::string("a ") + ast::nodeKindName(expr->kind) +
                                     " expression is not folded");
    }
  }();
  if (result.status() != FoldResult::Status::Constant)
    result.at(expr->range);
  return result;
}

std::optional<FoldResult> ConstantFolder::evalArguments(const ast::Call* call, int depth,
                                                        std::vector<ConstantValue>& out) {
  for (const ast::Expr* arg : call->args) {
    FoldResult r = eval(arg, depth + 1);
    if (!r.isConstant())
      return r;
    out.push_back(r.value());
  }
  return std::nullopt;
}

FoldResult ConstantFolder::evalName(const ast::Name* name) {
  if (localNames_)
    if (std::optional<FoldResult> local = localNames_(name))
      return *local;
  const ModuleSymbol* symbol = symbols_.find(name->id);
  if (symbol == nullptr) {
    if (builtinDtype(name->id))
      return FoldResult::notConstant("`" + name->id + "` is a builtin function");
    return FoldResult::notConstant("`" + name->id + "` is not defined before this point");
  }
  switch (symbol->kind) {
  case ModuleSymbolKind::Constant:
    return FoldResult::constant(symbols_.constants()[symbol->index].value);
  case ModuleSymbolKind::Import: {
    const std::string& q = symbols_.imports()[symbol->index].qualifiedName;
    std::optional<ApiEntity> entity = lookupApi(q);
    if (entity && entity->kind == ApiKind::Type && !entity->type.isVoid())
      return FoldResult::constant(ConstantValue::type(entity->type));
    if (entity && entity->kind == ApiKind::Constant)
      return FoldResult::constant(ConstantValue::floating(entity->constantValue));
    return FoldResult::notConstant("`" + name->id + "` is the imported `" + q + "`");
  }
  case ModuleSymbolKind::HostValue:
    return FoldResult::notConstant("`" + name->id + "` is not a compile-time constant");
  case ModuleSymbolKind::CompiledFunction:
  case ModuleSymbolKind::HostFunction:
    return FoldResult::notConstant("`" + name->id + "` is a function");
  case ModuleSymbolKind::Class:
    return FoldResult::notConstant("`" + name->id + "` is a class");
  }
  return FoldResult::notConstant("unknown name");
}

FoldResult ConstantFolder::evalAttribute(const ast::Attribute* attribute, int depth) {
  if (std::optional<std::string> q = importedQualifiedName(attribute, symbols_)) {
    std::optional<ApiEntity> entity = lookupApi(*q);
    if (entity && entity->kind == ApiKind::Type && !entity->type.isVoid())
      return FoldResult::constant(ConstantValue::type(entity->type));
    if (entity && entity->kind == ApiKind::Constant)
      return FoldResult::constant(ConstantValue::floating(entity->constantValue));
    return FoldResult::notConstant("`" + *q + "` is not folded");
  }
  FoldResult base = eval(attribute->value, depth + 1);
  if (!base.isConstant())
    return base;
  const ConstantValue& v = base.value();
  const std::string& attr = attribute->attr;
  if (v.kind == Kind::EnumClass) {
    // `Color.red`: the member, as its value (an IntEnum member is an int, as numba computes
    // with it; pyk has no member type of its own).
    if (const ConstantValue* member = v.enumMember(attr))
      return FoldResult::constant(*member);
    return FoldResult::error(DiagKind::ConstantInvalidOperation,
                             {"type object '" + v.strValue + "' has no attribute '" + attr + "'"});
  }
  if (v.kind == Kind::Module) {
    // `config.TPB`: a constant of a module of the user's (its functions are no constants).
    if (const ConstantValue* member = v.member(attr))
      return FoldResult::constant(*member);
    return FoldResult::notConstant("`" + v.strValue + "." + attr +
                                   "` is not a compile-time constant of module `" + v.strValue +
                                   "`");
  }
  if (v.kind == Kind::Array) {
    const ConstantArray& a = *v.array;
    if (attr == "shape") {
      std::vector<ConstantValue> dims;
      for (int64_t d : a.shape)
        dims.push_back(ConstantValue::pythonInt(d));
      return FoldResult::constant(ConstantValue::tuple(std::move(dims)));
    }
    if (attr == "ndim")
      return FoldResult::constant(ConstantValue::pythonInt(static_cast<int64_t>(a.shape.size())));
    if (attr == "size")
      return FoldResult::constant(ConstantValue::pythonInt(a.size()));
    if (attr == "dtype")
      return FoldResult::constant(ConstantValue::type(a.elementType()));
  }
  if (v.isNumber() && (attr == "real" || attr == "imag")) {
    if (v.kind == Kind::Complex) {
      double part = attr == "real" ? v.complexValue.real() : v.complexValue.imag();
      ScalarKind f = v.scalar == ScalarKind::Complex64 ? ScalarKind::Float32 : ScalarKind::Float64;
      return FoldResult::constant(ConstantValue::floating(part, f, v.weak));
    }
    if (attr == "real")
      return base;
    ConstantValue zero = v;
    zero.intValue = 0;
    zero.floatValue = 0;
    zero.boolValue = false;
    if (v.kind == Kind::Bool)
      zero = ConstantValue::pythonInt(0);
    return FoldResult::constant(zero);
  }
  return notFolded("`." + attr + "` of " + v.typeDescription());
}

FoldResult ConstantFolder::evalSequence(const std::vector<ast::Expr*>& elements, int depth) {
  std::vector<ConstantValue> values;
  for (const ast::Expr* e : elements) {
    if (const auto* starred = e->as<ast::Starred>()) {
      FoldResult inner = eval(starred->value, depth + 1);
      if (!inner.isConstant())
        return inner;
      if (inner.value().kind != Kind::Tuple)
        return notFolded("unpacking " + inner.value().typeDescription());
      values.insert(values.end(), inner.value().elements.begin(), inner.value().elements.end());
      continue;
    }
    FoldResult r = eval(e, depth + 1);
    if (!r.isConstant())
      return r;
    values.push_back(r.value());
  }
  return FoldResult::constant(ConstantValue::tuple(std::move(values)));
}

FoldResult ConstantFolder::evalSubscript(const ast::Subscript* subscript, int depth) {
  FoldResult base = eval(subscript->value, depth + 1);
  if (!base.isConstant())
    return base;
  const ConstantValue& v = base.value();
  if (v.kind == Kind::EnumClass) {
    // `Color['red']`: the member named by a string.
    FoldResult key = eval(subscript->slice, depth + 1);
    if (!key.isConstant())
      return key;
    if (key.value().kind == Kind::Str)
      if (const ConstantValue* member = v.enumMember(key.value().strValue))
        return FoldResult::constant(*member);
    return FoldResult::error(DiagKind::ConstantInvalidOperation,
                             {"KeyError: " + key.value().repr()});
  }
  if (v.kind != Kind::Tuple)
    return notFolded("indexing " + v.typeDescription());
  int64_t length = static_cast<int64_t>(v.elements.size());
  if (const auto* slice = subscript->slice->as<ast::Slice>()) {
    auto bound = [&](const ast::Expr* e) -> std::optional<std::optional<int64_t>> {
      if (e == nullptr)
        return std::optional<int64_t>();
      FoldResult r = eval(e, depth + 1);
      if (r.isConstant() && r.value().kind == Kind::None)
        return std::optional<int64_t>();
      if (!r.isConstant() || !isIntegral(r.value()))
        return std::nullopt;
      __int128 x = asInt(r.value());
      x = std::max<__int128>(std::min<__int128>(x, INT64_MAX / 2), INT64_MIN / 2);
      return std::optional<int64_t>(static_cast<int64_t>(x));
    };
    auto lower = bound(slice->lower), upper = bound(slice->upper), step = bound(slice->step);
    if (!lower || !upper || !step)
      return notFolded("this slice");
    int64_t s = step->value_or(1);
    if (s == 0)
      return invalid("slice step cannot be zero");
    std::vector<ConstantValue> out;
    for (size_t i : sliceIndices(length, *lower, *upper, s))
      out.push_back(v.elements[i]);
    return FoldResult::constant(ConstantValue::tuple(std::move(out)));
  }
  FoldResult index = eval(subscript->slice, depth + 1);
  if (!index.isConstant())
    return index;
  if (!isIntegral(index.value()))
    return notFolded("indexing a tuple with " + index.value().typeDescription());
  __int128 i = asInt(index.value());
  if (i < 0)
    i += length;
  if (i < 0 || i >= length)
    return invalid("tuple index out of range");
  return FoldResult::constant(v.elements[static_cast<size_t>(i)]);
}

FoldResult ConstantFolder::evalCall(const ast::Call* call, int depth) {
  for (const ast::Expr* arg : call->args)
    if (arg->is<ast::Starred>())
      return notFolded("a call with `*` arguments");
  if (runningCode_)
    if (std::optional<FoldResult> r = runningCode_(call))
      return *r;
  // `a.reshape(shape)`, `a.astype(dtype)`, `a.copy()` of a folded array.
  if (const auto* method = call->func->as<ast::Attribute>();
      method != nullptr &&
      (method->attr == "reshape" || method->attr == "astype" || method->attr == "copy") &&
      !importedQualifiedName(call->func, symbols_)) {
    FoldResult base = eval(method->value, depth + 1);
    if (!base.isConstant())
      return base;
    if (base.value().kind == Kind::Array) {
      if (method->attr == "reshape")
        return evalReshape(base.value(), call, depth);
      if (method->attr == "copy" && call->args.empty() && call->keywords.empty())
        return base;
      if (method->attr == "astype" && call->args.size() == 1 && call->keywords.empty()) {
        const auto* name = call->args[0]->as<ast::Name>();
        std::optional<ScalarKind> dtype;
        if (name && symbols_.find(name->id) == nullptr && builtinDtype(name->id))
          dtype = builtinDtype(name->id);
        FoldResult d = eval(call->args[0], depth + 1);
        if (!dtype && d.isConstant() && d.value().kind == Kind::Type &&
            d.value().typeValue.isScalar())
          dtype = d.value().typeValue.scalarKind();
        if (!dtype && d.isConstant() && d.value().kind == Kind::Str)
          dtype = numpyScalarKindNamed(d.value().strValue);
        if (dtype)
          return castArray(base.value(), *dtype);
      }
      return notFolded("this method of an array");
    }
  }
  // The callee: a builtin (a bare name the module does not bind) or an imported API.
  std::string builtin;
  if (const auto* name = call->func->as<ast::Name>(); name && symbols_.find(name->id) == nullptr)
    builtin = name->id;
  std::optional<std::string> api = importedQualifiedName(call->func, symbols_);
  if (builtin.empty() && !api) {
    if (call->func->is<ast::Name>() || call->func->is<ast::Attribute>())
      return notFolded("a call of `" + dottedName(call->func) + "`");
    return notFolded("this call");
  }
  if (api)
    return evalApiCall(*api, call, depth);
  if (!call->keywords.empty() &&
      !(builtin == "round" && call->keywords.size() == 1 && call->keywords[0].arg == "ndigits"))
    return notFolded("a call of `" + builtin + "` with keyword arguments");
  std::vector<ConstantValue> args;
  if (std::optional<FoldResult> failed = evalArguments(call, depth, args))
    return *failed;
  for (const ast::Keyword& k : call->keywords) {
    FoldResult r = eval(k.value, depth + 1);
    if (!r.isConstant())
      return r;
    args.push_back(r.value());
  }
  return evalBuiltinCall(builtin, call, args);
}

} // namespace pyk::sema
