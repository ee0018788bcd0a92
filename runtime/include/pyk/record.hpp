// record: structured dtypes, numpy's `np.dtype([('s0', '<u8'), ('s1', '<u8')], align=True)` and
// numba's Record: named scalar fields at byte offsets within an item of a fixed size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pyk/dtype.hpp"

namespace pyk {

struct RecordField {
  std::string name;
  Dtype dtype = Dtype::Float64; // a scalar dtype (never Dtype::Record: records do not nest)
  std::int64_t offset = 0;      // bytes from the start of the item

  bool operator==(const RecordField&) const = default;
};

// A structured dtype whose fields are scalars, as numba supports them in kernels. Nested records
// and sub-array fields are not representable; every constructor checks the layout and throws
// pyk::Error (InvalidArgument) naming what is wrong.
class RecordDtype {
public:
  // Fields at the given offsets in items of `itemsize` bytes (numpy's
  // `np.dtype({'names': ..., 'formats': ..., 'offsets': ..., 'itemsize': ...})`). Refused: no
  // field, an empty or repeated name, a field of Dtype::Record, a negative offset, overlapping
  // fields, a field past the end of the item, and, when `aligned`, an offset that is not a
  // multiple of the field's alignment or an item size that is not one of the largest alignment.
  RecordDtype(std::vector<RecordField> fields, std::int64_t itemsize, bool aligned);

  // Fields one after the other, as np.dtype(list_of_fields, align=...) lays them out: packed, or
  // with `align` each at a multiple of its alignment and the item padded to the largest.
  static RecordDtype sequential(const std::vector<std::pair<std::string, Dtype>>& fields,
                                bool align);

  const std::vector<RecordField>& fields() const { return fields_; }
  std::int64_t itemsize() const { return itemsize_; }
  // np.dtype(..., align=True) (numpy's isalignedstruct, numba's Record.aligned).
  bool aligned() const { return aligned_; }
  // The field of that name, or nullptr.
  const RecordField* field(std::string_view name) const;
  // numba's spelling of the type:
  // `Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True)`.
  std::string str() const;

  bool operator==(const RecordDtype&) const = default;

private:
  std::vector<RecordField> fields_;
  std::int64_t itemsize_ = 0;
  bool aligned_ = false;
};

// The alignment numpy gives a scalar field in an aligned record: its size, or that of one half of
// a complex.
std::int64_t recordFieldAlignment(Dtype dtype);

} // namespace pyk
