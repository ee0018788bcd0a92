// ConstantFolderRecordDtypes: structured numpy dtypes a module builds at its top level, folded at
// compile time into numba's Record type: fields of scalars, sub-arrays (`('j', np.float32, (3,
// 2))`, numba's NestedArray), nested records and character sequences (`'S12'`, `'U12'`), in
// numpy's list form or its dict form (`names`, `formats`, `offsets`, `itemsize`), packed or with
// `align=True`, laid out as numpy lays them out.
#include "sema/fold/ConstantFolder.h"

#include <algorithm>
#include <cctype>

#include "sema/fold/ConstantFolderInternal.h"

namespace pyk::sema {

using namespace folding;

namespace {

using Kind = ConstantValue::Kind;

// The item a dtype string names: `'<f4'`, `'int32'`, `'S12'`, `'<U12'`; nullopt for anything
// else (`why` says what). Big-endian multi-byte dtypes are not folded.
std::optional<RecordField> itemOfDtypeString(std::string text, std::string& why) {
  char order = '=';
  if (!text.empty() && std::string_view("<>|=").find(text[0]) != std::string_view::npos) {
    order = text[0];
    text.erase(0, 1);
  }
  RecordField f;
  if (!text.empty() && (text[0] == 'S' || text[0] == 'a' || text[0] == 'U')) {
    int64_t n = 0;
    bool digits = text.size() > 1 && text.size() < 12;
    for (size_t i = 1; digits && i < text.size(); ++i) {
      digits = std::isdigit(static_cast<unsigned char>(text[i])) != 0;
      n = n * 10 + (text[i] - '0');
    }
    if (!digits || n == 0) {
      why = "the dtype '" + text + "'";
      return std::nullopt;
    }
    f.kind = text[0] == 'U' ? FieldKind::Unicode : FieldKind::Bytes;
    f.length = n;
    if (order == '>' && f.kind == FieldKind::Unicode) {
      why = "the big-endian dtype '>" + text + "'";
      return std::nullopt;
    }
    return f;
  }
  std::optional<ScalarKind> k = numpyScalarKindNamed(text);
  if (!k) {
    why = "the dtype '" + text + "'";
    return std::nullopt;
  }
  if (order == '>' && bitWidth(*k) > 8) {
    why = "the big-endian dtype '>" + text + "'";
    return std::nullopt;
  }
  f.type = *k;
  return f;
}

// The item of one field's format: a scalar type object, a dtype string, a structured dtype (a
// nested record), or `(format, shape)` for a sub-array. Not folded (`why`) when numba has no
// type for it.
std::optional<RecordField> itemOfFormat(const ConstantValue& format, std::string& why) {
  if (format.kind == Kind::Type && format.typeValue.isScalar()) {
    RecordField f;
    f.type = format.typeValue.scalarKind();
    return f;
  }
  if (format.kind == Kind::Type && format.typeValue.isRecord()) {
    RecordField f;
    f.kind = FieldKind::Record;
    f.record = std::make_shared<const RecordLayout>(format.typeValue.recordLayout());
    return f;
  }
  if (format.kind == Kind::Str)
    return itemOfDtypeString(format.strValue, why);
  if (format.kind == Kind::Tuple && format.elements.size() == 2) {
    std::optional<RecordField> item = itemOfFormat(format.elements[0], why);
    if (!item)
      return std::nullopt;
    std::vector<int64_t> shape;
    const ConstantValue& s = format.elements[1];
    if (s.kind == Kind::Int) {
      shape.push_back(static_cast<int64_t>(s.intValue));
    } else if (s.kind == Kind::Tuple) {
      for (const ConstantValue& e : s.elements) {
        if (e.kind != Kind::Int) {
          why = "a sub-array shape of " + s.repr();
          return std::nullopt;
        }
        shape.push_back(static_cast<int64_t>(e.intValue));
      }
    } else {
      why = "a sub-array shape of " + s.repr();
      return std::nullopt;
    }
    int64_t count = 1;
    for (int64_t extent : shape) {
      if (extent < 0 || extent > (int64_t{1} << 24)) {
        why = "a sub-array shape of " + s.repr();
        return std::nullopt;
      }
      count *= extent;
    }
    // numpy: a shape of () or (1,)... keeps the sub-array; `(dtype, 1)` is the plain dtype.
    if (s.kind == Kind::Int && shape[0] == 1)
      return item;
    if (shape.empty())
      return item;
    if (item->isSubArray()) { // a sub-array of sub-arrays: numpy joins the shapes
      shape.insert(shape.end(), item->shape.begin(), item->shape.end());
    }
    if (item->kind == FieldKind::Record) {
      why = "a sub-array of records (numba has no type for it)";
      return std::nullopt;
    }
    if (count > (int64_t{1} << 24)) {
      why = "a sub-array of " + std::to_string(count) + " items";
      return std::nullopt;
    }
    item->shape = std::move(shape);
    return item;
  }
  why = "the field type " + format.repr();
  return std::nullopt;
}

int64_t roundUp(int64_t n, int64_t alignment) {
  return (n + alignment - 1) / alignment * alignment;
}

} // namespace

FoldResult ConstantFolder::evalRecordDtype(const ast::Call* call, int depth) {
  bool align = false;
  for (const ast::Keyword& k : call->keywords) {
    if (k.arg != "align")
      return notFolded("`np.dtype` with the keyword `" + k.arg + "`");
    FoldResult a = eval(k.value, depth + 1);
    if (!a.isConstant())
      return a;
    if (a.value().kind != Kind::Bool)
      return invalid("`align` of `np.dtype` must be True or False");
    align = a.value().boolValue;
  }
  const ast::Expr* spec = call->args[0];
  RecordLayout layout;
  layout.aligned = align;

  // The dict form: names, formats, and optionally offsets and itemsize.
  if (const auto* dict = spec->as<ast::Dict>()) {
    std::vector<std::string> names;
    std::vector<RecordField> items;
    std::vector<int64_t> offsets;
    std::optional<int64_t> itemsize;
    for (size_t i = 0; i < dict->keys.size(); ++i) {
      const auto* key = dict->keys[i] != nullptr ? dict->keys[i]->as<ast::Constant>() : nullptr;
      if (key == nullptr || key->valueKind != ast::ConstantKind::Str)
        return notFolded("a structured dtype's dict with a key that is not a string literal");
      const ast::Expr* value = dict->values[i];
      std::vector<const ast::Expr*> elements;
      if (const auto* list = value->as<ast::List>())
        elements.assign(list->elts.begin(), list->elts.end());
      else if (const auto* tuple = value->as<ast::Tuple>())
        elements.assign(tuple->elts.begin(), tuple->elts.end());
      const std::string& k = key->strValue;
      if (k == "itemsize") {
        FoldResult n = eval(value, depth + 1);
        if (!n.isConstant())
          return n;
        if (n.value().kind != Kind::Int || n.value().intValue < 0)
          return invalid("the `itemsize` of a structured dtype must be a non-negative integer");
        itemsize = static_cast<int64_t>(n.value().intValue);
        continue;
      }
      if (k != "names" && k != "formats" && k != "offsets")
        return notFolded("a structured dtype's dict with the key '" + k + "'");
      if (!value->is<ast::List>() && !value->is<ast::Tuple>())
        return invalid("the `" + k + "` of a structured dtype must be a list");
      for (const ast::Expr* e : elements) {
        FoldResult r = eval(e, depth + 1);
        if (!r.isConstant())
          return r;
        if (k == "names") {
          if (r.value().kind != Kind::Str || r.value().strValue.empty())
            return invalid("a field name of a structured dtype must be a non-empty string");
          names.push_back(r.value().strValue);
        } else if (k == "offsets") {
          if (r.value().kind != Kind::Int || r.value().intValue < 0)
            return invalid("a field offset of a structured dtype must be a non-negative integer");
          offsets.push_back(static_cast<int64_t>(r.value().intValue));
        } else {
          std::string why;
          std::optional<RecordField> item = itemOfFormat(r.value(), why);
          if (!item)
            return notFolded(why + " in a structured dtype");
          items.push_back(std::move(*item));
        }
      }
    }
    if (names.size() != items.size())
      return invalid("a structured dtype needs as many formats as names");
    if (!offsets.empty() && offsets.size() != names.size())
      return invalid("a structured dtype needs as many offsets as names");
    if (names.empty())
      return invalid("a structured dtype needs at least one field");
    int64_t end = 0, maxAlignment = 1;
    for (size_t i = 0; i < names.size(); ++i) {
      RecordField f = std::move(items[i]);
      f.name = names[i];
      if (layout.field(f.name) != nullptr)
        return invalid("the structured dtype has two fields named '" + f.name + "'");
      const int64_t alignment = align ? f.alignment() : 1;
      maxAlignment = std::max(maxAlignment, alignment);
      f.offset = offsets.empty() ? roundUp(end, alignment) : offsets[i];
      if (f.offset % alignment != 0)
        return invalid("the offset " + std::to_string(f.offset) + " of the field '" + f.name +
                       "' is not a multiple of its alignment " + std::to_string(alignment) +
                       " with align=True");
      end = std::max(end, f.offset + f.bytes());
      layout.fields.push_back(std::move(f));
    }
    layout.size = itemsize.value_or(align ? roundUp(end, maxAlignment) : end);
    if (layout.size < end)
      return invalid("the `itemsize` " + std::to_string(layout.size) +
                     " of a structured dtype is too small for its fields (" + std::to_string(end) +
                     " bytes)");
    if (align && layout.size % maxAlignment != 0)
      return invalid("the `itemsize` " + std::to_string(layout.size) +
                     " of an aligned structured dtype is not a multiple of its alignment " +
                     std::to_string(maxAlignment));
    return FoldResult::constant(ConstantValue::type(NumbaType::record(std::move(layout))));
  }

  // The list form: (name, format) or (name, format, shape) tuples, one after the other.
  const std::vector<ast::Expr*>* items = ast::tupleOrListElements(spec);
  if (items == nullptr) {
    // `np.dtype(x)` of a type object, another dtype or a dtype string.
    FoldResult d = eval(spec, depth + 1);
    if (!d.isConstant())
      return d;
    if (d.value().kind == Kind::Type)
      return d;
    if (d.value().kind == Kind::Str) {
      std::string why;
      std::optional<RecordField> item = itemOfDtypeString(d.value().strValue, why);
      if (!item)
        return FoldResult::error(DiagKind::ConstantArrayBadDtype, {d.value().strValue});
      if (item->kind == FieldKind::Scalar)
        return FoldResult::constant(ConstantValue::type(NumbaType::scalar(item->type)));
      return d; // a character sequence stays its dtype string
    }
    return notFolded("`np.dtype` of " + d.value().typeDescription());
  }
  if (items->empty())
    return invalid("a structured dtype needs at least one field");
  int64_t maxAlignment = 1;
  for (const ast::Expr* item : *items) {
    const auto* field = item->as<ast::Tuple>();
    if (field == nullptr || field->elts.size() < 2 || field->elts.size() > 3)
      return invalid("each field of a structured dtype is a (name, dtype) or (name, dtype, "
                     "shape) tuple");
    FoldResult name = eval(field->elts[0], depth + 1);
    if (!name.isConstant())
      return name;
    if (name.value().kind != Kind::Str || name.value().strValue.empty())
      return invalid("a field name of a structured dtype must be a non-empty string");
    FoldResult type = eval(field->elts[1], depth + 1);
    if (!type.isConstant())
      return type;
    ConstantValue format = type.value();
    if (field->elts.size() == 3) {
      FoldResult shape = eval(field->elts[2], depth + 1);
      if (!shape.isConstant())
        return shape;
      format = ConstantValue::tuple({format, shape.value()});
    }
    std::string why;
    std::optional<RecordField> f = itemOfFormat(format, why);
    if (!f)
      return notFolded(why + " in a structured dtype");
    f->name = name.value().strValue;
    if (layout.field(f->name) != nullptr)
      return invalid("the structured dtype has two fields named '" + f->name + "'");
    const int64_t alignment = align ? f->alignment() : 1;
    maxAlignment = std::max(maxAlignment, alignment);
    f->offset = roundUp(layout.size, alignment);
    layout.size = f->offset + f->bytes();
    layout.fields.push_back(std::move(*f));
  }
  if (align)
    layout.size = roundUp(layout.size, maxAlignment);
  return FoldResult::constant(ConstantValue::type(NumbaType::record(std::move(layout))));
}

} // namespace pyk::sema
