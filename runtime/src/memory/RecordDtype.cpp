// RecordDtype: structured dtypes (numpy's, numba's Record), their layout checked when made.
#include <algorithm>

#include "pyk/error.hpp"
#include "pyk/record.hpp"

namespace pyk {

namespace {

[[noreturn]] void refuse(const std::string& what) {
  throw Error(ErrorKind::InvalidArgument, "structured dtype: " + what);
}

// numba's name of a field's type: `float32`, `nestedarray(float32, (3, 2))`, `Record(...)`,
// `[char x 12]`.
std::string fieldTypeName(const RecordField& f) {
  std::string item = f.chars == FieldChars::Bytes ? "[char x " + std::to_string(f.length) + "]"
                     : f.chars == FieldChars::Unicode
                         ? "[unichr x " + std::to_string(f.length) + "]"
                     : f.dtype == Dtype::Record && f.record ? f.record->str()
                                                            : std::string(dtype_name(f.dtype));
  if (f.shape.empty())
    return item;
  std::string shape = "(";
  for (std::size_t d = 0; d < f.shape.size(); ++d)
    shape += (d ? ", " : "") + std::to_string(f.shape[d]);
  return "nestedarray(" + item + ", " + shape + (f.shape.size() == 1 ? ",))" : "))");
}

} // namespace

std::int64_t record_field_alignment(Dtype dtype) {
  const auto size = static_cast<std::int64_t>(dtype_itemsize(dtype));
  return is_complex_dtype(dtype) ? size / 2 : size;
}

std::int64_t RecordField::item_bytes() const {
  if (chars == FieldChars::Bytes)
    return length;
  if (chars == FieldChars::Unicode)
    return 4 * length;
  if (dtype == Dtype::Record)
    return record != nullptr ? record->itemsize() : 0;
  return static_cast<std::int64_t>(dtype_itemsize(dtype));
}

std::int64_t RecordField::bytes() const {
  std::int64_t n = item_bytes();
  for (std::int64_t extent : shape)
    n *= extent;
  return n;
}

std::int64_t RecordField::alignment() const {
  if (chars == FieldChars::Bytes)
    return 1;
  if (chars == FieldChars::Unicode)
    return 4;
  if (dtype == Dtype::Record)
    return record != nullptr ? record->alignment() : 1;
  return record_field_alignment(dtype);
}

bool RecordField::operator==(const RecordField& o) const {
  if (name != o.name || dtype != o.dtype || offset != o.offset || shape != o.shape ||
      chars != o.chars || length != o.length)
    return false;
  if (record == nullptr || o.record == nullptr)
    return record == o.record;
  return *record == *o.record;
}

RecordDtype::RecordDtype(std::vector<RecordField> fields, std::int64_t itemsize, bool aligned)
    : fields_(std::move(fields)), itemsize_(itemsize), aligned_(aligned) {
  if (fields_.empty())
    refuse("a record needs at least one field");
  std::int64_t largestAlignment = 1;
  for (size_t i = 0; i < fields_.size(); ++i) {
    const RecordField& f = fields_[i];
    if (f.name.empty())
      refuse("field " + std::to_string(i) + " has an empty name");
    for (size_t j = 0; j < i; ++j)
      if (fields_[j].name == f.name)
        refuse("the field name '" + f.name + "' is used twice");
    if (f.dtype == Dtype::Record && f.record == nullptr)
      refuse("the field '" + f.name + "' is a record without its fields");
    if (f.dtype == Dtype::Record && !f.shape.empty())
      refuse("the field '" + f.name + "' is a sub-array of records (numba has no type for it)");
    if (f.chars != FieldChars::None && f.length <= 0)
      refuse("the character field '" + f.name + "' has no characters");
    std::int64_t count = 1;
    for (std::int64_t extent : f.shape) {
      if (extent < 0 || extent > (std::int64_t{1} << 31) || count > (std::int64_t{1} << 40))
        refuse("the sub-array field '" + f.name + "' has a bad extent " + std::to_string(extent));
      count *= extent;
    }
    const std::int64_t size = f.bytes();
    if (f.offset < 0 || f.offset > itemsize_ - size)
      refuse("the field '" + f.name + "' (" + fieldTypeName(f) + " at offset " +
             std::to_string(f.offset) + ") does not lie within the item of " +
             std::to_string(itemsize_) + " bytes");
    const std::int64_t alignment = f.alignment();
    largestAlignment = std::max(largestAlignment, alignment);
    if (aligned_ && f.offset % alignment != 0)
      refuse("the field '" + f.name + "' is at offset " + std::to_string(f.offset) +
             ", not a multiple of its alignment " + std::to_string(alignment) +
             ", in an aligned record");
    for (size_t j = 0; j < i; ++j) {
      const RecordField& g = fields_[j];
      if (size > 0 && g.bytes() > 0 && f.offset < g.offset + g.bytes() &&
          g.offset < f.offset + size)
        refuse("the fields '" + g.name + "' and '" + f.name + "' overlap");
    }
  }
  if (aligned_ && itemsize_ % largestAlignment != 0)
    refuse("an aligned record of " + std::to_string(itemsize_) +
           " bytes is not a multiple of its alignment " + std::to_string(largestAlignment));
}

RecordDtype RecordDtype::sequential(const std::vector<std::pair<std::string, Dtype>>& fields,
                                    bool align) {
  std::vector<RecordField> laid;
  std::int64_t offset = 0;
  std::int64_t largestAlignment = 1;
  for (const auto& [name, dtype] : fields) {
    if (dtype == Dtype::Record)
      refuse("the field '" + name + "' is a record without its fields");
    const std::int64_t alignment = align ? record_field_alignment(dtype) : 1;
    largestAlignment = std::max(largestAlignment, alignment);
    offset = (offset + alignment - 1) / alignment * alignment;
    laid.push_back({name, dtype, offset});
    offset += static_cast<std::int64_t>(dtype_itemsize(dtype));
  }
  const std::int64_t itemsize =
      (offset + largestAlignment - 1) / largestAlignment * largestAlignment;
  return RecordDtype(std::move(laid), itemsize, align);
}

const RecordField* RecordDtype::field(std::string_view name) const {
  for (const RecordField& f : fields_)
    if (f.name == name)
      return &f;
  return nullptr;
}

std::int64_t RecordDtype::alignment() const {
  std::int64_t largest = 1;
  if (aligned_)
    for (const RecordField& f : fields_)
      largest = std::max(largest, f.alignment());
  return largest;
}

std::string RecordDtype::str() const {
  std::string out = "Record(";
  for (size_t i = 0; i < fields_.size(); ++i)
    out += (i ? "," : "") + fields_[i].name + "[type=" + fieldTypeName(fields_[i]) +
           ";offset=" + std::to_string(fields_[i].offset) + "]";
  return out + ";" + std::to_string(itemsize_) + ";" + (aligned_ ? "True" : "False") + ")";
}

} // namespace pyk
