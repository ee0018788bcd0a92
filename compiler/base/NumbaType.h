// NumbaType: numba's types as values: scalars, arrays, tuples, records, numba.cuda's vector
// types, functions and type objects as values, and void. The vocabulary typing, lowering, code
// generation and the runtime (a launch's argument types) share, so it sits in the base library
// below them all; sema, which types every kernel, reads it unqualified (the directive at the end).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pyk::sema {
// A function value's type names what it is (NumbaType::function); only typing, which defines
// these, looks inside them.
struct CompiledFunction;
enum class Intrinsic : uint16_t;
} // namespace pyk::sema

namespace pyk::types {

using sema::CompiledFunction;
using sema::Intrinsic;

// numba's scalar types, each once (aliases such as `f4`, `float_` or `intp` map onto these).
enum class ScalarKind : uint8_t {
  Boolean,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float16,
  Float32,
  Float64,
  Complex64,
  Complex128,
};

// numba's canonical name of a scalar kind: "boolean", "int32", "float64", "complex128", ...
const char* scalarName(ScalarKind kind);
bool isInteger(ScalarKind kind);
bool isSignedInteger(ScalarKind kind);
bool isFloat(ScalarKind kind);
bool isComplex(ScalarKind kind);
// Bits of the value (the whole of a complex); 8 for boolean.
int bitWidth(ScalarKind kind);
// The alignment numpy (and C) give the scalar in a record, in bytes: its size, or that of one
// part of a complex.
int64_t alignmentOf(ScalarKind kind);

// C: `::1` on the last dimension; F: on the first; A: any strides.
enum class ArrayLayout : uint8_t { C, F, A };
const char* layoutName(ArrayLayout layout); // "C", "F", "A"

class NumbaType;

struct RecordLayout;

// numpy's datetime64 / timedelta64 units, numbered as numba numbers them
// (np/npdatetime_helpers.py's DATETIME_UNITS: 3, numpy's business day, is not a unit numba has);
// Generic is the unit-less `datetime64` / `timedelta64`.
enum class DatetimeUnit : uint8_t {
  Y = 0,
  M = 1,
  W = 2,
  D = 4,
  h = 5,
  m = 6,
  s = 7,
  ms = 8,
  us = 9,
  ns = 10,
  ps = 11,
  fs = 12,
  as = 13,
  Generic = 14,
};
// numpy's spelling of the unit ("D", "ms"; "" for Generic), and the unit a spelling names.
const char* datetimeUnitName(DatetimeUnit unit);
std::optional<DatetimeUnit> datetimeUnitNamed(std::string_view name);

// What one field of a record holds (numba's field types): a scalar, a nested record, or a
// character sequence (numpy's 'S<n>', numba's CharSeq; numpy's 'U<n>', numba's UnicodeCharSeq).
enum class FieldKind : uint8_t { Scalar, Record, Bytes, Unicode };

// A numpy structured dtype as numba sees it (numba.types.Record): named fields at byte offsets
// within an item of `size` bytes. A field with a `shape` is a sub-array (numba's NestedArray: a
// C-contiguous array of that shape lying inside the item).
struct RecordField {
  std::string name;
  ScalarKind type = ScalarKind::Float64; // Scalar: the scalar (of each item of a sub-array)
  int64_t offset = 0;
  FieldKind kind = FieldKind::Scalar;
  std::shared_ptr<const RecordLayout> record; // Record: the nested record's layout
  int64_t length = 0;                         // Bytes, Unicode: the characters
  std::vector<int64_t> shape;                 // a sub-array: its shape; empty for one item

  static RecordField scalar(std::string name, ScalarKind type, int64_t offset) {
    RecordField f;
    f.name = std::move(name);
    f.type = type;
    f.offset = offset;
    return f;
  }
  bool isSubArray() const { return !shape.empty(); }
  // The bytes of one item (a scalar, the nested record, the characters), and of the whole field
  // (times the sub-array's element count).
  int64_t itemBytes() const;
  int64_t bytes() const;
  // The alignment numpy gives the field in an aligned record (a nested record's own alignment).
  int64_t alignment() const;
  friend bool operator==(const RecordField& a, const RecordField& b);
};
struct RecordLayout {
  std::vector<RecordField> fields;
  int64_t size = 0;
  bool aligned = false; // np.dtype(..., align=True)
  const RecordField* field(std::string_view name) const {
    for (const RecordField& f : fields)
      if (f.name == name)
        return &f;
    return nullptr;
  }
  // numpy's alignment of the dtype: the largest field alignment when aligned, else 1.
  int64_t alignment() const;
  friend bool operator==(const RecordLayout&, const RecordLayout&) = default;
};

class NumbaType {
public:
  // GridGroup: what `cuda.cg.this_grid()` returns (its only use is `.sync()`).
  // Record: one item of a structured array (a reference into the array, as numba's Record).
  // Function: a function as a value (numba's Function and Dispatcher types): an intrinsic
  // (`cuda.atomic.add`) or a device function, passed to a device function and called there;
  // each is a type of its own, so the callee is specialized for it and the call is direct.
  // TypeRef: a scalar type object as a value (numba's NumberClass: `float32`, `np.int32`),
  // passed on as a dtype or called as a cast.
  // Neither has a value at run time: code generation passes nothing for them.
  // Vector: a numba.cuda vector type (`float32x4`): 1 to 4 elements of a base scalar type.
  // EnumMember: a member of an Enum or IntEnum class (numba's EnumMember / IntEnumMember):
  // a type per class, whose value is the member's value (an integer, a float, a tuple...). An
  // IntEnum member also computes as its integer; an Enum member only compares with its class's.
  // Optional: numba's Optional (`OptionalType(int64)`): a value of its type or None, what a
  // function returns when some paths return a value and others None, or a variable assigned
  // both; used as a value, it is unwrapped (numba's TypeError "expected T, got None" if None).
  // Datetime, Timedelta: numba's NPDatetime / NPTimedelta (`datetime64[D]`, `timedelta64[ms]`):
  // a 64-bit count of the unit (NaT the smallest int64), computing only as numba's
  // npdatetime rules say; an array of them holds the type as its element.
  // CharSeq: one item of a numpy 'S<n>' or '<U<n>' array (numba's CharSeq `[char x 12]` and
  // UnicodeCharSeq `[unichr x 12]`): n characters, bytes or UTF-32 code points, zero-padded;
  // stored from str / bytes constants and copied whole, as numba.cuda kernels may.
  enum class Kind : uint8_t {
    Void,
    Scalar,
    Array,
    UniTuple,
    Tuple,
    GridGroup,
    Record,
    Function,
    TypeRef,
    Vector,
    EnumMember,
    Optional,
    Datetime,
    Timedelta,
    CharSeq,
    Pointer
  };

  static constexpr int kMaxArrayDims = 8;

  NumbaType() = default; // void
  static NumbaType voidType() { return NumbaType(); }
  static NumbaType scalar(ScalarKind kind);
  static NumbaType array(ScalarKind dtype, int ndim, ArrayLayout layout, bool readonly = false);
  static NumbaType uniTuple(const NumbaType& element, int count);
  static NumbaType tuple(std::vector<NumbaType> elements);
  // A named tuple: the tuple type of its values, tagged with the class (`Point`) and its fields.
  static NumbaType namedTuple(std::vector<NumbaType> elements, std::string className,
                              std::vector<std::string> fieldNames);
  static NumbaType gridGroup();
  static NumbaType function(Intrinsic intrinsic, std::string name);
  static NumbaType function(const CompiledFunction* definition, std::string name);
  static NumbaType typeRef(ScalarKind kind);
  // numba.cuda's `<base>x<count>` (sema/catalog/VectorTypes.def lists the ones numba has).
  static NumbaType vector(ScalarKind base, int count);
  static NumbaType record(RecordLayout layout);
  // A member of the Enum (or, with `intEnum`, IntEnum) class `className`, of values of `value`.
  static NumbaType enumMember(std::string className, const NumbaType& value, bool intEnum);
  // numba's Optional of `value` (a type with a value at run time, not itself Optional).
  static NumbaType optional(const NumbaType& value);
  // numba's NPDatetime(unit) and NPTimedelta(unit).
  static NumbaType datetime(DatetimeUnit unit);
  static NumbaType timedelta(DatetimeUnit unit);
  // numba's CharSeq(count) (`unicode` false) and UnicodeCharSeq(count).
  static NumbaType charSeq(int64_t count, bool unicode);
  // numba's CPointer(scalar): a raw pointer to items of `pointee` (what `ffi.from_buffer` makes;
  // numba-cuda's cache hints take one), indexed by an integer.
  static NumbaType pointer(ScalarKind pointee);
  // An array of `element` (a scalar, a record, a datetime64 or timedelta64, a CharSeq).
  static NumbaType arrayOf(const NumbaType& element, int ndim, ArrayLayout layout,
                           bool readonly = false);
  // An array whose items are records.
  static NumbaType recordArray(const NumbaType& record, int ndim, ArrayLayout layout,
                               bool readonly = false);

  Kind kind() const { return kind_; }
  bool isVoid() const { return kind_ == Kind::Void; }
  bool isScalar() const { return kind_ == Kind::Scalar; }
  bool isArray() const { return kind_ == Kind::Array; }
  bool isTuple() const { return kind_ == Kind::UniTuple || kind_ == Kind::Tuple; }
  bool isNamedTuple() const { return isTuple() && !className_.empty(); }
  bool isRecord() const { return kind_ == Kind::Record; }
  bool isFunction() const { return kind_ == Kind::Function; }
  bool isTypeRef() const { return kind_ == Kind::TypeRef; }
  // Types with no value at run time (functions, type objects): nothing is passed or stored.
  bool isCompileTimeOnly() const { return isFunction() || isTypeRef(); }
  // Function: the intrinsic (None for a device function) or the device function it is.
  Intrinsic intrinsic() const { return intrinsic_; }
  const CompiledFunction* definition() const { return definition_; }
  bool isVector() const { return kind_ == Kind::Vector; }
  bool isEnumMember() const { return kind_ == Kind::EnumMember; }
  bool isIntEnumMember() const { return kind_ == Kind::EnumMember && intEnum_; }
  bool isOptional() const { return kind_ == Kind::Optional; }
  bool isDatetime() const { return kind_ == Kind::Datetime; }
  bool isTimedelta() const { return kind_ == Kind::Timedelta; }
  bool isDatetimeLike() const { return isDatetime() || isTimedelta(); }
  // Datetime, Timedelta: the unit.
  DatetimeUnit datetimeUnit() const { return unit_; }
  // Arrays of datetime64 or timedelta64 (their scalarKind() is int64, how they are stored).
  bool isDatetimeArray() const {
    return kind_ == Kind::Array && !elements_.empty() && elements_[0].isDatetimeLike();
  }
  bool isCharSeq() const { return kind_ == Kind::CharSeq; }
  // CPointer: its scalarKind() is the pointee's.
  bool isPointer() const { return kind_ == Kind::Pointer; }
  // CharSeq: how many characters; whether they are UTF-32 code points (numpy's 'U'), else bytes
  // (its scalarKind() is uint32 or uint8, a character's storage).
  int64_t charCount() const { return ndim_; }
  bool isUnicode() const { return scalar_ == ScalarKind::UInt32; }
  // Arrays of character sequences ('S<n>', 'U<n>').
  bool isCharSeqArray() const {
    return kind_ == Kind::Array && !elements_.empty() && elements_[0].isCharSeq();
  }
  // Optional: the type of its value when it is not None.
  const NumbaType& optionalValue() const { return elements_[0]; }
  // EnumMember: the type of the members' values (className() is the class).
  const NumbaType& enumValue() const { return elements_[0]; }
  // Vectors: how many elements (x, y, z, w in order); scalarKind() is their type.
  int vectorSize() const { return ndim_; }
  // An array of numbers or booleans: its scalarKind() is its items' type (not records,
  // datetime64s or character sequences, which numba's numeric operations do not take).
  bool isNumericArray() const {
    return kind_ == Kind::Array && record_ == nullptr && elements_.empty();
  }
  // An array of records (its scalarKind() means nothing then).
  bool isRecordArray() const { return kind_ == Kind::Array && record_ != nullptr; }
  // Record and record arrays: the layout.
  const RecordLayout& recordLayout() const { return *record_; }
  // Arrays: the type of one item (a scalar or a record).
  NumbaType elementType() const;
  // Arrays: an array of the same items with another shape, layout or writability.
  NumbaType withShape(int ndim, ArrayLayout layout, bool readonly) const;

  // Scalar: the scalar; Array: the element type; Vector: the base type.
  ScalarKind scalarKind() const { return scalar_; }
  int ndim() const { return ndim_; }
  ArrayLayout layout() const { return layout_; }
  // Arrays numba will not let a kernel write: `cuda.const.array_like`, frozen module arrays.
  bool readonly() const { return readonly_; }
  // Tuples: the element types (a UniTuple holds its element `count` times).
  const std::vector<NumbaType>& elements() const { return elements_; }
  // Named tuples: the class name and the field names, one per element.
  const std::string& className() const { return className_; }
  const std::vector<std::string>& fieldNames() const { return fieldNames_; }

  // numba's repr: `float32`, `array(float32, 2d, C)`, `UniTuple(int64 x 3)`,
  // `Tuple(int64, float32)`, `Point(float64 x 2)`, `float32x4`, `OptionalType(int64)`, `none`
  // for void.
  std::string str() const;
  // The signature-string spelling that parses back to this type: `float32[:, ::1]`,
  // `UniTuple(int64, 3)`, `Tuple((int64, float32))`, `void`.
  std::string spelling() const;

  friend bool operator==(const NumbaType& a, const NumbaType& b);

private:
  Kind kind_ = Kind::Void;
  ScalarKind scalar_ = ScalarKind::Boolean;
  int ndim_ = 0; // Array: the dimensions; Vector: the elements
  ArrayLayout layout_ = ArrayLayout::A;
  bool readonly_ = false;
  bool intEnum_ = false;                      // EnumMember of an IntEnum
  DatetimeUnit unit_ = DatetimeUnit::Generic; // Datetime, Timedelta
  std::vector<NumbaType> elements_; // tuples; EnumMember, Optional: the value; a datetime array's
  std::string className_;
  std::vector<std::string> fieldNames_;
  std::shared_ptr<const RecordLayout> record_;   // Record, and arrays of records
  Intrinsic intrinsic_{};                        // Function (Intrinsic::None)
  const CompiledFunction* definition_ = nullptr; // Function
};

// numba's type of a record field's value: its scalar, its nested record, or for a sub-array a
// C-contiguous array of its shape (numba's NestedArray); nullopt for character sequences, which
// kernels cannot read.
std::optional<NumbaType> recordFieldType(const RecordField& f);

// The scalar a numba type name stands for, aliases included (`float32`, `f4`, `float_`, `double`,
// `intp`, `int_`, `b1`, `bool_`, `c8`, ...). Names the `numba` and `numba.types` modules export.
std::optional<ScalarKind> scalarKindNamed(std::string_view name);
// Whether `name` spells void in numba (`void`, `none`).
bool isVoidTypeName(std::string_view name);
// Every scalar type name scalarKindNamed accepts, and the void names: for did-you-mean.
const std::vector<std::string>& numbaTypeNames();

// The scalar a numpy dtype name stands for (`float32`, `float64`, `int32`, `bool_`, `intp`,
// `complex64`, `single`, `double`, `half`, ...), as `np.<name>` or a dtype string.
std::optional<ScalarKind> numpyScalarKindNamed(std::string_view name);

} // namespace pyk::types

namespace pyk::sema {
using namespace pyk::types; // typing's own vocabulary
} // namespace pyk::sema
