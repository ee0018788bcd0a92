// EmitTypes: numba types as C++ — scalars, pyk::Array views, a struct per record dtype (its
// fields at the dtype's offsets: scalars, sub-arrays, nested records, character sequences) and
// per tuple type, the support headers' pyk::vector for numba's vector types — and the casts
// between them.
#include <algorithm>

#include "base/ParameterLayout.h"
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

std::string UnitEmitter::type(const NumbaType& t) {
  switch (t.kind()) {
  case NumbaType::Kind::Void:
    return "void";
  case NumbaType::Kind::Scalar: {
    std::string s = scalarCpp(t.scalarKind());
    return s.empty() ? "void" : s; // function() reported the type where it was declared
  }
  case NumbaType::Kind::Array:
    return "pyk::Array<" + elementCpp(t) + ", " + std::to_string(t.ndim()) +
           ", pyk::Layout::" + types::layoutName(t.layout()) + ">";
  case NumbaType::Kind::Record:
    return recordStruct(t) + "*"; // a record refers to its item in an array, as in numba
  case NumbaType::Kind::UniTuple:
  case NumbaType::Kind::Tuple:
    return tupleStruct(t);
  case NumbaType::Kind::GridGroup:
    return "pyk::GridGroup";
  case NumbaType::Kind::Function:
  case NumbaType::Kind::TypeRef:
    return "void"; // nothing at run time: never declared, passed or stored
  case NumbaType::Kind::Vector:
    return "pyk::vector<" + scalarCpp(t.scalarKind()) + ", " + std::to_string(t.vectorSize()) + ">";
  case NumbaType::Kind::EnumMember: // its value
    return type(t.enumValue());
  case NumbaType::Kind::Optional: // its value and whether it is there
    return "pyk::optional<" + type(t.optionalValue()) + ">";
  case NumbaType::Kind::Datetime: // a count of the unit, as numba holds them
  case NumbaType::Kind::Timedelta:
    return "pyk::int64";
  case NumbaType::Kind::CharSeq: // the characters, zero-padded
    return "pyk::charseq<" + scalarCpp(t.scalarKind()) + ", " + std::to_string(t.charCount()) + ">";
  case NumbaType::Kind::Pointer: // numba's CPointer: the address of the first scalar
    return scalarCpp(t.scalarKind()) + "*";
  }
  return "void";
}

namespace {

// How a record's struct is laid out in C++: plain when every field sits at a multiple of its C++
// alignment and the size is a multiple of the largest (then `alignment` is that largest), else
// packed (alignment 1). Nested records count with their own struct's alignment.
struct StructLayout {
  bool natural = true;
  int64_t alignment = 1;
};
StructLayout structLayout(const types::RecordLayout& r);

int64_t cppAlignment(const types::RecordField& f) {
  switch (f.kind) {
  case types::FieldKind::Scalar:
    return types::alignmentOf(f.type);
  case types::FieldKind::Record:
    return structLayout(*f.record).alignment;
  case types::FieldKind::Bytes:
    return 1;
  case types::FieldKind::Unicode:
    return 4;
  }
  return 1;
}

StructLayout structLayout(const types::RecordLayout& r) {
  StructLayout out;
  int64_t largest = 1;
  for (const types::RecordField& f : r.fields) {
    out.natural = out.natural && f.offset % cppAlignment(f) == 0;
    largest = std::max(largest, cppAlignment(f));
  }
  out.natural = out.natural && r.size % largest == 0;
  out.alignment = out.natural ? largest : 1;
  return out;
}

bool supportedRecord(const types::RecordLayout& r) {
  std::vector<const types::RecordField*> fields;
  for (const types::RecordField& f : r.fields)
    fields.push_back(&f);
  std::stable_sort(fields.begin(), fields.end(),
                   [](const auto* a, const auto* b) { return a->offset < b->offset; });
  int64_t end = 0;
  for (const types::RecordField* f : fields) {
    if (f->offset < end) // overlapping fields (a union): no struct lays them out
      return false;
    end = f->offset + f->bytes();
    if (f->kind == types::FieldKind::Scalar && scalarCpp(f->type).empty())
      return false;
    if (f->kind == types::FieldKind::Record && !supportedRecord(*f->record))
      return false;
  }
  return end <= r.size;
}

} // namespace

bool UnitEmitter::supported(const NumbaType& t) {
  if (t.isCompileTimeOnly())
    return true;
  if (t.isRecord() || t.isRecordArray())
    return supportedRecord(t.recordLayout());
  if (t.isScalar() || t.isArray())
    return !scalarCpp(t.scalarKind()).empty();
  for (const NumbaType& e : t.elements())
    if (!supported(e))
      return false;
  return true;
}

std::string UnitEmitter::elementCpp(const NumbaType& array) {
  if (array.isCharSeqArray())
    return type(array.elementType());
  return array.isRecordArray() ? recordStruct(array.elementType()) : scalarCpp(array.scalarKind());
}

int64_t UnitEmitter::itemBytes(const NumbaType& array) {
  if (array.isCharSeqArray())
    return types::parameterLayout(array.elementType()).size;
  return array.isRecordArray() ? array.recordLayout().size
                               : types::bitWidth(array.scalarKind()) / 8;
}

bool UnitEmitter::unalignedComplex(const types::RecordField& f) {
  return f.kind == types::FieldKind::Scalar && isComplex(f.type) &&
         f.offset % (bitWidth(f.type) / 16) != 0;
}

bool UnitEmitter::recordFieldAligned(const types::RecordField& f) {
  if (f.kind == types::FieldKind::Record)
    return f.offset % structLayout(*f.record).alignment == 0;
  return f.offset % cppAlignment(f) == 0;
}

// A plain struct when every field is at its natural alignment and the item size a multiple of the
// largest (an aligned dtype, or a packed one that happens to be aligned), else a packed struct
// (the compiler then reads unaligned fields bytewise). Gaps become padding members; a sub-array
// is a C array of its items in C order; a nested record is its own struct.
std::string UnitEmitter::recordStruct(const NumbaType& t) {
  std::string name = "pyk_record_" + typeCode(t);
  if (!tuples_.insert(name).second)
    return name;
  const types::RecordLayout& r = t.recordLayout();
  std::vector<types::RecordField> fields = r.fields;
  std::stable_sort(fields.begin(), fields.end(),
                   [](const auto& a, const auto& b) { return a.offset < b.offset; });
  const bool natural = structLayout(r).natural;
  std::ostringstream s;
  s << "// " << t.str() << "\n";
  s << "struct " << (natural ? "" : "__attribute__((packed)) ") << name << " {\n";
  int64_t at = 0;
  int pad = 0;
  for (const types::RecordField& f : fields) {
    if (f.offset > at)
      s << "  unsigned char pyk_pad" << pad++ << "[" << f.offset - at << "];\n";
    std::string item;
    switch (f.kind) {
    case types::FieldKind::Scalar:
      item = scalarCpp(f.type);
      // A complex number is a C++ class, which no compiler packs: at an offset that is no
      // multiple of its alignment it is kept as its bytes (visitRecordField reads them whole).
      if (unalignedComplex(f))
        item = "pyk::Unaligned<" + item + ">";
      break;
    case types::FieldKind::Record:
      item = recordStruct(NumbaType::record(*f.record));
      break;
    case types::FieldKind::Bytes:
      item = "pyk::uint8";
      break;
    case types::FieldKind::Unicode:
      item = "pyk::uint32";
      break;
    }
    // A member array: the sub-array's items, each character of a character field.
    const bool chars = f.kind == types::FieldKind::Bytes || f.kind == types::FieldKind::Unicode;
    const int64_t count = f.bytes() / std::max<int64_t>(1, f.itemBytes()) * (chars ? f.length : 1);
    const bool arrayMember =
        f.isSubArray() || f.kind == types::FieldKind::Bytes || f.kind == types::FieldKind::Unicode;
    s << "  " << item << " " << recordMemberName(f.name)
      << (arrayMember ? "[" + std::to_string(count) + "]" : "") << ";\n";
    at = f.offset + f.bytes();
  }
  if (r.size > at)
    s << "  unsigned char pyk_pad" << pad++ << "[" << r.size - at << "];\n";
  s << "};\n";
  // Each member follows the one before with no implicit padding (natural: every offset is a
  // multiple of its alignment; packed: none), so the size check also checks every offset.
  // (NVRTC has no offsetof to check them one by one.)
  s << "static_assert(sizeof(" << name << ") == " << r.size << ", \"record size\");\n\n";
  prelude_ << s.str();
  return name;
}

std::string UnitEmitter::tupleStruct(const NumbaType& t) {
  std::string name = "pyk_tuple_" + typeCode(t);
  if (tuples_.insert(name).second) {
    std::ostringstream s;
    if (t.isNamedTuple()) {
      s << "// namedtuple " << t.className() << "(";
      for (size_t i = 0; i < t.fieldNames().size(); ++i)
        s << (i ? ", " : "") << t.fieldNames()[i];
      s << ")\n";
    }
    s << "struct " << name << " {\n";
    // A None element (`(x, None)`, numba's Tuple(int64, none)) holds pyk::none_t.
    auto element = [&](const NumbaType& e) { return e.isVoid() ? "pyk::none_t" : type(e); };
    if (t.kind() == NumbaType::Kind::UniTuple)
      s << "  " << element(t.elements()[0]) << " e[" << t.elements().size() << "];\n";
    else
      for (size_t i = 0; i < t.elements().size(); ++i)
        s << "  " << element(t.elements()[i]) << " e" << i << ";\n";
    s << "};\n";
    // A tuple can be a kernel argument: the runtime lays it out by parameterLayout.
    if (const types::ParameterLayout layout = types::parameterLayout(t); layout.size > 0)
      s << "static_assert(sizeof(" << name << ") == " << layout.size << " && alignof(" << name
        << ") == " << layout.alignment << ", \"tuple layout\");\n";
    s << "\n";
    prelude_ << s.str();
  }
  return name;
}

std::string UnitEmitter::tupleValue(const NumbaType& t, const std::vector<std::string>& elements) {
  const bool array = t.kind() == NumbaType::Kind::UniTuple;
  std::string out = type(t) + (array ? "{{" : "{");
  for (size_t i = 0; i < elements.size(); ++i)
    out += (i ? ", " : "") + elements[i];
  return out + (array ? "}}" : "}");
}

std::string UnitEmitter::element(const NumbaType& tuple, const std::string& value, size_t i) {
  if (tuple.kind() == NumbaType::Kind::UniTuple)
    return value + ".e[" + std::to_string(i) + "]";
  return value + ".e" + std::to_string(i);
}

std::string UnitEmitter::cast(const std::string& code, const NumbaType& from, const NumbaType& to) {
  if (from == to)
    return code;
  // numba's Optional: None or a value becomes one (its value converted); an Optional of another
  // type converts its value. UnwrapOptional, not a cast, takes the value out of one.
  if (to.isOptional()) {
    const NumbaType& value = to.optionalValue();
    if (from.isVoid())
      return type(to) + "(pyk::none)";
    if (from.isOptional())
      return "pyk::optional_map<" + type(value) + ">(" + code + ", [&](const " +
             type(from.optionalValue()) + "& pyk_value) { return " +
             cast("pyk_value", from.optionalValue(), value) + "; })";
    return type(to) + "(" + cast(code, from, value) + ")";
  }
  if (from.isEnumMember()) // an Enum member is its value in C++
    return cast(code, from.enumValue(), to);
  if (to.isEnumMember())
    return cast(code, from, to.enumValue());
  if (to.isScalar() && from.isScalar()) {
    const ScalarKind f = from.scalarKind();
    const ScalarKind k = to.scalarKind();
    // float16 converts by numba's rules (the support headers' to_float16 and from_float16); a
    // complex number's real part passes through float32 (numba casts float16 to complex through
    // the float of the complex's precision, exactly).
    if (f == ScalarKind::Float16 && types::isComplex(k))
      return cast(cast(code, from, NumbaType::scalar(ScalarKind::Float32)),
                  NumbaType::scalar(ScalarKind::Float32), to);
    if (k == ScalarKind::Float16 && types::isComplex(f))
      return cast(cast(code, from, NumbaType::scalar(ScalarKind::Float32)),
                  NumbaType::scalar(ScalarKind::Float32), to);
    if (f == ScalarKind::Float16)
      return "pyk::from_float16<" + type(to) + ">(" + code + ")";
    if (k == ScalarKind::Float16)
      return "pyk::to_float16(" + code + ")";
    if (k == ScalarKind::Boolean)
      return "(" + code + " != 0)";
    return "static_cast<" + type(to) + ">(" + code + ")";
  }
  if (to.isTuple() && from.isTuple() && to.elements().size() == from.elements().size()) {
    std::string tmp = "(" + code + ")";
    std::string out = type(to) + "{";
    for (size_t i = 0; i < to.elements().size(); ++i)
      out += (i ? ", " : "") + cast(element(from, tmp, i), from.elements()[i], to.elements()[i]);
    return out + "}";
  }
  if (to.isArray() && from.isArray())
    return "pyk::as_layout<pyk::Layout::" + std::string(types::layoutName(to.layout())) + ">(" +
           code + ")";
  return code;
}

} // namespace pyk::codegen
