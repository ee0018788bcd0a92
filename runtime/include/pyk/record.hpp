// record: structured dtypes, numpy's `np.dtype([('s0', '<u8'), ('s1', '<u8')], align=True)` and
// numba's Record: named fields at byte offsets within an item of a fixed size: scalars, sub-arrays
// of scalars (`('j', '<f4', (3, 2))`, numba's NestedArray), nested records and character sequences
// (numpy's 'S12' and 'U12').
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pyk/dtype.hpp"

namespace pyk {

class RecordDtype;

// A field that holds characters: numpy's 'S<n>' (bytes) or 'U<n>' (UCS-4 code points).
enum class FieldChars { None, Bytes, Unicode };

struct RecordField {
  std::string name;
  // A scalar dtype; Dtype::Record for a nested record (`record`); for characters, UInt8 (bytes)
  // or UInt32 (unicode), the type of one character.
  Dtype dtype = Dtype::Float64;
  std::int64_t offset = 0; // bytes from the start of the item
  // A sub-array field: its shape (C order, the items one after the other); empty for one item.
  std::vector<std::int64_t> shape = {};
  std::shared_ptr<const RecordDtype> record = {}; // Dtype::Record: the nested record
  FieldChars chars = FieldChars::None;
  std::int64_t length = 0; // characters: how many

  // Bytes of one item (the scalar, the nested record, the characters) and of the whole field.
  std::int64_t item_bytes() const;
  std::int64_t bytes() const;
  // numpy's alignment of the field in an aligned record (a nested record's own alignment).
  std::int64_t alignment() const;
  bool operator==(const RecordField& other) const;
};

// A structured dtype as numba supports it in kernels. Sub-arrays of records are not
// representable (numba has no type for them); every constructor checks the layout and throws
// pyk::Error (InvalidArgument) naming what is wrong.
class RecordDtype {
public:
  // Fields at the given offsets in items of `itemsize` bytes (numpy's
  // `np.dtype({'names': ..., 'formats': ..., 'offsets': ..., 'itemsize': ...})`). Refused: no
  // field, an empty or repeated name, a nested record without its RecordDtype, a sub-array of
  // records, a negative extent or offset, overlapping fields, a field past the end of the item,
  // and, when `aligned`, an offset that is not a multiple of the field's alignment or an item size
  // that is not one of the largest alignment.
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
  // numpy's alignment of the dtype: the largest field alignment when aligned, else 1.
  std::int64_t alignment() const;
  // numba's spelling of the type:
  // `Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True)`, a sub-array field's type
  // `nestedarray(float32, (3, 2))`, characters `[char x 12]` and `[unichr x 12]`.
  std::string str() const;

  bool operator==(const RecordDtype&) const = default;

private:
  std::vector<RecordField> fields_;
  std::int64_t itemsize_ = 0;
  bool aligned_ = false;
};

// The alignment numpy gives a scalar field in an aligned record: its size, or that of one half of
// a complex.
std::int64_t record_field_alignment(Dtype dtype);

} // namespace pyk
