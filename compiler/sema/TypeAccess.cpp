// TypeAccess: typing of attributes and subscripts — array metadata (`shape`, `size`, `ndim`,
// `strides`, `T`), record fields, named-tuple fields, complex parts, tuple items (constant
// indices for heterogeneous tuples), array items and views.
#include "sema/FunctionTyper.h"

namespace pyk::sema {

OptType FunctionTyper::recordField(const NumbaType& record, const std::string& name,
                                   SourceRange at) {
  if (const RecordField* f = record.recordLayout().field(name))
    return NumbaType::scalar(f->type);
  error(DiagKind::TypeUnknownAttribute, at, {record.str(), name});
  return std::nullopt;
}

OptType FunctionTyper::visitAttribute(const ast::Attribute* a) {
  if (const Intrinsic id = intrinsicOf(a); id != Intrinsic::None)
    return intrinsicValue(id);
  if (!apiName(a).empty())
    return std::nullopt; // a module, or a function of no intrinsic: no value of its own
  OptType base = expr(a->value);
  if (!base)
    return std::nullopt;
  if (base->isArray()) {
    if (a->attr == "shape" || a->attr == "strides")
      return NumbaType::uniTuple(NumbaType::scalar(ScalarKind::Int64), base->ndim());
    if (a->attr == "size" || a->attr == "ndim")
      return NumbaType::scalar(ScalarKind::Int64);
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
  if ((base->isScalar() || base->isArray()) && (a->attr == "real" || a->attr == "imag"))
    return realOrImag(*base, a->attr == "imag", a->attrRange);
  error(DiagKind::TypeUnknownAttribute, a->attrRange, {base->str(), a->attr});
  return std::nullopt;
}

// numba's typing of .real / .imag (Number's attributes, arraydecl's _resolve_real_imag): a
// complex number's float parts, a real number itself (or a zero of its type); a complex array's
// parts as float arrays of layout A (views of every other float); a real array's `.real` is the
// array, its `.imag` a new zero array, which kernels cannot allocate.
OptType FunctionTyper::realOrImag(const NumbaType& base, bool imaginary, SourceRange at) {
  const std::string attr = imaginary ? "imag" : "real";
  if (base.isScalar() || base.isArray()) {
    const ScalarKind k = base.scalarKind();
    const ScalarKind part = k == ScalarKind::Complex64    ? ScalarKind::Float32
                            : k == ScalarKind::Complex128 ? ScalarKind::Float64
                                                          : k;
    const bool number = k != ScalarKind::Boolean && !base.isRecordArray();
    if (number && base.isScalar())
      return NumbaType::scalar(part);
    if (number && isComplex(k))
      return NumbaType::array(part, base.ndim(), ArrayLayout::A, base.readonly());
    if (number && !imaginary)
      return base;
    if (number) {
      error(DiagKind::TypeNotSupported, at,
            {"`.imag` of `" + base.str() + "` (numba allocates an array of zeros for it)"});
      return std::nullopt;
    }
  }
  error(DiagKind::TypeUnknownAttribute, at, {base.str(), attr});
  return std::nullopt;
}

OptType FunctionTyper::visitSubscript(const ast::Subscript* s) {
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

} // namespace pyk::sema
