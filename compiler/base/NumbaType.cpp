// NumbaType: numba's types as values, their constructors and numba's reprs and signature
// spellings (the names numba and numpy give types are TypeNames.cpp's).
#include "base/NumbaType.h"

#include <algorithm>
#include <utility>

namespace pyk::types {

namespace {

struct ScalarInfo {
  const char* name;
  int bits;
};

constexpr ScalarInfo kScalars[] = {
    {"boolean", 8},  {"int8", 8},     {"int16", 16},     {"int32", 32},       {"int64", 64},
    {"uint8", 8},    {"uint16", 16},  {"uint32", 32},    {"uint64", 64},      {"float16", 16},
    {"float32", 32}, {"float64", 64}, {"complex64", 64}, {"complex128", 128},
};

} // namespace

const char* scalarName(ScalarKind kind) {
  return kScalars[static_cast<size_t>(kind)].name;
}
int bitWidth(ScalarKind kind) {
  return kScalars[static_cast<size_t>(kind)].bits;
}

int64_t alignmentOf(ScalarKind kind) {
  const int64_t size = bitWidth(kind) / 8;
  return isComplex(kind) ? size / 2 : size;
}

bool isInteger(ScalarKind kind) {
  return kind >= ScalarKind::Int8 && kind <= ScalarKind::UInt64;
}
bool isSignedInteger(ScalarKind kind) {
  return kind >= ScalarKind::Int8 && kind <= ScalarKind::Int64;
}
bool isFloat(ScalarKind kind) {
  return kind >= ScalarKind::Float16 && kind <= ScalarKind::Float64;
}
bool isComplex(ScalarKind kind) {
  return kind == ScalarKind::Complex64 || kind == ScalarKind::Complex128;
}

const char* layoutName(ArrayLayout layout) {
  switch (layout) {
  case ArrayLayout::C:
    return "C";
  case ArrayLayout::F:
    return "F";
  case ArrayLayout::A:
    return "A";
  }
  return "A";
}

NumbaType NumbaType::datetime(DatetimeUnit unit) {
  NumbaType type;
  type.kind_ = Kind::Datetime;
  type.scalar_ = ScalarKind::Int64;
  type.unit_ = unit;
  return type;
}

NumbaType NumbaType::timedelta(DatetimeUnit unit) {
  NumbaType type = datetime(unit);
  type.kind_ = Kind::Timedelta;
  return type;
}

NumbaType NumbaType::charSeq(int64_t count, bool unicode) {
  NumbaType type;
  type.kind_ = Kind::CharSeq;
  type.scalar_ = unicode ? ScalarKind::UInt32 : ScalarKind::UInt8;
  type.ndim_ = static_cast<int>(count);
  return type;
}

NumbaType NumbaType::arrayOf(const NumbaType& element, int ndim, ArrayLayout layout,
                             bool readonly) {
  if (element.isRecord())
    return recordArray(element, ndim, layout, readonly);
  NumbaType type = array(element.scalarKind(), ndim, layout, readonly);
  if (element.isDatetimeLike() || element.isCharSeq())
    type.elements_ = {element};
  return type;
}

NumbaType NumbaType::scalar(ScalarKind kind) {
  NumbaType type;
  type.kind_ = Kind::Scalar;
  type.scalar_ = kind;
  return type;
}

NumbaType NumbaType::array(ScalarKind dtype, int ndim, ArrayLayout layout, bool readonly) {
  NumbaType type;
  type.kind_ = Kind::Array;
  type.scalar_ = dtype;
  type.ndim_ = ndim;
  type.layout_ = layout;
  type.readonly_ = readonly;
  return type;
}

NumbaType NumbaType::enumMember(std::string className, const NumbaType& value, bool intEnum) {
  NumbaType type;
  type.kind_ = Kind::EnumMember;
  type.className_ = std::move(className);
  type.elements_ = {value};
  type.intEnum_ = intEnum;
  return type;
}

NumbaType NumbaType::optional(const NumbaType& value) {
  NumbaType type;
  type.kind_ = Kind::Optional;
  type.elements_ = {value};
  return type;
}

NumbaType NumbaType::uniTuple(const NumbaType& element, int count) {
  if (count == 0)
    return tuple({}); // the empty tuple (a 0-d array's shape) has no element type to keep
  NumbaType type;
  type.kind_ = Kind::UniTuple;
  type.elements_.assign(static_cast<size_t>(count), element);
  return type;
}

NumbaType NumbaType::tuple(std::vector<NumbaType> elements) {
  NumbaType type;
  type.kind_ = Kind::Tuple;
  type.elements_ = std::move(elements);
  return type;
}

NumbaType NumbaType::namedTuple(std::vector<NumbaType> elements, std::string className,
                                std::vector<std::string> fieldNames) {
  bool uniform = !elements.empty();
  for (const NumbaType& e : elements)
    uniform = uniform && e == elements[0];
  NumbaType type = uniform ? uniTuple(elements[0], static_cast<int>(elements.size()))
                           : tuple(std::move(elements));
  type.className_ = std::move(className);
  type.fieldNames_ = std::move(fieldNames);
  return type;
}

NumbaType NumbaType::record(RecordLayout layout) {
  NumbaType type;
  type.kind_ = Kind::Record;
  type.record_ = std::make_shared<const RecordLayout>(std::move(layout));
  return type;
}

NumbaType NumbaType::recordArray(const NumbaType& record, int ndim, ArrayLayout layout,
                                 bool readonly) {
  NumbaType type = array(ScalarKind::Boolean, ndim, layout, readonly);
  type.record_ = record.record_;
  return type;
}

NumbaType NumbaType::elementType() const {
  if (record_ != nullptr) {
    NumbaType r;
    r.kind_ = Kind::Record;
    r.record_ = record_;
    return r;
  }
  if (!elements_.empty())
    return elements_[0]; // datetime64, timedelta64
  return scalar(scalar_);
}

NumbaType NumbaType::withShape(int ndim, ArrayLayout layout, bool readonly) const {
  NumbaType type = array(scalar_, ndim, layout, readonly);
  type.record_ = record_;
  type.elements_ = elements_;
  return type;
}

bool operator==(const NumbaType& a, const NumbaType& b) {
  if (a.kind_ != b.kind_ || a.scalar_ != b.scalar_ || a.ndim_ != b.ndim_ ||
      a.layout_ != b.layout_ || a.readonly_ != b.readonly_ || a.intEnum_ != b.intEnum_ ||
      a.unit_ != b.unit_ || a.elements_ != b.elements_ || a.className_ != b.className_ ||
      a.fieldNames_ != b.fieldNames_ || a.intrinsic_ != b.intrinsic_ ||
      a.definition_ != b.definition_)
    return false;
  if (a.record_ == nullptr || b.record_ == nullptr)
    return a.record_ == b.record_;
  return *a.record_ == *b.record_;
}

namespace {
// numba's repr of a scalar type: its name, but `bool` for the type it exports as `boolean`.
const char* scalarRepr(ScalarKind kind) {
  return kind == ScalarKind::Boolean ? "bool" : scalarName(kind);
}

std::string recordRepr(const RecordLayout& r);

// numba's repr of a field's type: `float32`, `nestedarray(float32, (3, 2))`, `Record(...)`,
// `[char x 12]`, `[unichr x 12]`.
std::string fieldRepr(const RecordField& f) {
  std::string item;
  switch (f.kind) {
  case FieldKind::Scalar:
    item = scalarRepr(f.type);
    break;
  case FieldKind::Record:
    item = recordRepr(*f.record);
    break;
  case FieldKind::Bytes:
    item = "[char x " + std::to_string(f.length) + "]";
    break;
  case FieldKind::Unicode:
    item = "[unichr x " + std::to_string(f.length) + "]";
    break;
  }
  if (!f.isSubArray())
    return item;
  std::string shape = "(";
  for (size_t d = 0; d < f.shape.size(); ++d)
    shape += (d ? ", " : "") + std::to_string(f.shape[d]);
  return "nestedarray(" + item + ", " + shape + (f.shape.size() == 1 ? ",))" : "))");
}

// numba's Record repr: `Record(x[type=float32;offset=0],y[type=int32;offset=4];8;False)`.
std::string recordRepr(const RecordLayout& r) {
  std::string out = "Record(";
  for (size_t i = 0; i < r.fields.size(); ++i)
    out += (i ? "," : "") + r.fields[i].name + "[type=" + fieldRepr(r.fields[i]) +
           ";offset=" + std::to_string(r.fields[i].offset) + "]";
  return out + ";" + std::to_string(r.size) + ";" + (r.aligned ? "True" : "False") + ")";
}
} // namespace

int64_t RecordField::itemBytes() const {
  switch (kind) {
  case FieldKind::Scalar:
    return bitWidth(type) / 8;
  case FieldKind::Record:
    return record->size;
  case FieldKind::Bytes:
    return length;
  case FieldKind::Unicode:
    return 4 * length;
  }
  return 0;
}

int64_t RecordField::bytes() const {
  int64_t n = itemBytes();
  for (int64_t extent : shape)
    n *= extent;
  return n;
}

int64_t RecordField::alignment() const {
  switch (kind) {
  case FieldKind::Scalar:
    return alignmentOf(type);
  case FieldKind::Record:
    return record->alignment();
  case FieldKind::Bytes:
    return 1;
  case FieldKind::Unicode:
    return 4;
  }
  return 1;
}

bool operator==(const RecordField& a, const RecordField& b) {
  if (a.name != b.name || a.type != b.type || a.offset != b.offset || a.kind != b.kind ||
      a.length != b.length || a.shape != b.shape)
    return false;
  if (a.record == nullptr || b.record == nullptr)
    return a.record == b.record;
  return *a.record == *b.record;
}

int64_t RecordLayout::alignment() const {
  int64_t largest = 1;
  if (aligned)
    for (const RecordField& f : fields)
      largest = std::max(largest, f.alignment());
  return largest;
}

NumbaType NumbaType::gridGroup() {
  NumbaType type;
  type.kind_ = Kind::GridGroup;
  return type;
}

NumbaType NumbaType::function(Intrinsic intrinsic, std::string name) {
  NumbaType type;
  type.kind_ = Kind::Function;
  type.intrinsic_ = intrinsic;
  type.className_ = std::move(name);
  return type;
}

NumbaType NumbaType::function(const CompiledFunction* definition, std::string name) {
  NumbaType type;
  type.kind_ = Kind::Function;
  type.definition_ = definition;
  type.className_ = std::move(name);
  return type;
}

NumbaType NumbaType::typeRef(ScalarKind kind) {
  NumbaType type;
  type.kind_ = Kind::TypeRef;
  type.scalar_ = kind;
  return type;
}

NumbaType NumbaType::pointer(ScalarKind pointee) {
  NumbaType type;
  type.kind_ = Kind::Pointer;
  type.scalar_ = pointee;
  return type;
}

NumbaType NumbaType::vector(ScalarKind base, int count) {
  NumbaType type;
  type.kind_ = Kind::Vector;
  type.scalar_ = base;
  type.ndim_ = count;
  return type;
}

std::string NumbaType::str() const {
  switch (kind_) {
  case Kind::Void:
    return "none";
  case Kind::Scalar:
    return scalarRepr(scalar_);
  case Kind::Array:
    // numba names an array of a record made without align=True "unaligned".
    return std::string(record_ && !record_->aligned ? "unaligned " : "") +
           (readonly_ ? "readonly array(" : "array(") +
           (record_             ? recordRepr(*record_)
            : elements_.empty() ? std::string(scalarRepr(scalar_))
                                : elements_[0].str()) +
           ", " + std::to_string(ndim_) + "d, " + layoutName(layout_) + ")";
  case Kind::Record:
    return recordRepr(*record_);
  case Kind::UniTuple:
    return (className_.empty() ? "UniTuple" : className_) + "(" +
           (elements_.empty() ? std::string("none") : elements_[0].str()) + " x " +
           std::to_string(elements_.size()) + ")";
  case Kind::Tuple: {
    std::string out = (className_.empty() ? "Tuple" : className_) + "(";
    for (size_t i = 0; i < elements_.size(); ++i)
      out += (i ? ", " : "") + elements_[i].str();
    return out + ")";
  }
  case Kind::GridGroup:
    return "GridGroup";
  case Kind::Function:
    return "Function(" + className_ + ")";
  case Kind::TypeRef:
    return std::string("class(") + scalarRepr(scalar_) + ")";
  case Kind::Vector:
    return std::string(scalarName(scalar_)) + "x" + std::to_string(ndim_);
  case Kind::EnumMember: // numba's repr: `Enum<int64>(Color)`, `IntEnum<int64>(Shape)`
    return std::string(intEnum_ ? "IntEnum<" : "Enum<") + elements_[0].str() + ">(" + className_ +
           ")";
  case Kind::Optional: // numba's repr
    return "OptionalType(" + elements_[0].str() + ")";
  case Kind::Datetime: // numba's repr: `datetime64[D]`, `datetime64[]`
    return std::string("datetime64[") + datetimeUnitName(unit_) + "]";
  case Kind::Timedelta:
    return std::string("timedelta64[") + datetimeUnitName(unit_) + "]";
  case Kind::CharSeq: // numba's repr: `[char x 12]`, `[unichr x 12]`
    return std::string(isUnicode() ? "[unichr x " : "[char x ") + std::to_string(ndim_) + "]";
  case Kind::Pointer: // numba's repr: `float32*`
    return std::string(scalarRepr(scalar_)) + "*";
  }
  return "?";
}

std::string NumbaType::spelling() const {
  if (isNamedTuple())
    return str(); // no signature string names a named tuple class
  switch (kind_) {
  case Kind::Void:
    return "void";
  case Kind::Scalar:
    return scalarName(scalar_);
  case Kind::Array: {
    const std::string dtype = record_             ? recordRepr(*record_)
                              : elements_.empty() ? std::string(scalarName(scalar_))
                                                  : elements_[0].spelling();
    // A 1-D Fortran-order array has no slice spelling of its own (`[::1]` is C order), so it is
    // spelt as numba's constructor (the signature fuzzer found `[:]` read back as layout A).
    // Nor has a 0-d array (numba's float64[()] raises).
    if ((layout_ == ArrayLayout::F && ndim_ == 1) || ndim_ == 0)
      return "Array(" + dtype + ", " + std::to_string(ndim_) + ", \"" + layoutName(layout_) + "\")";
    std::string out = dtype + "[";
    for (int i = 0; i < ndim_; ++i) {
      if (i)
        out += ", ";
      bool contiguous = (layout_ == ArrayLayout::C && i == ndim_ - 1) ||
                        (layout_ == ArrayLayout::F && i == 0 && ndim_ > 1);
      out += contiguous ? "::1" : ":";
    }
    return out + "]";
  }
  case Kind::UniTuple:
    return "UniTuple(" + (elements_.empty() ? std::string("int64") : elements_[0].spelling()) +
           ", " + std::to_string(elements_.size()) + ")";
  case Kind::Tuple: {
    std::string out = "Tuple((";
    for (size_t i = 0; i < elements_.size(); ++i)
      out += (i ? ", " : "") + elements_[i].spelling();
    return out + (elements_.size() == 1 ? ",))" : "))");
  }
  case Kind::GridGroup:
    return "GridGroup";
  case Kind::Record:
    return recordRepr(*record_);
  case Kind::Function:
  case Kind::TypeRef:
    return str();        // no signature string names them
  case Kind::Vector:     // no signature string names a vector type; its repr
  case Kind::EnumMember: // nor an Enum class's members
    return str();
  case Kind::Optional: // numba.types.optional, which signature strings may name
    return "optional(" + elements_[0].spelling() + ")";
  case Kind::Datetime: // numba.types' constructors: `NPDatetime('D')`
    return std::string("NPDatetime('") + datetimeUnitName(unit_) + "')";
  case Kind::Timedelta:
    return std::string("NPTimedelta('") + datetimeUnitName(unit_) + "')";
  case Kind::CharSeq: // numba.types' constructors: `CharSeq(12)`, `UnicodeCharSeq(12)`
    return std::string(isUnicode() ? "UnicodeCharSeq(" : "CharSeq(") + std::to_string(ndim_) + ")";
  case Kind::Pointer: // numba.types' constructor
    return std::string("CPointer(") + scalarName(scalar_) + ")";
  }
  return "?";
}

std::optional<NumbaType> recordFieldType(const RecordField& f) {
  NumbaType item;
  switch (f.kind) {
  case FieldKind::Scalar:
    item = NumbaType::scalar(f.type);
    break;
  case FieldKind::Record:
    item = NumbaType::record(*f.record);
    break;
  case FieldKind::Bytes:
  case FieldKind::Unicode:
    return std::nullopt;
  }
  if (!f.isSubArray())
    return item;
  // numba's NestedArray: a C-contiguous array of the field's shape inside the record.
  return NumbaType::array(f.type, static_cast<int>(f.shape.size()), ArrayLayout::C);
}

} // namespace pyk::types
