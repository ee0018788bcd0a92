// TypeNames: the names numba and numpy give types: numba.types' scalar names and aliases,
// numpy's dtype names, and datetime64's unit spellings.
#include "base/NumbaType.h"

namespace pyk::types {

namespace {

struct NamedScalar {
  const char* name;
  ScalarKind kind;
};

// numba.types' names for scalars (numba/core/types/__init__.py), on a 64-bit platform.
constexpr NamedScalar kNumbaScalarNames[] = {
    {"boolean", ScalarKind::Boolean},
    {"bool_", ScalarKind::Boolean},
    {"b1", ScalarKind::Boolean},
    {"int8", ScalarKind::Int8},
    {"i1", ScalarKind::Int8},
    {"char", ScalarKind::Int8},
    {"int16", ScalarKind::Int16},
    {"i2", ScalarKind::Int16},
    {"short", ScalarKind::Int16},
    {"int32", ScalarKind::Int32},
    {"i4", ScalarKind::Int32},
    {"intc", ScalarKind::Int32},
    {"int64", ScalarKind::Int64},
    {"i8", ScalarKind::Int64},
    {"intp", ScalarKind::Int64},
    {"int_", ScalarKind::Int64},
    {"long_", ScalarKind::Int64},
    {"longlong", ScalarKind::Int64},
    {"ssize_t", ScalarKind::Int64},
    {"uint8", ScalarKind::UInt8},
    {"u1", ScalarKind::UInt8},
    {"byte", ScalarKind::UInt8},
    {"uchar", ScalarKind::UInt8},
    {"uint16", ScalarKind::UInt16},
    {"u2", ScalarKind::UInt16},
    {"ushort", ScalarKind::UInt16},
    {"uint32", ScalarKind::UInt32},
    {"u4", ScalarKind::UInt32},
    {"uintc", ScalarKind::UInt32},
    {"uint64", ScalarKind::UInt64},
    {"u8", ScalarKind::UInt64},
    {"uintp", ScalarKind::UInt64},
    {"uint", ScalarKind::UInt64},
    {"ulong", ScalarKind::UInt64},
    {"ulonglong", ScalarKind::UInt64},
    {"size_t", ScalarKind::UInt64},
    {"float16", ScalarKind::Float16},
    {"f2", ScalarKind::Float16},
    {"float32", ScalarKind::Float32},
    {"f4", ScalarKind::Float32},
    {"float_", ScalarKind::Float32},
    {"float64", ScalarKind::Float64},
    {"f8", ScalarKind::Float64},
    {"double", ScalarKind::Float64},
    {"complex64", ScalarKind::Complex64},
    {"c8", ScalarKind::Complex64},
    {"complex128", ScalarKind::Complex128},
    {"c16", ScalarKind::Complex128},
};

// numpy's names for scalar types and dtype strings (NumPy 1.x and 2.x, 64-bit Linux).
constexpr NamedScalar kNumpyScalarNames[] = {
    {"bool_", ScalarKind::Boolean},
    {"bool", ScalarKind::Boolean},
    {"b1", ScalarKind::Boolean},
    {"?", ScalarKind::Boolean},
    {"int8", ScalarKind::Int8},
    {"i1", ScalarKind::Int8},
    {"byte", ScalarKind::Int8},
    {"int16", ScalarKind::Int16},
    {"i2", ScalarKind::Int16},
    {"short", ScalarKind::Int16},
    {"int32", ScalarKind::Int32},
    {"i4", ScalarKind::Int32},
    {"intc", ScalarKind::Int32},
    {"int64", ScalarKind::Int64},
    {"i8", ScalarKind::Int64},
    {"intp", ScalarKind::Int64},
    {"int_", ScalarKind::Int64},
    {"int", ScalarKind::Int64},
    {"long", ScalarKind::Int64},
    {"longlong", ScalarKind::Int64},
    {"uint8", ScalarKind::UInt8},
    {"u1", ScalarKind::UInt8},
    {"ubyte", ScalarKind::UInt8},
    {"uint16", ScalarKind::UInt16},
    {"u2", ScalarKind::UInt16},
    {"ushort", ScalarKind::UInt16},
    {"uint32", ScalarKind::UInt32},
    {"u4", ScalarKind::UInt32},
    {"uintc", ScalarKind::UInt32},
    {"uint64", ScalarKind::UInt64},
    {"u8", ScalarKind::UInt64},
    {"uintp", ScalarKind::UInt64},
    {"uint", ScalarKind::UInt64},
    {"ulong", ScalarKind::UInt64},
    {"ulonglong", ScalarKind::UInt64},
    {"float16", ScalarKind::Float16},
    {"f2", ScalarKind::Float16},
    {"half", ScalarKind::Float16},
    {"float32", ScalarKind::Float32},
    {"f4", ScalarKind::Float32},
    {"single", ScalarKind::Float32},
    {"float64", ScalarKind::Float64},
    {"f8", ScalarKind::Float64},
    {"double", ScalarKind::Float64},
    {"float_", ScalarKind::Float64},
    {"float", ScalarKind::Float64},
    {"complex64", ScalarKind::Complex64},
    {"c8", ScalarKind::Complex64},
    {"csingle", ScalarKind::Complex64},
    {"complex128", ScalarKind::Complex128},
    {"c16", ScalarKind::Complex128},
    {"cdouble", ScalarKind::Complex128},
    {"complex_", ScalarKind::Complex128},
    {"complex", ScalarKind::Complex128},
};

template <size_t N>
std::optional<ScalarKind> lookup(const NamedScalar (&table)[N], std::string_view name) {
  for (const NamedScalar& entry : table)
    if (name == entry.name)
      return entry.kind;
  return std::nullopt;
}

} // namespace

namespace {
struct UnitName {
  const char* name;
  DatetimeUnit unit;
};
constexpr UnitName kDatetimeUnits[] = {
    {"Y", DatetimeUnit::Y},   {"M", DatetimeUnit::M},      {"W", DatetimeUnit::W},
    {"D", DatetimeUnit::D},   {"h", DatetimeUnit::h},      {"m", DatetimeUnit::m},
    {"s", DatetimeUnit::s},   {"ms", DatetimeUnit::ms},    {"us", DatetimeUnit::us},
    {"ns", DatetimeUnit::ns}, {"ps", DatetimeUnit::ps},    {"fs", DatetimeUnit::fs},
    {"as", DatetimeUnit::as}, {"", DatetimeUnit::Generic},
};
} // namespace

const char* datetimeUnitName(DatetimeUnit unit) {
  for (const UnitName& u : kDatetimeUnits)
    if (u.unit == unit)
      return u.name;
  return "";
}

std::optional<DatetimeUnit> datetimeUnitNamed(std::string_view name) {
  for (const UnitName& u : kDatetimeUnits)
    if (name == u.name)
      return u.unit;
  return std::nullopt;
}

std::optional<ScalarKind> scalarKindNamed(std::string_view name) {
  return lookup(kNumbaScalarNames, name);
}

bool isVoidTypeName(std::string_view name) {
  return name == "void" || name == "none";
}

const std::vector<std::string>& numbaTypeNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const NamedScalar& entry : kNumbaScalarNames)
      out.push_back(entry.name);
    out.push_back("void");
    out.push_back("none");
    return out;
  }();
  return names;
}

std::optional<ScalarKind> numpyScalarKindNamed(std::string_view name) {
  return lookup(kNumpyScalarNames, name);
}

} // namespace pyk::types
