// ConstantFolderArrays: `np.array(<nested literals>, dtype=...)` folded at compile time into a
// constant array (numba freezes it into the kernel), with numpy's dtype inference, and
// `a.reshape(shape)` of such an array.
#include "sema/fold/ConstantFolder.h"

#include <algorithm>
#include <functional>
#include <memory>

#include "sema/fold/ConstantFolderInternal.h"
#include "sema/fold/ConstantOperators.h"

namespace pyk::sema {

using namespace folding;

namespace {

using Kind = ConstantValue::Kind;

} // namespace

FoldResult ConstantFolder::evalNumpyArray(const ast::Call* call, int depth) {
  if (call->args.empty() || call->args.size() > 2)
    return notFolded("this call of `numpy.array`");
  const ast::Expr* dtypeExpr = call->args.size() == 2 ? call->args[1] : nullptr;
  for (const ast::Keyword& k : call->keywords) {
    if (k.arg == "dtype")
      dtypeExpr = k.value;
    else
      return notFolded("`numpy.array` with `" + (k.arg.empty() ? std::string("**") : k.arg) + "`");
  }
  // The dtype, when given.
  std::optional<ScalarKind> dtype;
  if (dtypeExpr != nullptr) {
    const auto* name = dtypeExpr->as<ast::Name>();
    if (name && symbols_.find(name->id) == nullptr && builtinDtype(name->id)) {
      dtype = builtinDtype(name->id);
    } else {
      FoldResult d = eval(dtypeExpr, depth + 1);
      if (!d.isConstant())
        return d;
      if (d.value().kind == Kind::Type && d.value().typeValue.isRecord())
        return evalRecordArray(call->args[0], d.value().typeValue, depth);
      if (d.value().kind == Kind::Type && d.value().typeValue.isScalar())
        dtype = d.value().typeValue.scalarKind();
      else if (d.value().kind == Kind::Str && numpyScalarKindNamed(d.value().strValue))
        dtype = numpyScalarKindNamed(d.value().strValue);
      else if (d.value().kind == Kind::Str)
        return FoldResult::error(DiagKind::ConstantArrayBadDtype, {d.value().strValue},
                                 dtypeExpr->range);
      else if (d.value().kind == Kind::None)
        dtype = std::nullopt;
      else
        return notFolded("a dtype of " + d.value().typeDescription());
    }
  }
  // Flatten the nested literal, checking that it is rectangular.
  std::vector<int64_t> shape;
  std::vector<ConstantValue> values;
  // A folded value inside the literal (a tuple of numbers kept in a name, a list the module built):
  // its numbers, at dimension `dim`.
  std::function<FoldResult(const ConstantValue&, size_t, SourceRange)> flattenValue =
      [&](const ConstantValue& v, size_t dim, SourceRange range) -> FoldResult {
    if (v.kind == Kind::Tuple) {
      if (std::optional<FoldResult> bad =
              extendShape(shape, dim, static_cast<int64_t>(v.elements.size()), !values.empty(),
                          "expected a number, found a sequence", range))
        return *bad;
      for (const ConstantValue& e : v.elements) {
        FoldResult r = flattenValue(e, dim + 1, range);
        if (!r.isConstant())
          return r;
      }
      if (values.size() > static_cast<size_t>(kMaxArrayElements))
        return FoldResult::notConstant("the array literal is too large to freeze");
      return FoldResult::constant(ConstantValue::none());
    }
    if (!v.isNumber())
      return notFolded("an array of " + v.typeDescription());
    if (dim != shape.size())
      return FoldResult::error(DiagKind::ConstantArrayNotRectangular,
                               {"expected a sequence, found a number"}, range);
    values.push_back(v);
    return FoldResult::constant(ConstantValue::none());
  };
  std::function<FoldResult(const ast::Expr*, size_t, int)> flatten =
      [&](const ast::Expr* e, size_t dim, int d) -> FoldResult {
    const std::vector<ast::Expr*>* elts = nullptr;
    if (const auto* list = e->as<ast::List>())
      elts = &list->elts;
    else if (const auto* tuple = e->as<ast::Tuple>())
      elts = &tuple->elts;
    if (elts != nullptr) {
      if (std::optional<FoldResult> bad =
              extendShape(shape, dim, static_cast<int64_t>(elts->size()), !values.empty(),
                          "expected a number, found a sequence", e->range))
        return *bad;
      for (const ast::Expr* elt : *elts) {
        if (elt->is<ast::Starred>())
          return notFolded("unpacking in an array literal");
        FoldResult r = flatten(elt, dim + 1, d + 1);
        if (!r.isConstant())
          return r;
      }
      if (values.size() > static_cast<size_t>(kMaxArrayElements))
        return FoldResult::notConstant("the array literal is too large to freeze");
      return FoldResult::constant(ConstantValue::none());
    }
    FoldResult r = eval(e, d + 1);
    if (!r.isConstant())
      return r;
    return flattenValue(r.value(), dim, e->range);
  };
  const ast::Expr* data = call->args[0];
  FoldResult flattened = FoldResult::constant(ConstantValue::none());
  if (data->is<ast::List>() || data->is<ast::Tuple>()) {
    flattened = flatten(data, 0, depth + 1);
  } else {
    // `np.array(a)` / `np.asarray(a)` of an array folded already: its items (in a dtype); of a
    // tuple (or a list the module built): its numbers.
    FoldResult r = eval(data, depth + 1);
    if (!r.isConstant())
      return r;
    if (r.value().kind == Kind::Array)
      return dtype ? castArray(r.value(), *dtype) : r;
    if (r.value().kind != Kind::Tuple)
      return notFolded("`numpy.array` of " + r.value().typeDescription());
    flattened = flattenValue(r.value(), 0, data->range);
  }
  if (!flattened.isConstant())
    return flattened;
  if (!dtype) {
    // numpy's inference: the widest kind among the elements.
    bool anyStrong = false;
    ScalarKind strong = ScalarKind::Boolean;
    int weakCategory = 0; // 0 bool, 1 int, 2 float, 3 complex
    bool needsUnsigned = false;
    for (const ConstantValue& v : values) {
      int category = v.kind == Kind::Bool    ? 0
                     : v.kind == Kind::Int   ? 1
                     : v.kind == Kind::Float ? 2
                                             : 3;
      if (v.weak) {
        weakCategory = std::max(weakCategory, category);
        needsUnsigned = needsUnsigned || (v.kind == Kind::Int && v.intValue > INT64_MAX);
      } else if (!anyStrong) {
        anyStrong = true;
        strong = v.scalar;
      } else {
        FoldResult p = applyBinaryOperator(
            ast::BinOpKind::Add, castToScalar(ConstantValue::pythonInt(0), strong).value(),
            castToScalar(ConstantValue::pythonInt(0), v.scalar).value());
        if (p.isConstant())
          strong = p.value().scalar;
      }
    }
    static constexpr ScalarKind kWeakKinds[] = {ScalarKind::Boolean, ScalarKind::Int64,
                                                ScalarKind::Float64, ScalarKind::Complex128};
    ScalarKind weak =
        needsUnsigned && weakCategory == 1 ? ScalarKind::UInt64 : kWeakKinds[weakCategory];
    if (!anyStrong) {
      dtype = values.empty() ? ScalarKind::Float64 : weak;
    } else {
      ConstantValue probe = castToScalar(ConstantValue::pythonInt(0), strong).value();
      ConstantValue weakProbe = weakCategory == 0   ? ConstantValue::boolean(false)
                                : weakCategory == 1 ? ConstantValue::pythonInt(0)
                                : weakCategory == 2 ? ConstantValue::floating(0)
                                                    : ConstantValue::complex({0, 0});
      FoldResult p = applyBinaryOperator(ast::BinOpKind::Add, probe, weakProbe);
      dtype = p.isConstant() ? p.value().scalar : strong;
      if (dtype == ScalarKind::Boolean && weakCategory == 0)
        dtype = strong;
    }
  }
  auto array = std::make_shared<ConstantArray>();
  array->dtype = *dtype;
  array->shape = shape;
  for (const ConstantValue& v : values) {
    FoldResult converted = castToScalar(v, *dtype);
    if (!converted.isConstant())
      return converted;
    array->values.push_back(converted.value());
  }
  return FoldResult::constant(ConstantValue::arrayOf(std::move(array)));
}

FoldResult ConstantFolder::evalReshape(const ConstantValue& array, const ast::Call* call,
                                       int depth) {
  if (!call->keywords.empty())
    return notFolded("`reshape` with keyword arguments");
  std::vector<ConstantValue> args;
  if (std::optional<FoldResult> failed = evalArguments(call, depth, args))
    return *failed;
  std::vector<ConstantValue> dims = args;
  if (args.size() == 1 && args[0].kind == Kind::Tuple)
    dims = args[0].elements;
  const ConstantArray& a = *array.array;
  std::vector<int64_t> shape;
  int64_t known = 1;
  int unknown = -1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].kind != Kind::Int)
      return invalid("`reshape` takes integers, not " + dims[i].typeDescription());
    const auto extent = static_cast<int64_t>(dims[i].intValue);
    if (extent == -1 && unknown < 0) {
      unknown = static_cast<int>(i);
    } else if (extent < 0) {
      return invalid("`reshape`: negative dimensions are not allowed");
    } else {
      known *= extent;
    }
    shape.push_back(extent);
  }
  if (unknown >= 0 && known != 0 && a.size() % known == 0)
    shape[static_cast<size_t>(unknown)] = a.size() / known;
  else if (unknown >= 0)
    return invalid("cannot reshape an array of size " + std::to_string(a.size()));
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  if (count != a.size())
    return invalid("cannot reshape an array of size " + std::to_string(a.size()) +
                   " into the shape of " + std::to_string(count) + " items");
  if (shape.empty())
    return notFolded("a 0-dimensional array");
  auto reshaped = std::make_shared<ConstantArray>(a);
  reshaped->shape = std::move(shape);
  return FoldResult::constant(ConstantValue::arrayOf(std::move(reshaped)));
}

} // namespace pyk::sema
