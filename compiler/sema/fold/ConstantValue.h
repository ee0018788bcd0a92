// ConstantValue: a module-level value known at compile time (Python scalar, numpy scalar, str,
// tuple, literal numpy array (of scalars or records), or a type object such as `np.float32` or a
// structured `np.dtype`).
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/LinkedSource.h"
#include "base/NumbaType.h"

namespace pyk::sema {

struct ConstantArray;

struct ConstantValue {
  // NamedTupleClass: `namedtuple("Point", "x y")`; strValue is the class name, elements the
  // field names (Str values).
  // EnumClass: `class Color(IntEnum): red = 1`; strValue is the class name, elements its members
  // in order, each a 2-tuple (Str name, value); boolValue true for an IntEnum (or IntFlag).
  // Module: a module of the user's the file imports (`import config`); strValue is its name,
  // elements its folded constants as EnumClass's members (its functions are the resolver's).
  enum class Kind : uint8_t {
    None,
    Bool,
    Int,
    Float,
    Complex,
    Str,
    Tuple,
    Array,
    Type,
    NamedTupleClass,
    EnumClass,
    Module,
    ForeignFunction,
    LinkableCode
  };

  Kind kind = Kind::None;
  // Bool/Int/Float/Complex: the numba type of the value. A *weak* value is a plain Python
  // scalar (numba types it int64 or uint64 by size, float64, complex128, boolean); a strong one
  // is a numpy scalar with that exact type (`np.float32(0.5)`, `numba.int32(3)`).
  ScalarKind scalar = ScalarKind::Int64;
  bool weak = true;

  bool boolValue = false;
  __int128 intValue = 0; // within the range of `scalar`
  double floatValue = 0; // rounded to `scalar`'s precision
  std::complex<double> complexValue;
  std::string strValue;
  std::vector<ConstantValue> elements; // Tuple
  std::shared_ptr<const ConstantArray> array;
  NumbaType typeValue; // Type: the scalar type object

  static ConstantValue none() { return {}; }
  static ConstantValue boolean(bool value, bool weak = true);
  // A weak int is typed int64, or uint64 when it is too large for int64.
  static ConstantValue pythonInt(__int128 value);
  static ConstantValue integer(__int128 value, ScalarKind type, bool weak = false);
  static ConstantValue floating(double value, ScalarKind type = ScalarKind::Float64,
                                bool weak = true);
  static ConstantValue complex(std::complex<double> value, ScalarKind type = ScalarKind::Complex128,
                               bool weak = true);
  static ConstantValue string(std::string value);
  static ConstantValue tuple(std::vector<ConstantValue> elements);
  static ConstantValue arrayOf(std::shared_ptr<const ConstantArray> array);
  static ConstantValue type(const NumbaType& type);
  static ConstantValue namedTupleClass(std::string name, const std::vector<std::string>& fields);
  // NamedTupleClass: the field names.
  std::vector<std::string> fieldNames() const;
  static ConstantValue enumClass(std::string name, bool integer,
                                 std::vector<std::pair<std::string, ConstantValue>> members);
  // EnumClass: the value of member `name`, or null.
  const ConstantValue* enumMember(const std::string& name) const;
  static ConstantValue module(std::string name,
                              std::vector<std::pair<std::string, ConstantValue>> constants);
  // EnumClass or Module: the value of member `name`, or null.
  const ConstantValue* member(const std::string& name) const;
  // What a `link=` (of declare_device or a decorator) names: file names (`paths`) and the
  // CUSource objects' code (`inMemory`), from a string, a CUSource or a tuple of them (lists and
  // sets fold to tuples). What it must be instead (to follow "must be "), when `link` holds
  // something else or code pyk cannot link.
  static std::optional<std::string> linkEntries(const ConstantValue& link,
                                                std::vector<std::string>& paths,
                                                std::vector<types::LinkedSource>& inMemory);
  // `cuda.declare_device(symbol, signature, link=[...], abi='numba')`: a function of CUDA C++
  // (numba's foreign-function interface), by its symbol, its signature as written, the files
  // that define it and its calling convention ("numba": `int symbol(Ret* result, args...)`,
  // "c": `Ret symbol(args...)`).
  // `sources`: the linked files as the front end read them (LinkedSources.h).
  static ConstantValue foreignFunction(std::string symbol, std::string signature,
                                       std::vector<std::string> links, std::string abi,
                                       const std::vector<types::LinkedSource>& sources = {});
  struct ForeignFunction {
    std::string symbol, signature, abi;
    std::vector<std::string> links;
    std::vector<types::LinkedSource> sources;
  };
  ForeignFunction foreignFunction() const;
  // numba-cuda's code to link from memory (`cuda.CUSource(text, name=...)`, PTXSource, Cubin,
  // Fatbin, Object, Archive, LTOIR): strValue the data; elements its kind ("cu", "ptx", ...)
  // and its name (numba-cuda's default `<unnamed-cu>` and the like).
  static ConstantValue linkableCode(std::string kind, std::string name, std::string data);
  const std::string& linkableKind() const { return elements.at(0).strValue; }
  const std::string& linkableName() const { return elements.at(1).strValue; }

  bool isNumber() const {
    return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float || kind == Kind::Complex;
  }

  // Python's repr, numpy's for numpy values: `16`, `0.25`, `True`, `'text'`, `(1, 2.5)`,
  // `array([[1., 2.], [3., 4.]], dtype=float32)`, `float32` for a type.
  std::string repr() const;
  // The value's type as numba sees a global: `int64`, `float32`, `UniTuple(int64, 2)`,
  // `array(float32, 2d, C) shape (2, 2)`, `str`, `none`, `type`.
  std::string typeDescription() const;

  friend bool operator==(const ConstantValue& a, const ConstantValue& b);
};

// Numeric views of a number constant, as Python converts them (a bool is 0 or 1).
inline bool isIntegral(const ConstantValue& v) {
  return v.kind == ConstantValue::Kind::Int || v.kind == ConstantValue::Kind::Bool;
}
inline __int128 asInt(const ConstantValue& v) {
  return v.kind == ConstantValue::Kind::Bool ? v.boolValue : v.intValue;
}
inline double asDouble(const ConstantValue& v) {
  switch (v.kind) {
  case ConstantValue::Kind::Bool:
    return v.boolValue ? 1.0 : 0.0;
  case ConstantValue::Kind::Int:
    return static_cast<double>(v.intValue);
  case ConstantValue::Kind::Float:
    return v.floatValue;
  default:
    return v.complexValue.real();
  }
}

// A numpy array built from literals at module level; numba freezes it into the kernel.
struct ConstantArray {
  ScalarKind dtype = ScalarKind::Float64; // an array of scalars: their type
  std::vector<int64_t> shape;             // at least one dimension
  std::vector<ConstantValue> values; // an array of scalars: row-major, strong scalars of `dtype`
  // An array of records (a structured dtype): the record type, and the items in row-major order
  // as numpy lays them out in memory (little-endian, padding zero); `values` is then empty.
  NumbaType record;
  std::vector<uint8_t> bytes;

  bool isRecordArray() const { return record.isRecord(); }
  // The number of items (the product of the shape).
  int64_t size() const;
  // numba's type of one item (a scalar or the record), and of the array frozen into a kernel.
  NumbaType elementType() const;
  NumbaType arrayType(bool readonly) const;
};

// Python's repr of a double: shortest round-trip digits, `1.0`, `1e-05`, `1e+16`, `inf`, `nan`.
std::string pythonFloatRepr(double value);

// The code points of a str constant's UTF-8 text (what numpy stores in a 'U' field); a malformed
// byte counts as itself.
std::vector<uint32_t> utf8CodePoints(const std::string& text);

} // namespace pyk::sema
