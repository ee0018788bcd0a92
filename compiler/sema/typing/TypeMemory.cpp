// TypeMemory: typing of the arrays a kernel makes — `cuda.shared.array(shape, dtype)`,
// `cuda.local.array(shape, dtype)` (shapes folded to constants), `cuda.const.array_like(a)` —
// and of dtype arguments (numba and numpy type objects, numpy's dtype names, module-level dtypes,
// structured ones included).
#include <algorithm>

#include "base/ArrayAlignment.h"
#include "sema/fold/ConstantFolder.h"
#include "sema/fold/FunctionConstants.h"
#include "sema/resolve/ConstantArguments.h"
#include "sema/resolve/DottedName.h"
#include "sema/typing/FunctionTyper.h"

namespace pyk::sema {

OptType FunctionTyper::dtype(const ast::Expr* e) {
  if (const std::optional<ScalarKind> k = scalarTypeObject(fn_.scope, e))
    return NumbaType::scalar(*k);
  // A variable holding a type object (a device function's parameter given `float32`).
  if (const auto* n = e->as<ast::Name>()) {
    auto it = fn_.scope.names.find(n);
    if (it != fn_.scope.names.end() && (it->second.kind == NameBinding::Kind::Parameter ||
                                        it->second.kind == NameBinding::Kind::Local))
      if (OptType t = expr(e); t && t->isTypeRef())
        return NumbaType::scalar(t->scalarKind());
  }
  // `a.dtype` of an array `a` (numba's DType of its items): its scalar or record type.
  if (const auto* a = e->as<ast::Attribute>(); a != nullptr && a->attr == "dtype")
    if (OptType t = expr(a->value); t && t->isArray())
      return t->elementType();
  const std::string api = apiName(e);
  const auto* c = e->as<ast::Constant>();
  const bool named = c != nullptr && c->valueKind == ast::ConstantKind::Str;
  if (named)
    if (std::optional<ScalarKind> k = numpyScalarKindNamed(c->strValue))
      return NumbaType::scalar(*k);
  // A module-level dtype: a structured `np.dtype(...)` (a record) or a scalar one.
  if (!named && api.empty()) {
    DiagnosticEngine quiet;
    ConstantFolder folder(module_.symbols, quiet);
    folder.setLocalNames(functionLocalNames(spec_, folder));
    FoldResult r = folder.fold(e);
    if (r.isConstant() && r.value().kind == ConstantValue::Kind::Type &&
        (r.value().typeValue.isScalar() || r.value().typeValue.isRecord()))
      return r.value().typeValue;
  }
  std::string shown = api;
  if (named)
    shown = "'" + c->strValue + "'";
  else if (shown.empty())
    shown = dottedName(e);
  if (shown.empty())
    shown = std::string("this ") + ast::nodeKindName(e->kind) + " expression";
  error(DiagKind::TypeNotADtype, e->range, {shown});
  return std::nullopt;
}

// numba-cuda's `alignment=` of a shared or local array (numba 0.56 has none): None, or a constant
// power of 2 that is a multiple of a pointer's size (cudaimpl's _validate_alignment).
bool FunctionTyper::arrayAlignment(const ast::Expr* e) {
  std::optional<ConstantValue> a = constant(e, "the alignment of an array");
  if (!a)
    return false;
  if (a->kind == ConstantValue::Kind::None)
    return true;
  const char* problem = nullptr;
  if (a->kind != ConstantValue::Kind::Int)
    problem = "it must be an integer";
  else if (a->intValue <= 0)
    problem = "it must be positive";
  else if ((a->intValue & (a->intValue - 1)) != 0)
    problem = "it must be a power of 2";
  else if (a->intValue % 8 != 0)
    problem = "it must be a multiple of 8 (a pointer's size)";
  else if (a->intValue > types::kMaxArrayAlignment)
    problem = "pyk aligns arrays to at most 4096 bytes";
  if (problem == nullptr)
    return true;
  error(DiagKind::ArrayAlignmentInvalid, e->range, {a->repr(), problem});
  return false;
}

OptType FunctionTyper::arrayConstructor(const IntrinsicInfo& info, const ast::Call* c) {
  const std::string name(info.name);
  const ast::Expr* shapeArg = c->args.size() > 0 ? c->args[0] : nullptr;
  const ast::Expr* dtypeArg = c->args.size() > 1 ? c->args[1] : nullptr;
  const ast::Expr* alignmentArg = c->args.size() > 2 ? c->args[2] : nullptr;
  for (const ast::Keyword& k : c->keywords) {
    if (k.arg == "shape" || k.arg == "ary") {
      shapeArg = k.value;
    } else if (k.arg == "dtype") {
      dtypeArg = k.value;
    } else if (k.arg == "alignment" && info.typing != IntrinsicTyping::ConstArrayLike) {
      alignmentArg = k.value;
    } else {
      error(DiagKind::DecoratorUnknownKeyword, k.range, {std::string(info.shortName()), k.arg});
      return std::nullopt;
    }
  }
  if (alignmentArg != nullptr && !arrayAlignment(alignmentArg))
    return std::nullopt;
  if (info.typing == IntrinsicTyping::ConstArrayLike) {
    if (shapeArg == nullptr) {
      error(DiagKind::TypeArity, c->range, {name, "1", "0"});
      return std::nullopt;
    }
    OptType t = expr(shapeArg);
    if (t && t->isArray())
      return t->withShape(t->ndim(), ArrayLayout::C, /*readonly=*/true);
    if (t)
      error(DiagKind::TypeBadArguments, c->range, {name, t->str()});
    return std::nullopt;
  }
  if (shapeArg == nullptr || dtypeArg == nullptr) {
    error(DiagKind::TypeArity, c->range,
          {name, "2 (shape, dtype)", std::to_string(c->args.size())});
    return std::nullopt;
  }
  std::optional<ConstantValue> shape = constant(shapeArg, "an array shape");
  OptType elementType = dtype(dtypeArg);
  if (!shape || !elementType)
    return std::nullopt;
  if (std::optional<std::string> problem =
          arrayShapeProblem(*shape, info.id == Intrinsic::SharedArray)) {
    error(DiagKind::ArrayShapeInvalid, shapeArg->range, {shape->repr(), *problem});
    return std::nullopt;
  }
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
  return NumbaType::arrayOf(*elementType, ndim, ArrayLayout::C);
}

} // namespace pyk::sema
