// TypeExpressionReader: numba types written as Python expressions rather than strings
// (`float32[:, ::1]`, `void(float32[:], int32)`, `numba.types.UniTuple(int64, 2)`,
// `numba.types.Array(float64, 0, 'C')`), read through
// the module's imports.
#include "sema/resolve/TypeExpressionReader.h"

#include "sema/catalog/ModuleApiCatalog.h"

namespace pyk::sema {

namespace {

std::optional<ApiEntity> apiEntityOf(const ast::Expr* expr, const ModuleSymbolTable& symbols) {
  std::optional<std::string> q = importedQualifiedName(expr, symbols);
  if (!q)
    return std::nullopt;
  return lookupApi(*q);
}

std::optional<int64_t> smallInt(const ast::Expr* expr) {
  const auto* c = expr->as<ast::Constant>();
  if (c == nullptr || c->valueKind != ast::ConstantKind::Int || c->intTooLarge || c->intValue < 0 ||
      c->intValue > (1 << 16))
    return std::nullopt;
  return static_cast<int64_t>(c->intValue);
}

// One array dimension: `:` (false) or `::1` (true); none otherwise.
std::optional<bool> readDimension(const ast::Expr* expr) {
  const auto* slice = expr->as<ast::Slice>();
  if (slice == nullptr || slice->lower != nullptr || slice->upper != nullptr)
    return std::nullopt;
  if (slice->step == nullptr)
    return false;
  std::optional<int64_t> step = smallInt(slice->step);
  if (!step || *step != 1)
    return std::nullopt;
  return true;
}

} // namespace

std::optional<NumbaType> readTypeExpression(const ast::Expr* expr, const ModuleSymbolTable& symbols,
                                            bool allowVoid) {
  if (const auto* subscript = expr->as<ast::Subscript>()) {
    std::optional<NumbaType> dtype = readTypeExpression(subscript->value, symbols);
    if (!dtype || !(dtype->isScalar() || dtype->isRecord()))
      return std::nullopt;
    std::vector<const ast::Expr*> dims;
    if (const auto* tuple = subscript->slice->as<ast::Tuple>())
      dims.assign(tuple->elts.begin(), tuple->elts.end());
    else
      dims.push_back(subscript->slice);
    std::vector<bool> contiguous;
    for (const ast::Expr* d : dims) {
      std::optional<bool> c = readDimension(d);
      if (!c)
        return std::nullopt;
      contiguous.push_back(*c);
    }
    int ndim = static_cast<int>(contiguous.size());
    int count = 0;
    for (bool c : contiguous)
      count += c;
    if (ndim < 1 || ndim > NumbaType::kMaxArrayDims || count > 1)
      return std::nullopt;
    ArrayLayout layout = ArrayLayout::A;
    if (contiguous.back())
      layout = ArrayLayout::C;
    else if (contiguous.front())
      layout = ArrayLayout::F;
    else if (count != 0)
      return std::nullopt;
    if (dtype->isRecord())
      return NumbaType::recordArray(*dtype, ndim, layout);
    return NumbaType::array(dtype->scalarKind(), ndim, layout);
  }
  if (const auto* call = expr->as<ast::Call>()) {
    std::optional<ApiEntity> ctor = apiEntityOf(call->func, symbols);
    if (!ctor || ctor->kind != ApiKind::TypeConstructor || !call->keywords.empty())
      return std::nullopt;
    if (ctor->qualifiedName == "numba.types.UniTuple" && call->args.size() == 2) {
      std::optional<NumbaType> element = readTypeExpression(call->args[0], symbols);
      std::optional<int64_t> count = smallInt(call->args[1]);
      if (!element || !count || *count < 1)
        return std::nullopt;
      return NumbaType::uniTuple(*element, static_cast<int>(*count));
    }
    if (ctor->qualifiedName == "numba.types.Array" && call->args.size() == 3) {
      // numba.types.Array(float64, 0, 'C'): the only spelling of a 0-d array type.
      std::optional<NumbaType> dtype = readTypeExpression(call->args[0], symbols);
      std::optional<int64_t> ndim = smallInt(call->args[1]);
      const auto* layoutText = call->args[2]->as<ast::Constant>();
      if (!dtype || !(dtype->isScalar() || dtype->isRecord()) || !ndim ||
          *ndim > NumbaType::kMaxArrayDims || layoutText == nullptr ||
          layoutText->valueKind != ast::ConstantKind::Str)
        return std::nullopt;
      ArrayLayout layout;
      if (layoutText->strValue == "C")
        layout = ArrayLayout::C;
      else if (layoutText->strValue == "F")
        layout = ArrayLayout::F;
      else if (layoutText->strValue == "A")
        layout = ArrayLayout::A;
      else
        return std::nullopt;
      if (dtype->isRecord())
        return NumbaType::recordArray(*dtype, static_cast<int>(*ndim), layout);
      return NumbaType::array(dtype->scalarKind(), static_cast<int>(*ndim), layout);
    }
    if (ctor->qualifiedName == "numba.types.CPointer" && call->args.size() == 1) {
      // numba.types.CPointer(int32): a raw pointer to scalars (`int32*`).
      std::optional<NumbaType> pointee = readTypeExpression(call->args[0], symbols);
      if (!pointee || !pointee->isScalar())
        return std::nullopt;
      return NumbaType::pointer(pointee->scalarKind());
    }
    if (ctor->qualifiedName == "numba.types.Tuple" && call->args.size() == 1) {
      const auto* tuple = call->args[0]->as<ast::Tuple>();
      if (tuple == nullptr)
        return std::nullopt;
      std::vector<NumbaType> elements;
      for (const ast::Expr* e : tuple->elts) {
        std::optional<NumbaType> t = readTypeExpression(e, symbols);
        if (!t)
          return std::nullopt;
        elements.push_back(*t);
      }
      return NumbaType::tuple(std::move(elements));
    }
    return std::nullopt;
  }
  if (const auto* name = expr->as<ast::Name>()) {
    if (const ModuleConstant* constant = symbols.constantNamed(name->id)) {
      if (constant->value.kind == ConstantValue::Kind::Type)
        return constant->value.typeValue;
      return std::nullopt;
    }
  }
  std::optional<ApiEntity> entity = apiEntityOf(expr, symbols);
  if (!entity || entity->kind != ApiKind::Type)
    return std::nullopt;
  if (entity->type.isVoid() && !allowVoid)
    return std::nullopt;
  return entity->type;
}

std::optional<FunctionSignature> readSignatureExpression(const ast::Expr* expr,
                                                         const ModuleSymbolTable& symbols) {
  FunctionSignature signature;
  const std::vector<ast::Expr*>* args = nullptr;
  if (const auto* call = expr->as<ast::Call>()) {
    std::optional<NumbaType> ret = readTypeExpression(call->func, symbols, /*allowVoid=*/true);
    if (!ret || !call->keywords.empty())
      return std::nullopt;
    signature.returnType = *ret;
    args = &call->args;
  } else if (const auto* tuple = expr->as<ast::Tuple>()) {
    args = &tuple->elts;
  } else {
    return std::nullopt;
  }
  for (const ast::Expr* arg : *args) {
    std::optional<NumbaType> t = readTypeExpression(arg, symbols);
    if (!t)
      return std::nullopt;
    signature.params.push_back(*t);
  }
  return signature;
}

} // namespace pyk::sema
