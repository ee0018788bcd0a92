// ConstantFolderRecordArrays: `np.array([(1.0, 2), (3.0, 4)], dtype=record)` at module level,
// folded at compile time into the bytes numpy would hold: lists are dimensions, tuples are
// records (numpy's rule), each field converted to its type (a sub-array from a nested sequence or
// one value broadcast, a nested record from a tuple, a character sequence from a str or bytes
// literal, zero-padded); padding is zero.
#include "sema/fold/ConstantFolder.h"

#include <cstring>
#include <functional>

#include "sema/fold/ConstantFolderInternal.h"
#include "sema/fold/ConstantOperators.h"

namespace pyk::sema {

using namespace folding;

namespace {

using Kind = ConstantValue::Kind;

constexpr int64_t kMaxRecordArrayBytes = int64_t{1} << 24;

// Writes `value` (a strong scalar of `kind`) little-endian at `out`.
bool writeScalar(const ConstantValue& value, ScalarKind kind, uint8_t* out) {
  const int bytes = bitWidth(kind) / 8;
  auto little = [&](uint64_t bits, int n, uint8_t* at) {
    for (int i = 0; i < n; ++i)
      at[i] = static_cast<uint8_t>(bits >> (8 * i));
  };
  auto floatBits = [&](double v, int n, uint8_t* at) {
    if (n == 4) {
      float f = static_cast<float>(v);
      uint32_t u = 0;
      std::memcpy(&u, &f, 4);
      little(u, 4, at);
    } else {
      uint64_t u = 0;
      std::memcpy(&u, &v, 8);
      little(u, 8, at);
    }
  };
  if (kind == ScalarKind::Float16)
    return false;
  switch (value.kind) {
  case Kind::Bool:
    out[0] = value.boolValue ? 1 : 0;
    return true;
  case Kind::Int:
    little(static_cast<uint64_t>(value.intValue), bytes, out);
    return true;
  case Kind::Float:
    floatBits(value.floatValue, bytes, out);
    return true;
  case Kind::Complex:
    floatBits(value.complexValue.real(), bytes / 2, out);
    floatBits(value.complexValue.imag(), bytes / 2, out + bytes / 2);
    return true;
  default:
    return false;
  }
}

} // namespace

FoldResult ConstantFolder::evalRecordArray(const ast::Expr* data, const NumbaType& record,
                                           int depth) {
  const RecordLayout& layout = record.recordLayout();
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  // A field's value: the AST where it is a display or a bytes literal (which the folder does not
  // fold), else the folded constant.
  std::function<FoldResult(const ast::Expr*)> valueOf = [&](const ast::Expr* e) -> FoldResult {
    const std::vector<ast::Expr*>* elts = nullptr;
    if (const auto* list = e->as<ast::List>())
      elts = &list->elts;
    else if (const auto* tuple = e->as<ast::Tuple>())
      elts = &tuple->elts;
    if (elts != nullptr) {
      std::vector<ConstantValue> items;
      for (const ast::Expr* x : *elts) {
        FoldResult r = valueOf(x);
        if (!r.isConstant())
          return r;
        items.push_back(r.value());
      }
      return FoldResult::constant(ConstantValue::tuple(std::move(items)));
    }
    if (const auto* c = e->as<ast::Constant>(); c && c->valueKind == ast::ConstantKind::Bytes)
      return FoldResult::constant(ConstantValue::string(c->strValue));
    return eval(e, depth + 1);
  };

  std::function<FoldResult(const ConstantValue&, const RecordField&, uint8_t*)> writeField;
  std::function<FoldResult(const ConstantValue&, const RecordLayout&, uint8_t*)> writeRecord =
      [&](const ConstantValue& v, const RecordLayout& r, uint8_t* out) -> FoldResult {
    if (v.kind != Kind::Tuple || v.elements.size() != r.fields.size())
      return invalid("a record of " + std::to_string(r.fields.size()) +
                     " fields is given as a tuple of as many values, not " + v.repr());
    for (size_t i = 0; i < r.fields.size(); ++i) {
      FoldResult w = writeField(v.elements[i], r.fields[i], out + r.fields[i].offset);
      if (!w.isConstant())
        return w;
    }
    return FoldResult::constant(ConstantValue::none());
  };
  // One item of a field (no sub-array shape).
  auto writeItem = [&](const ConstantValue& v, const RecordField& f, uint8_t* out) -> FoldResult {
    switch (f.kind) {
    case FieldKind::Record:
      return writeRecord(v, *f.record, out);
    case FieldKind::Bytes:
    case FieldKind::Unicode: {
      if (v.kind != Kind::Str)
        return notFolded("a character field given " + v.typeDescription());
      if (f.kind == FieldKind::Bytes) {
        // numpy truncates a longer value silently.
        std::memcpy(out, v.strValue.data(),
                    std::min<size_t>(v.strValue.size(), static_cast<size_t>(f.length)));
      } else {
        std::vector<uint32_t> cps = utf8CodePoints(v.strValue);
        for (size_t i = 0; i < cps.size() && static_cast<int64_t>(i) < f.length; ++i)
          for (int b = 0; b < 4; ++b)
            out[4 * i + static_cast<size_t>(b)] = static_cast<uint8_t>(cps[i] >> (8 * b));
      }
      return FoldResult::constant(ConstantValue::none());
    }
    case FieldKind::Scalar: {
      if (!v.isNumber())
        return notFolded("a field of " + std::string(scalarName(f.type)) + " given " +
                         v.typeDescription());
      FoldResult converted = castToScalar(v, f.type);
      if (!converted.isConstant())
        return converted;
      if (!writeScalar(converted.value(), f.type, out))
        return notFolded("a record array with a field of " + std::string(scalarName(f.type)));
      return FoldResult::constant(ConstantValue::none());
    }
    }
    return notFolded("this field");
  };
  writeField = [&](const ConstantValue& v, const RecordField& f, uint8_t* out) -> FoldResult {
    if (!f.isSubArray())
      return writeItem(v, f, out);
    // A sub-array: a nested sequence of its shape, or one value for every item.
    const int64_t itemBytes = f.itemBytes();
    int64_t count = 1;
    for (int64_t extent : f.shape)
      count *= extent;
    if (v.kind != Kind::Tuple) {
      for (int64_t i = 0; i < count; ++i) {
        FoldResult w = writeItem(v, f, out + i * itemBytes);
        if (!w.isConstant())
          return w;
      }
      return FoldResult::constant(ConstantValue::none());
    }
    int64_t next = 0;
    std::function<FoldResult(const ConstantValue&, size_t)> walk = [&](const ConstantValue& x,
                                                                       size_t dim) -> FoldResult {
      if (dim == f.shape.size())
        return writeItem(x, f, out + (next++) * itemBytes);
      if (x.kind != Kind::Tuple || static_cast<int64_t>(x.elements.size()) != f.shape[dim])
        return invalid("the sub-array field '" + f.name + "' is given " + x.repr() +
                       ", not a sequence of " + std::to_string(f.shape[dim]) + " items");
      for (const ConstantValue& e : x.elements) {
        FoldResult w = walk(e, dim + 1);
        if (!w.isConstant())
          return w;
      }
      return FoldResult::constant(ConstantValue::none());
    };
    return walk(v, 0);
  };

  // The dimensions are lists; each record is a tuple.
  std::function<FoldResult(const ast::Expr*, size_t)> flatten = [&](const ast::Expr* e,
                                                                    size_t dim) -> FoldResult {
    if (const auto* list = e->as<ast::List>()) {
      if (std::optional<FoldResult> bad =
              extendShape(shape, dim, static_cast<int64_t>(list->elts.size()), !bytes.empty(),
                          "expected a record, found a list", e->range))
        return *bad;
      for (const ast::Expr* elt : list->elts) {
        FoldResult r = flatten(elt, dim + 1);
        if (!r.isConstant())
          return r;
      }
      return FoldResult::constant(ConstantValue::none());
    }
    if (dim != shape.size() || dim == 0)
      return FoldResult::error(DiagKind::ConstantArrayNotRectangular,
                               {"expected a list, found a record"}, e->range);
    FoldResult v = valueOf(e);
    if (!v.isConstant())
      return v;
    const size_t at = bytes.size();
    if (static_cast<int64_t>(at) + layout.size > kMaxRecordArrayBytes)
      return FoldResult::notConstant("the array literal is too large to freeze");
    bytes.resize(at + static_cast<size_t>(layout.size), 0);
    return writeRecord(v.value(), layout, bytes.data() + at);
  };
  if (!data->is<ast::List>())
    return notFolded("`numpy.array` of records given anything but a literal list");
  FoldResult flattened = flatten(data, 0);
  if (!flattened.isConstant())
    return flattened;
  auto array = std::make_shared<ConstantArray>();
  array->record = record;
  array->shape = shape;
  array->bytes = std::move(bytes);
  return FoldResult::constant(ConstantValue::arrayOf(std::move(array)));
}

} // namespace pyk::sema
