// TypeAccess: typing of attributes and subscripts — array metadata (`shape`, `size`, `ndim`,
// `strides`, `T`), record fields (scalars, sub-arrays, nested records; a field of every record of
// a record array), vector members (TypeVectors.cpp), named-tuple fields, complex parts, tuple
// items (constant indices for heterogeneous tuples), array items and views.
#include "sema/catalog/ValueMember.h"
#include "sema/fold/FunctionConstants.h"
#include "sema/resolve/DottedName.h"
#include "sema/typing/FunctionTyper.h"
#include "sema/typing/TypeRules.h"

namespace pyk::sema {

OptType FunctionTyper::recordField(const NumbaType& record, const std::string& name,
                                   SourceRange at) {
  const RecordField* f = record.recordLayout().field(name);
  if (f == nullptr) {
    error(DiagKind::TypeUnknownAttribute, at, {record.str(), name});
    return std::nullopt;
  }
  OptType t = recordFieldType(*f);
  if (!t)
    error(DiagKind::TypeNotSupported, at,
          {"the field `" + name + "` of `" + record.str() + "` (a character sequence)"});
  return t;
}

OptType FunctionTyper::recordArrayField(const NumbaType& array, const std::string& name,
                                        SourceRange at) {
  // numba: the field of every record, a view of layout A; a sub-array field adds its dimensions.
  const RecordField* f = array.recordLayout().field(name);
  if (f == nullptr) {
    error(DiagKind::TypeUnknownAttribute, at, {array.str(), name});
    return std::nullopt;
  }
  OptType item = recordFieldType(*f);
  if (!item) {
    error(DiagKind::TypeNotSupported, at,
          {"the field `" + name + "` of `" + array.str() + "` (a character sequence)"});
    return std::nullopt;
  }
  const int ndim = array.ndim() + (item->isArray() ? item->ndim() : 0);
  if (ndim > NumbaType::kMaxArrayDims) {
    error(DiagKind::TypeNotSupported, at, {"an array of more than 8 dimensions"});
    return std::nullopt;
  }
  const NumbaType element = item->isArray() ? item->elementType() : *item;
  return NumbaType::arrayOf(element, ndim, ArrayLayout::A, array.readonly());
}

namespace {

bool isEllipsis(const ast::Expr* index) {
  const auto* k = index->as<ast::Constant>();
  return k != nullptr && k->valueKind == ast::ConstantKind::Ellipsis;
}

} // namespace

ArrayLayout viewLayout(const NumbaType& base, const std::vector<const ast::Expr*>& indices) {
  // numba's rule (arraydecl's keeps_contiguity): from the outside in (C: left to right; F:
  // right to left), integers and an ellipsis keep the view contiguous, and so does a slice
  // without a step as the innermost index given; anything else makes it A. The indices after an
  // ellipsis (before it, for F) make a view A, unless the ellipsis stands for no dimension.
  auto keeps = [&](const ast::Expr* index, bool innermost) {
    const auto* slice = index->as<ast::Slice>();
    return slice == nullptr || (innermost && slice->step == nullptr);
  };
  auto contiguous = [&](const std::vector<const ast::Expr*>& outerFirst) {
    for (size_t i = 0; i < outerFirst.size(); ++i)
      if (!keeps(outerFirst[i], i + 1 == outerFirst.size()))
        return false;
    return true;
  };
  std::vector<const ast::Expr*> before, after;
  bool ellipsis = false;
  for (const ast::Expr* index : indices) {
    if (isEllipsis(index))
      ellipsis = true;
    else
      (ellipsis ? after : before).push_back(index);
  }
  const bool allGiven = static_cast<int>(before.size() + after.size()) == base.ndim();
  if (base.layout() == ArrayLayout::C) {
    if (allGiven) {
      before.insert(before.end(), after.begin(), after.end());
      after.clear();
    }
    return after.empty() && contiguous(before) ? ArrayLayout::C : ArrayLayout::A;
  }
  if (base.layout() == ArrayLayout::F) {
    if (allGiven || !ellipsis) {
      // Without an ellipsis every index is on the left unless all are given.
      if (!allGiven)
        return ArrayLayout::A;
      before.insert(before.end(), after.begin(), after.end());
      after = std::move(before);
      before.clear();
    }
    std::reverse(after.begin(), after.end());
    return before.empty() && contiguous(after) ? ArrayLayout::F : ArrayLayout::A;
  }
  return ArrayLayout::A;
}

bool storableInView(const NumbaType& value, const NumbaType& view) {
  // numba's SetItemBuffer: a scalar into every item, or an array of numbers broadcast onto the
  // view (at most its rank); not for records.
  if (view.isRecordArray())
    return false;
  // datetime64 and timedelta64 convert only to themselves (numba has no conversion between
  // units, nor to or from numbers).
  // (nor character sequences)
  auto ownItems = [](const NumbaType& t) {
    return t.isDatetimeArray() || t.isDatetimeLike() || t.isCharSeqArray() || t.isCharSeq();
  };
  if (ownItems(view) || ownItems(value)) {
    const NumbaType item = value.isArray() ? value.elementType() : value;
    return (view.isDatetimeArray() || view.isCharSeqArray()) && item == view.elementType() &&
           (!value.isArray() || value.ndim() <= view.ndim());
  }
  if (value.isScalar())
    return !isComplex(value.scalarKind()) || isComplex(view.scalarKind());
  return value.isArray() && !value.isRecordArray() && value.ndim() <= view.ndim() &&
         (!isComplex(value.scalarKind()) || isComplex(view.scalarKind()));
}

bool storableIn(const NumbaType& value, const NumbaType& place) {
  if (place.isDatetimeLike() || place.isCharSeq())
    return value == place;
  if (place.isScalar())
    return computedAs(value).isScalar(); // an IntEnum member stores its integer
  // A record into a record (an item of a record array, a nested record field): the same layout.
  if (place.isRecord())
    return value.isRecord() && value.recordLayout() == place.recordLayout();
  // An array into a sub-array field (numba's NestedArray, layout C): numba's can_convert, the
  // same dtype and rank from a C-contiguous array; its items are copied.
  return place.isArray() && value.isArray() && !value.isRecordArray() && !place.isRecordArray() &&
         value.elementType() == place.elementType() && value.ndim() == place.ndim() &&
         value.layout() == ArrayLayout::C;
}

const RecordField* FunctionTyper::recordFieldTarget(const ast::Expr* target, bool typeBase) {
  const ast::Expr* base = nullptr;
  std::string name;
  if (const auto* a = target->as<ast::Attribute>()) {
    base = a->value;
    name = a->attr;
  } else if (const auto* s = target->as<ast::Subscript>()) {
    const auto* k = s->slice->as<ast::Constant>();
    if (k == nullptr || k->valueKind != ast::ConstantKind::Str)
      return nullptr;
    base = s->value;
    name = k->strValue;
  } else {
    return nullptr;
  }
  const NumbaType* known = nullptr;
  if (auto it = spec_.exprTypes.find(base); it != spec_.exprTypes.end())
    known = &it->second;
  OptType t = known != nullptr ? OptType(*known) : typeBase ? expr(base) : std::nullopt;
  if (!t || !t->isRecord())
    return nullptr;
  return t->recordLayout().field(name);
}

namespace {
// The str or bytes constant `a` stores into one target; null for any other assignment.
const ast::Constant* storedCharacters(const ast::Assign* a) {
  const auto* c = a->value->as<ast::Constant>();
  if (c == nullptr ||
      (c->valueKind != ast::ConstantKind::Str && c->valueKind != ast::ConstantKind::Bytes) ||
      a->targets.size() != 1)
    return nullptr;
  return c;
}
} // namespace

bool FunctionTyper::stringIntoCharacterArray(const ast::Assign* a) {
  const ast::Constant* c = storedCharacters(a);
  if (c == nullptr)
    return false;
  const auto* s = a->targets[0]->as<ast::Subscript>();
  const auto* k = s != nullptr ? s->slice->as<ast::Constant>() : nullptr;
  if (s == nullptr || (k != nullptr && k->valueKind == ast::ConstantKind::Str)) // a field name
    return false;
  OptType container = expr(s->value);
  if (!container || !container->isCharSeqArray())
    return false;
  if (container->readonly()) {
    error(DiagKind::TypeWriteReadonly, a->targets[0]->range, {container->str()});
    return true;
  }
  OptType item = visitSubscript(s);
  if (!item)
    return true;
  if (!item->isCharSeq()) {
    error(DiagKind::TypeNotSupported, a->targets[0]->range,
          {"storing a constant into a slice of a character array"});
    return true;
  }
  record(a->targets[0], *item);
  // numba casts a str constant to a unicode ('U') item and bytes to a bytes ('S') item (NVVM 7),
  // truncated to the item and padded with zeros.
  const bool bytes = c->valueKind == ast::ConstantKind::Bytes;
  if (bytes == item->isUnicode())
    error(DiagKind::TypeStringIntoItem, a->value->range,
          {bytes ? "bytes" : "str", container->str()});
  else
    record(a->value, *item);
  return true;
}

bool FunctionTyper::stringIntoRecordField(const ast::Assign* a) {
  const ast::Constant* c = storedCharacters(a);
  if (c == nullptr)
    return false;
  const RecordField* f = recordFieldTarget(a->targets[0], /*typeBase=*/true);
  const bool bytes = c->valueKind == ast::ConstantKind::Bytes;
  if (f == nullptr) {
    error(DiagKind::TypeNotSupported, a->value->range,
          {std::string("storing a ") + (bytes ? "bytes" : "str") +
           " constant anywhere but in a character field of a record or an item of a character "
           "array"});
    return true;
  }
  // numba stores a constant str into a unicode field and bytes into a bytes field (NVVM 7),
  // truncated to the field and padded with zeros.
  const bool fits = f->kind == (bytes ? FieldKind::Bytes : FieldKind::Unicode) && !f->isSubArray();
  if (!fits)
    error(DiagKind::TypeStringIntoField, a->value->range, {bytes ? "bytes" : "str", f->name});
  return true;
}

OptType FunctionTyper::memberType(const ast::Expr* e, const ConstantValue& member) {
  OptType value = typeOfConstant(member);
  const ConstantValue* cls = enumClassOfMember(fn_.scope, module_.symbols, e);
  if (!value || cls == nullptr)
    return value;
  return NumbaType::enumMember(cls->strValue, *value, cls->boolValue);
}

OptType FunctionTyper::visitAttribute(const ast::Attribute* a) {
  if (auto it = fn_.scope.moduleFunctions.find(a); it != fn_.scope.moduleFunctions.end()) {
    const CompiledFunction& f = module_.functionOf(it->second); // `helpers.clamp` as a value
    return NumbaType::function(&f, f.name);
  }
  if (std::optional<ConstantValue> member = enumMember(fn_.scope, module_.symbols, a))
    return memberType(a, *member); // `Color.red`; `config.TPB`: the constant's value
  if (const Intrinsic id = intrinsicOf(a); id != Intrinsic::None)
    return intrinsicValue(id);
  if (const std::optional<ScalarKind> k = scalarTypeObject(fn_.scope, a))
    return NumbaType::typeRef(*k); // `np.float32` as a value: passed on as a dtype
  if (!apiName(a).empty())
    return std::nullopt; // a module, or a function of no intrinsic: no value of its own
  if (const ast::Expr* array = ctypesDataOf(a)) {
    // `a.ctypes.data`: the array's address as numba's uintp.
    OptType arrayType = expr(array);
    if (!arrayType)
      return std::nullopt;
    if (arrayType->isArray())
      return NumbaType::scalar(ScalarKind::UInt64);
  }
  OptType base = expr(a->value);
  if (!base)
    return std::nullopt;
  const ValueMember member = attributeNamed(a->attr);
  if (base->isArray() && member == ValueMember::CtypesData) {
    error(DiagKind::TypeArrayCtypesAlone, a->range, {dottedName(a->value)});
    return std::nullopt;
  }
  if (base->isEnumMember() && member == ValueMember::EnumValue)
    return base->enumValue();
  if (base->isArray()) {
    if (member == ValueMember::Shape || member == ValueMember::Strides)
      return NumbaType::uniTuple(NumbaType::scalar(ScalarKind::Int64), base->ndim());
    if (member == ValueMember::Size || member == ValueMember::Ndim)
      return NumbaType::scalar(ScalarKind::Int64);
    // The transpose: the same items, dimensions reversed (C and F swap, as numba types it).
    if (member == ValueMember::Transpose) {
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
  if (base->isVector())
    return vectorMember(*base, a);
  if (base->isRecordArray() && base->recordLayout().field(a->attr) != nullptr)
    return recordArrayField(*base, a->attr, a->attrRange);
  if (base->isNamedTuple()) {
    const std::vector<std::string>& fields = base->fieldNames();
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i] == a->attr)
        return base->elements()[i];
  }
  if ((base->isScalar() || base->isArray()) &&
      (member == ValueMember::Real || member == ValueMember::Imag))
    return realOrImag(*base, member == ValueMember::Imag, a->attrRange);
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
    const bool number = k != ScalarKind::Boolean && (base.isScalar() || base.isNumericArray());
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
  if (std::optional<ConstantValue> member = enumMember(fn_.scope, module_.symbols, s))
    return memberType(s, *member); // `Color['red']`
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
    // A field by its name, or by its position (numba's static_getitem of an integer literal).
    const auto* k = s->slice->as<ast::Constant>();
    if (k != nullptr && k->valueKind == ast::ConstantKind::Int) {
      const auto& fields = base->recordLayout().fields;
      if (k->intValue < 0 || k->intValue >= static_cast<__int128>(fields.size())) {
        error(DiagKind::TypeRecordFieldIndex, s->slice->range,
              {base->str(), k->spelling, std::to_string(fields.size())});
        return std::nullopt;
      }
      return recordField(*base, fields[static_cast<size_t>(k->intValue)].name, s->slice->range);
    }
    if (k == nullptr || k->valueKind != ast::ConstantKind::Str) {
      error(DiagKind::TypeRecordIndex, s->slice->range, {base->str()});
      return std::nullopt;
    }
    return recordField(*base, k->strValue, s->slice->range);
  }
  if (base->isRecordArray())
    if (const auto* k = s->slice->as<ast::Constant>(); k && k->valueKind == ast::ConstantKind::Str)
      return recordArrayField(*base, k->strValue, s->slice->range);
  // An array indexed by a variable holding a tuple of integers: numba indexes by its items.
  if (base->isArray() && indices.size() == 1 && s->slice->is<ast::Name>()) {
    OptType it = expr(s->slice);
    if (!it)
      return std::nullopt;
    if (it->isTuple() && !it->elements().empty() &&
        std::all_of(it->elements().begin(), it->elements().end(),
                    [](const NumbaType& e) { return isIntegerType(e); })) {
      std::vector<const ast::Expr*> items;
      for (size_t i = 0; i < it->elements().size(); ++i) {
        auto* k = spec_.spreadNodes.make<ast::Constant>(s->slice->range);
        k->valueKind = ast::ConstantKind::Int;
        k->intValue = static_cast<__int128>(i);
        auto* item = spec_.spreadNodes.make<ast::Subscript>(s->slice->range);
        item->value = s->slice;
        item->slice = k;
        items.push_back(item);
      }
      spec_.indexItems[s] = items;
      indices = items;
    }
  }
  if (base->isPointer()) {
    // numba's CPointer getitem and setitem: one integer index (intp), the pointee.
    OptType index =
        indices.size() == 1 && !indices[0]->is<ast::Slice>() ? expr(indices[0]) : std::nullopt;
    if (index && index->isScalar() && isInteger(index->scalarKind()))
      return NumbaType::scalar(base->scalarKind());
    error(DiagKind::TypePointerIndex, s->slice->range, {base->str()});
    return std::nullopt;
  }
  if (!base->isArray()) {
    error(DiagKind::TypeIndexScalar, s->value->range, {base->str()});
    return std::nullopt;
  }
  const ArrayLayout layout = viewLayout(*base, indices);
  // An ellipsis stands for as many full slices as the other indices leave dimensions.
  if (auto e = std::find_if(indices.begin(), indices.end(), isEllipsis); e != indices.end()) {
    if (std::count_if(indices.begin(), indices.end(), isEllipsis) > 1) {
      error(DiagKind::TypeIndexTwoEllipses, s->slice->range, {});
      return std::nullopt;
    }
    const int given = static_cast<int>(indices.size()) - 1;
    std::vector<const ast::Expr*> items(indices.begin(), e);
    for (int d = given; d < base->ndim(); ++d)
      items.push_back(spec_.spreadNodes.make<ast::Slice>((*e)->range));
    items.insert(items.end(), e + 1, indices.end());
    spec_.indexItems[s] = items;
    indices = std::move(items);
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
    // numba has no getitem/setitem of an array by a bool (nor by anything but an integer).
    if (!isIntegerType(*it)) {
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
  return base->withShape(remaining, layout, base->readonly());
}

} // namespace pyk::sema
