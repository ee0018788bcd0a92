// RecordDtype: structured dtypes (numpy's, numba's Record), their layout checked when made.
#include <algorithm>

#include "pyk/error.hpp"
#include "pyk/record.hpp"

namespace pyk {

namespace {

[[noreturn]] void refuse(const std::string& what) {
  throw Error(ErrorKind::InvalidArgument, "structured dtype: " + what);
}

} // namespace

std::int64_t recordFieldAlignment(Dtype dtype) {
  const auto size = static_cast<std::int64_t>(dtypeItemsize(dtype));
  return isComplexDtype(dtype) ? size / 2 : size;
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
    if (f.dtype == Dtype::Record)
      refuse("the field '" + f.name + "' is itself a record (nested records are not supported)");
    const auto size = static_cast<std::int64_t>(dtypeItemsize(f.dtype));
    if (f.offset < 0 || f.offset > itemsize_ - size)
      refuse("the field '" + f.name + "' (" + std::string(dtypeName(f.dtype)) + " at offset " +
             std::to_string(f.offset) + ") does not lie within the item of " +
             std::to_string(itemsize_) + " bytes");
    const std::int64_t alignment = recordFieldAlignment(f.dtype);
    largestAlignment = std::max(largestAlignment, alignment);
    if (aligned_ && f.offset % alignment != 0)
      refuse("the field '" + f.name + "' is at offset " + std::to_string(f.offset) +
             ", not a multiple of its alignment " + std::to_string(alignment) +
             ", in an aligned record");
    for (size_t j = 0; j < i; ++j) {
      const RecordField& g = fields_[j];
      const auto gSize = static_cast<std::int64_t>(dtypeItemsize(g.dtype));
      if (f.offset < g.offset + gSize && g.offset < f.offset + size)
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
      refuse("the field '" + name + "' is itself a record (nested records are not supported)");
    const std::int64_t alignment = align ? recordFieldAlignment(dtype) : 1;
    largestAlignment = std::max(largestAlignment, alignment);
    offset = (offset + alignment - 1) / alignment * alignment;
    laid.push_back({name, dtype, offset});
    offset += static_cast<std::int64_t>(dtypeItemsize(dtype));
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

std::string RecordDtype::str() const {
  std::string out = "Record(";
  for (size_t i = 0; i < fields_.size(); ++i)
    out += (i ? "," : "") + fields_[i].name + "[type=" + std::string(dtypeName(fields_[i].dtype)) +
           ";offset=" + std::to_string(fields_[i].offset) + "]";
  return out + ";" + std::to_string(itemsize_) + ";" + (aligned_ ? "True" : "False") + ")";
}

} // namespace pyk
