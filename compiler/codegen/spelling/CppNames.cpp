// CppNames: how Python names, numba types and constants are spelt in the C++ pyk emits.
#include "codegen/spelling/CppNames.h"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "base/Float16.h"
#include "sema/catalog/LibraryModule.h"
#include "sema/typing/TypeRules.h"

namespace pyk::codegen {

using types::NumbaType;
using types::ScalarKind;

// ---- names ----------------------------------------------------------------------------------

// A Python identifier as a C++ one: `py_` + the name, non-ASCII characters as `_uXXXX_`.
// A record field as a C++ member: its name spelled as pythonName spells identifiers; a name that
// is no identifier (numpy allows any string) is hex-encoded.
std::string recordMemberName(const std::string& name) {
  std::string out = "py_";
  for (unsigned char c : name) {
    if (std::isalnum(c) || c == '_') {
      out += static_cast<char>(c);
      continue;
    }
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "_x%02x_", c);
    out += buffer;
  }
  return out;
}

std::string pythonName(const std::string& name) {
  std::string out = "py_";
  for (size_t i = 0; i < name.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    if (c < 0x80 && c != '.') { // `f.x`: a local of f inlined into a kernel (BarrierInlining)
      out += static_cast<char>(c);
      continue;
    }
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "_x%02x_", c);
    out += buffer;
  }
  return out;
}

// How each scalar kind is spelt, indexed by ScalarKind: its code in mangled names and its C++
// type ("" where code generation has none yet). float16 is the support headers' pyk::float16 (its
// bits; numba's casts are pyk::to_float16 and pyk::from_float16).
struct ScalarSpelling {
  const char* code;
  const char* cpp;
};
constexpr ScalarSpelling kScalarSpellings[] = {{"b", "bool"},
                                               {"i8", "pyk::int8"},
                                               {"i16", "pyk::int16"},
                                               {"i32", "pyk::int32"},
                                               {"i64", "pyk::int64"},
                                               {"u8", "pyk::uint8"},
                                               {"u16", "pyk::uint16"},
                                               {"u32", "pyk::uint32"},
                                               {"u64", "pyk::uint64"},
                                               {"f16", "pyk::float16"},
                                               {"f32", "pyk::float32"},
                                               {"f64", "pyk::float64"},
                                               {"c64", "pyk::complex64"},
                                               {"c128", "pyk::complex128"}};
static_assert(sizeof(kScalarSpellings) / sizeof(kScalarSpellings[0]) ==
                  static_cast<size_t>(ScalarKind::Complex128) + 1,
              "one spelling per ScalarKind");

std::string scalarCode(ScalarKind k) {
  return kScalarSpellings[static_cast<size_t>(k)].code;
}

// A type as part of a mangled name: `f32`, `A2C_f32`, `T2_i64_f64_E`.
std::string typeCode(const NumbaType& t) {
  switch (t.kind()) {
  case NumbaType::Kind::Void:
    return "v";
  case NumbaType::Kind::Scalar:
    return scalarCode(t.scalarKind());
  case NumbaType::Kind::Array:
    return std::string("A") + std::to_string(t.ndim()) + types::layoutName(t.layout()) +
           (t.readonly() ? "r" : "") + "_" + typeCode(t.elementType());
  case NumbaType::Kind::Record: {
    // Every field's name, type and offset, and the item size: equal codes, equal layouts.
    const types::RecordLayout& r = t.recordLayout();
    std::string out = "R" + std::to_string(r.fields.size());
    for (const types::RecordField& f : r.fields) {
      std::string name = recordMemberName(f.name);
      std::string item;
      switch (f.kind) {
      case types::FieldKind::Scalar:
        item = scalarCode(f.type);
        break;
      case types::FieldKind::Record:
        item = typeCode(NumbaType::record(*f.record));
        break;
      case types::FieldKind::Bytes:
        item = "S" + std::to_string(f.length) + "_";
        break;
      case types::FieldKind::Unicode:
        item = "U" + std::to_string(f.length) + "_";
        break;
      }
      for (int64_t extent : f.shape) // a sub-array: its shape
        item += "x" + std::to_string(extent);
      out += "_" + std::to_string(name.size()) + name + item + "o" + std::to_string(f.offset);
    }
    return out + "_s" + std::to_string(r.size) + (r.aligned ? "a" : "") + "_E";
  }
  case NumbaType::Kind::UniTuple:
  case NumbaType::Kind::Tuple: {
    // A named tuple's class name is part of its code: `Point(float64 x 2)` and
    // `UniTuple(float64 x 2)` are different types. Names are ASCII identifiers; the length
    // prefix keeps the code unambiguous.
    std::string out = t.isNamedTuple() ? "N" + std::to_string(t.className().size()) +
                                             t.className() + std::to_string(t.elements().size())
                                       : "T" + std::to_string(t.elements().size());
    for (const NumbaType& e : t.elements())
      out += "_" + typeCode(e);
    return out + "_E";
  }
  case NumbaType::Kind::GridGroup:
    return "G";
  case NumbaType::Kind::Function: {
    // `numba.cuda.atomic.add` as `F21numba_cuda_atomic_add` (the length keeps it unambiguous).
    std::string name = t.className();
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
        c = '_';
    return "F" + std::to_string(name.size()) + name;
  }
  case NumbaType::Kind::TypeRef:
    return "K" + scalarCode(t.scalarKind());
  case NumbaType::Kind::Vector:
    return "V" + scalarCode(t.scalarKind()) + "x" + std::to_string(t.vectorSize());
  case NumbaType::Kind::EnumMember: // the class is part of the type: `E5Color_i64`, `I5Shape_i64`
    return (t.isIntEnumMember() ? "I" : "E") + std::to_string(t.className().size()) +
           t.className() + "_" + typeCode(t.enumValue());
  case NumbaType::Kind::Optional:
    return "O_" + typeCode(t.optionalValue());
  case NumbaType::Kind::Datetime: // numpy's type letters and numba's unit number: `M4_`, `m7_`
  case NumbaType::Kind::Timedelta:
    return (t.isDatetime() ? "M" : "m") + std::to_string(static_cast<int>(t.datetimeUnit())) + "_";
  case NumbaType::Kind::CharSeq: // numpy's `S12`, `U12`
    return (t.isUnicode() ? "U" : "S") + std::to_string(t.charCount()) + "_";
  case NumbaType::Kind::Pointer: // CPointer(float32): `P_f32`
    return "P_" + scalarCode(t.scalarKind());
  }
  return "x";
}

std::string scalarCpp(ScalarKind k) {
  return kScalarSpellings[static_cast<size_t>(k)].cpp;
}

std::string mangledName(const ir::Function& f) {
  std::string out = f.kind == types::CompiledFunctionKind::Kernel ? "pyk_k_" : "pyk_d_";
  if (!f.libraryName.empty()) {
    // A stdlib function: its own prefix and its module's name, so that no user function's name
    // (`rotl`, say) collides with it.
    out = "pyk_s_";
    for (char c : f.libraryName)
      out += c == '.' ? '_' : c;
    out += "__";
  }
  out += pythonName(f.name).substr(3) + "_";
  for (const NumbaType& p : f.params)
    out += "_" + typeCode(p);
  // A specialization for constant arguments (numba's literals) names them, bytes hex-encoded.
  for (size_t i = 0; i < f.literals.size(); ++i) {
    if (!f.literals[i])
      continue;
    out += "_L" + std::to_string(i) + "_";
    for (unsigned char c : f.literals[i]->repr()) {
      char buffer[4];
      std::snprintf(buffer, sizeof buffer, "%02x", c);
      out += std::isalnum(c) ? std::string(1, static_cast<char>(c)) : std::string("x") + buffer;
    }
  }
  return out;
}

bool isIntegral(const NumbaType& t) {
  return t.isScalar() &&
         (types::isInteger(t.scalarKind()) || t.scalarKind() == ScalarKind::Boolean);
}
bool isComplexType(const NumbaType& t) {
  return t.isScalar() && types::isComplex(t.scalarKind());
}
bool isFloating(const NumbaType& t) {
  return t.isScalar() &&
         (t.scalarKind() == ScalarKind::Float32 || t.scalarKind() == ScalarKind::Float64);
}

std::string doubleLiteral(double v) {
  // NVRTC has none of the __builtin_inf family; the support header's constants are constant
  // expressions on both backends (usable in __constant__ initializers).
  if (std::isnan(v))
    return std::signbit(v) ? "(-pyk::nan64())" : "pyk::nan64()";
  if (std::isinf(v))
    return v > 0 ? "pyk::inf64()" : "(-pyk::inf64())";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  std::string s = buffer;
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return s;
}

std::string halfLiteral(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "pyk::float16::from_bits(0x%04x)",
                static_cast<unsigned>(pyk::float16(v).bits()));
  return buffer;
}

std::string int128Literal(__int128 v, ScalarKind k) {
  std::string digits;
  unsigned __int128 u =
      v < 0 ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u != 0);
  if (v < 0 && v == static_cast<__int128>(INT64_MIN))
    return "(-9223372036854775807LL - 1)";
  std::string suffix = types::isSignedInteger(k) || k == ScalarKind::Boolean ? "LL" : "ULL";
  return (v < 0 ? "-" : "") + digits + suffix;
}

} // namespace pyk::codegen
