// LowerAccess: attributes and subscripts as IR — Enum members, intrinsic values, array metadata,
// record fields (of a record, of every record of a record array), vector members, named-tuple and
// tuple elements, complex parts, array items and views.
#include "lower/FunctionLowering.h"
#include "sema/catalog/VectorTypes.h"
#include "sema/fold/FunctionConstants.h"
#include "sema/resolve/DottedName.h"

namespace pyk::lower {

std::vector<const ast::Expr*> FunctionLowering::subscriptItems(const ast::Subscript* s) const {
  if (auto it = spec_.indexItems.find(s); it != spec_.indexItems.end())
    return it->second; // `a[p]` of a tuple variable p: p[0], p[1], ...; `...` as slices
  std::vector<const ast::Expr*> items;
  if (const auto* tuple = s->slice->as<ast::Tuple>())
    items.assign(tuple->elts.begin(), tuple->elts.end());
  else
    items.push_back(s->slice);
  return items;
}

ir::Expr* FunctionLowering::arrayAddress(const ast::Expr* array, const NumbaType& type,
                                         SourceRange at) {
  ir::Expr* value = expr(array);
  if (value == nullptr)
    return nullptr;
  auto* out = makeExpr<ir::ArrayAttribute>(at, type);
  out->member = sema::ValueMember::CtypesData;
  out->array = value;
  return out;
}

ir::Expr* FunctionLowering::enumOrModuleConstant(const sema::ConstantValue& v, const NumbaType& t,
                                                 SourceRange at) {
  if (!t.isEnumMember())
    return frozenConstant(v, t, at, "");
  return as(frozenConstant(v, t.enumValue(), at, ""), t); // an Enum member is its value in C++
}

ir::Expr* FunctionLowering::visitAttribute(const ast::Attribute* a, const NumbaType* t) {
  if (t != nullptr)
    if (std::optional<sema::ConstantValue> member =
            sema::enumMember(scope_, definingModule().symbols, a))
      return enumOrModuleConstant(*member, *t, a->range); // `Color.red`, `config.TPB`
  if (const sema::Intrinsic id = spec_.intrinsicOf(a); id != sema::Intrinsic::None)
    return intrinsicValue(id, a, t);
  if (const std::string api = sema::qualifiedApiName(scope_, a); !api.empty()) {
    unsupported(a->range, "`" + api + "` as a value");
    return nullptr;
  }
  const NumbaType* base = typeOf(a->value);
  if (base != nullptr && base->isRecord())
    return recordField(a->value, *base, a->attr, a->range, t);
  if (base != nullptr && base->isRecordArray() && t != nullptr && t->isArray() &&
      base->recordLayout().field(a->attr) != nullptr) {
    ir::Expr* array = expr(a->value);
    if (array == nullptr)
      return nullptr;
    auto* out = makeExpr<ir::RecordArrayField>(a->range, *t);
    out->array = array;
    out->field = a->attr;
    return out;
  }
  if (base != nullptr && base->isVector() && t != nullptr)
    if (const std::optional<int> index = sema::vectorMemberIndex(*base, a->attr)) {
      ir::Expr* vector = expr(a->value);
      if (vector == nullptr)
        return nullptr;
      auto* out = makeExpr<ir::VectorMember>(a->range, *t);
      out->vector = vector;
      out->index = *index;
      return out;
    }
  if (base != nullptr && base->isNamedTuple())
    for (size_t i = 0; i < base->fieldNames().size(); ++i)
      if (base->fieldNames()[i] == a->attr) {
        ir::Expr* tuple = expr(a->value);
        if (tuple == nullptr)
          return nullptr;
        auto* out = makeExpr<ir::TupleElement>(a->range, base->elements()[i]);
        out->tuple = tuple;
        out->index = static_cast<int64_t>(i);
        out->byField = true;
        return out;
      }
  const sema::ValueMember member = sema::attributeNamed(a->attr);
  if (base != nullptr && base->isEnumMember() && member == sema::ValueMember::EnumValue)
    return as(expr(a->value), base->enumValue()); // the same C++ value
  if (base != nullptr && (base->isScalar() || base->isArray()) &&
      (member == sema::ValueMember::Real || member == sema::ValueMember::Imag) && t != nullptr) {
    ir::Expr* value = expr(a->value);
    if (value == nullptr)
      return nullptr;
    auto* out = makeExpr<ir::ComplexPart>(a->range, *t);
    out->imaginary = member == sema::ValueMember::Imag;
    out->value = value;
    return out;
  }
  if (const ast::Expr* array = sema::ctypesDataOf(a);
      array != nullptr && t != nullptr && typeOf(array) != nullptr && typeOf(array)->isArray()) {
    return arrayAddress(array, *t, a->range); // `a.ctypes.data`: its first item's address
  }
  if (base != nullptr && base->isArray() && t != nullptr &&
      (member == sema::ValueMember::Size || member == sema::ValueMember::Ndim ||
       member == sema::ValueMember::Shape || member == sema::ValueMember::Strides ||
       (member == sema::ValueMember::Transpose && t->isArray()))) {
    ir::Expr* array = expr(a->value);
    if (array == nullptr)
      return nullptr;
    auto* out = makeExpr<ir::ArrayAttribute>(a->range, *t);
    out->member = member;
    out->array = array;
    return out;
  }
  unsupported(a->range, "this attribute");
  return nullptr;
}

ir::Expr* FunctionLowering::visitSubscript(const ast::Subscript* s, const NumbaType* t) {
  if (t != nullptr)
    if (std::optional<sema::ConstantValue> member =
            sema::enumMember(scope_, definingModule().symbols, s))
      return enumOrModuleConstant(*member, *t, s->range); // `Color['red']`
  const NumbaType* base = typeOf(s->value);
  if (base == nullptr || t == nullptr) {
    unsupported(s->range, "this subscript");
    return nullptr;
  }
  if (base->isRecord()) {
    const auto* k = s->slice->as<ast::Constant>();
    if (k != nullptr && k->valueKind == ast::ConstantKind::Int && k->intValue >= 0 &&
        k->intValue < static_cast<__int128>(base->recordLayout().fields.size()))
      return recordField(s->value, *base,
                         base->recordLayout().fields[static_cast<size_t>(k->intValue)].name,
                         s->range, t);
    if (k == nullptr || k->valueKind != ast::ConstantKind::Str) {
      unsupported(s->range, "this record subscript");
      return nullptr;
    }
    return recordField(s->value, *base, k->strValue, s->range, t);
  }
  if (base->isRecordArray() && t->isArray())
    if (const auto* k = s->slice->as<ast::Constant>();
        k && k->valueKind == ast::ConstantKind::Str) {
      ir::Expr* array = expr(s->value);
      if (array == nullptr)
        return nullptr;
      auto* out = makeExpr<ir::RecordArrayField>(s->range, *t);
      out->array = array;
      out->field = k->strValue;
      return out;
    }
  if (base->isTuple()) {
    if (base->kind() == NumbaType::Kind::UniTuple) {
      ir::Expr* tuple = expr(s->value);
      ir::Expr* index = expr(s->slice);
      if (tuple == nullptr || index == nullptr)
        return nullptr;
      auto* out = makeExpr<ir::TupleSubscript>(s->range, *t);
      out->tuple = tuple;
      out->index = index;
      return out;
    }
    const auto* k = s->slice->as<ast::Constant>();
    if (k == nullptr || k->valueKind != ast::ConstantKind::Int) {
      unsupported(s->range, "indexing a heterogeneous tuple with anything but a literal");
      return nullptr;
    }
    const int64_t n = static_cast<int64_t>(base->elements().size());
    const int64_t i = static_cast<int64_t>(k->intValue);
    ir::Expr* tuple = expr(s->value);
    if (tuple == nullptr)
      return nullptr;
    auto* out = makeExpr<ir::TupleElement>(s->range, *t);
    out->tuple = tuple;
    out->index = i < 0 ? i + n : i;
    return out;
  }
  const std::vector<const ast::Expr*> items = subscriptItems(s);
  bool ok = true;
  if (t->isArray()) {
    // A view: integer indices and slices per dimension indexed, the rest kept whole.
    auto* out = makeExpr<ir::ArrayView>(s->range, *t);
    out->array = expr(s->value);
    ok = out->array != nullptr;
    for (const ast::Expr* item : items) {
      if (const auto* sl = item->as<ast::Slice>()) {
        auto* slice = makeExpr<ir::Slice>(sl->range, NumbaType());
        slice->lower = sl->lower != nullptr ? expr(sl->lower) : nullptr;
        slice->upper = sl->upper != nullptr ? expr(sl->upper) : nullptr;
        slice->step = sl->step != nullptr ? expr(sl->step) : nullptr;
        ok = ok && (sl->lower == nullptr || slice->lower != nullptr) &&
             (sl->upper == nullptr || slice->upper != nullptr) &&
             (sl->step == nullptr || slice->step != nullptr);
        out->items.push_back(slice);
        continue;
      }
      out->items.push_back(expr(item));
      ok = ok && out->items.back() != nullptr;
    }
    return ok ? out : nullptr;
  }
  // One item (a record referred to where it lies; a CPointer's, its index an intp).
  auto* out = makeExpr<ir::ArrayElement>(s->range, *t);
  out->array = expr(s->value);
  ok = out->array != nullptr;
  for (const ast::Expr* item : items) {
    out->indices.push_back(base->isPointer() ? exprAs(item, ScalarKind::Int64) : expr(item));
    ok = ok && out->indices.back() != nullptr;
  }
  return ok ? out : nullptr;
}

// A record's field: reported when the record has none by that name.
ir::Expr* FunctionLowering::recordField(const ast::Expr* record, const NumbaType& recordType,
                                        const std::string& name, SourceRange at,
                                        const NumbaType* t) {
  const types::RecordField* f = recordType.recordLayout().field(name);
  if (f == nullptr || t == nullptr) {
    unsupported(at, "this record field");
    return nullptr;
  }
  ir::Expr* value = expr(record);
  if (value == nullptr)
    return nullptr;
  auto* out = makeExpr<ir::RecordField>(at, *t);
  out->record = value;
  out->field = name;
  return out;
}

} // namespace pyk::lower
