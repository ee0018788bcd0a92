// ConstantValue: a module-level value known at compile time (Python scalar, numpy scalar, str,
// tuple, literal numpy array, or a scalar type object such as `np.float32`).
#include "sema/fold/ConstantValue.h"

#include "syntax/LiteralParser.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace pyk::sema {

namespace {

// Formats shortest round-trip digits of `value` the way Python's float repr does.
template <class Float>
std::string shortestRepr(Float value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  std::string sci(buffer, result.ptr);
  // sci: [-]d[.ddd]e[+-]xx
  bool negative = sci[0] == '-';
  if (negative)
    sci.erase(0, 1);
  size_t e = sci.find('e');
  std::string mantissa = sci.substr(0, e);
  int exponent = std::atoi(sci.c_str() + e + 1);
  std::string digits;
  for (char c : mantissa)
    if (c != '.')
      digits += c;
  std::string out;
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out = "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    } else if (static_cast<size_t>(exponent) + 1 >= digits.size()) {
      out = digits + std::string(static_cast<size_t>(exponent) + 1 - digits.size(), '0') + ".0";
    } else {
      out = digits.substr(0, static_cast<size_t>(exponent) + 1) + "." +
            digits.substr(static_cast<size_t>(exponent) + 1);
    }
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1)
      out += "." + digits.substr(1);
    char exp[16];
    std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    out += exp;
  }
  return negative ? "-" + out : out;
}

std::string scalarRepr(const ConstantValue& v) {
  switch (v.kind) {
  case ConstantValue::Kind::Bool:
    return v.boolValue ? "True" : "False";
  case ConstantValue::Kind::Int:
    return syntax::formatIntegerLiteral(v.intValue);
  case ConstantValue::Kind::Float:
    if (v.scalar == ScalarKind::Float64)
      return pythonFloatRepr(v.floatValue);
    return shortestRepr(static_cast<float>(v.floatValue));
  case ConstantValue::Kind::Complex: {
    auto part = [&](double x) {
      std::string s = v.scalar == ScalarKind::Complex64 ? shortestRepr(static_cast<float>(x))
                                                        : pythonFloatRepr(x);
      if (s.size() > 2 && s.ends_with(".0"))
        s.resize(s.size() - 2);
      return s;
    };
    double re = v.complexValue.real(), im = v.complexValue.imag();
    if (re == 0 && !std::signbit(re))
      return part(im) + "j";
    std::string imag = part(im);
    if (imag[0] != '-')
      imag = "+" + imag;
    return "(" + part(re) + imag + "j)";
  }
  default:
    return "?";
  }
}

void arrayRepr(const ConstantArray& a, size_t dim, size_t& next, std::string& out) {
  out += '[';
  for (int64_t i = 0; i < a.shape[dim]; ++i) {
    if (i)
      out += ", ";
    if (dim + 1 < a.shape.size())
      arrayRepr(a, dim + 1, next, out);
    else if (a.isRecordArray())
      out += "(...)", ++next; // a record item: its fields are not shown
    else
      out += a.values[next++].repr();
  }
  out += ']';
}

std::string shapeRepr(const std::vector<int64_t>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

int64_t ConstantArray::size() const {
  int64_t n = 1;
  for (int64_t extent : shape)
    n *= extent;
  return n;
}

NumbaType ConstantArray::elementType() const {
  return isRecordArray() ? record : NumbaType::scalar(dtype);
}

NumbaType ConstantArray::arrayType(bool readonly) const {
  const int ndim = static_cast<int>(shape.size());
  return isRecordArray() ? NumbaType::recordArray(record, ndim, ArrayLayout::C, readonly)
                         : NumbaType::array(dtype, ndim, ArrayLayout::C, readonly);
}

std::vector<uint32_t> utf8CodePoints(const std::string& text) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    size_t extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    if (i + extra >= text.size())
      extra = 0;
    uint32_t point = extra == 0 ? c : c & (0x3Fu >> extra);
    for (size_t k = 1; k <= extra; ++k)
      point = (point << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3Fu);
    out.push_back(point);
    i += 1 + extra;
  }
  return out;
}

std::string pythonFloatRepr(double value) {
  return shortestRepr(value);
}

ConstantValue ConstantValue::boolean(bool value, bool weak) {
  ConstantValue v;
  v.kind = Kind::Bool;
  v.scalar = ScalarKind::Boolean;
  v.weak = weak;
  v.boolValue = value;
  return v;
}

ConstantValue ConstantValue::pythonInt(__int128 value) {
  ConstantValue v = integer(value, value > std::numeric_limits<int64_t>::max() ? ScalarKind::UInt64
                                                                               : ScalarKind::Int64);
  v.weak = true;
  return v;
}

ConstantValue ConstantValue::integer(__int128 value, ScalarKind type, bool weak) {
  ConstantValue v;
  v.kind = Kind::Int;
  v.scalar = type;
  v.weak = weak;
  v.intValue = value;
  return v;
}

ConstantValue ConstantValue::floating(double value, ScalarKind type, bool weak) {
  ConstantValue v;
  v.kind = Kind::Float;
  v.scalar = type;
  v.weak = weak;
  v.floatValue = value;
  return v;
}

ConstantValue ConstantValue::complex(std::complex<double> value, ScalarKind type, bool weak) {
  ConstantValue v;
  v.kind = Kind::Complex;
  v.scalar = type;
  v.weak = weak;
  v.complexValue = value;
  return v;
}

ConstantValue ConstantValue::string(std::string value) {
  ConstantValue v;
  v.kind = Kind::Str;
  v.strValue = std::move(value);
  return v;
}

ConstantValue ConstantValue::tuple(std::vector<ConstantValue> elements) {
  ConstantValue v;
  v.kind = Kind::Tuple;
  v.elements = std::move(elements);
  return v;
}

ConstantValue ConstantValue::arrayOf(std::shared_ptr<const ConstantArray> array) {
  ConstantValue v;
  v.kind = Kind::Array;
  v.array = std::move(array);
  return v;
}

ConstantValue ConstantValue::type(const NumbaType& type) {
  ConstantValue v;
  v.kind = Kind::Type;
  v.typeValue = type;
  return v;
}

ConstantValue ConstantValue::namedTupleClass(std::string name,
                                             const std::vector<std::string>& fields) {
  ConstantValue v;
  v.kind = Kind::NamedTupleClass;
  v.strValue = std::move(name);
  for (const std::string& f : fields)
    v.elements.push_back(string(f));
  return v;
}

ConstantValue ConstantValue::enumClass(std::string name, bool integer,
                                       std::vector<std::pair<std::string, ConstantValue>> members) {
  ConstantValue v;
  v.kind = Kind::EnumClass;
  v.strValue = std::move(name);
  v.boolValue = integer;
  for (auto& [member, value] : members)
    v.elements.push_back(tuple({string(member), std::move(value)}));
  return v;
}

const ConstantValue* ConstantValue::enumMember(const std::string& name) const {
  if (kind != Kind::EnumClass)
    return nullptr;
  for (const ConstantValue& m : elements)
    if (m.elements[0].strValue == name)
      return &m.elements[1];
  return nullptr;
}

ConstantValue ConstantValue::module(std::string name,
                                    std::vector<std::pair<std::string, ConstantValue>> constants) {
  ConstantValue v = enumClass(std::move(name), false, std::move(constants));
  v.kind = Kind::Module;
  return v;
}

ConstantValue ConstantValue::foreignFunction(std::string symbol, std::string signature,
                                             std::vector<std::string> links, std::string abi,
                                             const std::vector<types::LinkedSource>& sources) {
  ConstantValue v;
  v.kind = Kind::ForeignFunction;
  v.strValue = std::move(symbol);
  std::vector<ConstantValue> files;
  for (std::string& l : links)
    files.push_back(string(std::move(l)));
  std::vector<ConstantValue> read;
  for (const types::LinkedSource& source : sources)
    read.push_back(tuple({string(source.path), string(source.text), boolean(source.inMemory),
                          integer(static_cast<int64_t>(source.kind), ScalarKind::Int64)}));
  v.elements = {string(std::move(signature)), tuple(std::move(files)), string(std::move(abi)),
                tuple(std::move(read))};
  return v;
}

ConstantValue ConstantValue::linkableCode(std::string kind, std::string name, std::string data) {
  ConstantValue v;
  v.kind = Kind::LinkableCode;
  v.strValue = std::move(data);
  v.elements = {string(std::move(kind)), string(std::move(name))};
  return v;
}

std::optional<std::string> ConstantValue::linkEntries(const ConstantValue& link,
                                                      std::vector<std::string>& paths,
                                                      std::vector<types::LinkedSource>& inMemory) {
  const std::vector<ConstantValue> one{link};
  const std::vector<ConstantValue>& items = link.kind == Kind::Tuple ? link.elements : one;
  for (const ConstantValue& e : items) {
    if (e.kind == Kind::Str) {
      paths.push_back(e.strValue);
    } else if (e.kind == Kind::LinkableCode) {
      // Its name stands for a path in messages and #line directives: no quote or backslash.
      std::string name = e.linkableName();
      for (char& c : name)
        if (c == '"' || c == '\\' || c == '\n')
          c = '_';
      const types::LinkedCodeKindInfo* kind =
          types::findLinkedCodeKind(&types::LinkedCodeKindInfo::numbaKind, e.linkableKind());
      inMemory.push_back({name, e.strValue, /*inMemory=*/true,
                          kind != nullptr ? kind->kind : types::LinkedCodeKind::Cu});
    } else {
      return "a file name, a cuda.CUSource (or another LinkableCode) or a list of them";
    }
  }
  return std::nullopt;
}

ConstantValue::ForeignFunction ConstantValue::foreignFunction() const {
  ForeignFunction f{strValue, elements.at(0).strValue, elements.at(2).strValue, {}, {}};
  for (const ConstantValue& l : elements.at(1).elements)
    f.links.push_back(l.strValue);
  for (const ConstantValue& r : elements.at(3).elements)
    f.sources.push_back({r.elements.at(0).strValue, r.elements.at(1).strValue,
                         r.elements.at(2).boolValue,
                         static_cast<types::LinkedCodeKind>(r.elements.at(3).intValue)});
  return f;
}

const ConstantValue* ConstantValue::member(const std::string& name) const {
  if (kind != Kind::EnumClass && kind != Kind::Module)
    return nullptr;
  for (const ConstantValue& m : elements)
    if (m.elements[0].strValue == name)
      return &m.elements[1];
  return nullptr;
}

std::vector<std::string> ConstantValue::fieldNames() const {
  std::vector<std::string> out;
  for (const ConstantValue& e : elements)
    out.push_back(e.strValue);
  return out;
}

std::string ConstantValue::repr() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Bool:
  case Kind::Int:
  case Kind::Float:
  case Kind::Complex:
    return scalarRepr(*this);
  case Kind::Str:
    return "'" + syntax::escapeForDisplay(strValue, '\'', false) + "'";
  case Kind::Tuple: {
    std::string out = "(";
    for (size_t i = 0; i < elements.size(); ++i)
      out += (i ? ", " : "") + elements[i].repr();
    return out + (elements.size() == 1 ? ",)" : ")");
  }
  case Kind::Array: {
    std::string out = "array(";
    size_t next = 0;
    arrayRepr(*array, 0, next, out);
    if (array->isRecordArray())
      return out + ", dtype=" + array->record.str() + ")";
    return out +
           ", dtype=" + (array->dtype == ScalarKind::Boolean ? "bool" : scalarName(array->dtype)) +
           ")";
  }
  case Kind::Type:
    return typeValue.spelling();
  case Kind::NamedTupleClass:
  case Kind::EnumClass:
    return "<class '" + strValue + "'>";
  case Kind::Module:
    return "<module '" + strValue + "'>";
  case Kind::ForeignFunction:
    return "<declared device function '" + strValue + "'>";
  case Kind::LinkableCode:
    return "<linkable code '" + linkableName() + "'>";
  }
  return "?";
}

std::string ConstantValue::typeDescription() const {
  switch (kind) {
  case Kind::None:
    return "none";
  case Kind::Bool:
  case Kind::Int:
  case Kind::Float:
  case Kind::Complex:
    return scalarName(scalar);
  case Kind::Str:
    return "str";
  case Kind::Tuple: {
    bool uniform = !elements.empty();
    for (const ConstantValue& e : elements)
      uniform = uniform && e.typeDescription() == elements[0].typeDescription();
    if (uniform)
      return "UniTuple(" + elements[0].typeDescription() + ", " + std::to_string(elements.size()) +
             ")";
    std::string out = "Tuple((";
    for (size_t i = 0; i < elements.size(); ++i)
      out += (i ? ", " : "") + elements[i].typeDescription();
    return out + (elements.size() == 1 ? ",))" : "))");
  }
  case Kind::Array:
    return array->arrayType(/*readonly=*/false).str() + " shape " + shapeRepr(array->shape);
  case Kind::Type:
    return "type";
  case Kind::NamedTupleClass:
    return "namedtuple class";
  case Kind::EnumClass:
    return "enum class";
  case Kind::Module:
    return "module";
  case Kind::ForeignFunction:
    return "declared device function";
  case Kind::LinkableCode:
    return "linkable code object";
  }
  return "?";
}

bool operator==(const ConstantValue& a, const ConstantValue& b) {
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case ConstantValue::Kind::None:
    return true;
  case ConstantValue::Kind::Bool:
    return a.boolValue == b.boolValue && a.scalar == b.scalar && a.weak == b.weak;
  case ConstantValue::Kind::Int:
    return a.intValue == b.intValue && a.scalar == b.scalar && a.weak == b.weak;
  case ConstantValue::Kind::Float:
    return (a.floatValue == b.floatValue ||
            (std::isnan(a.floatValue) && std::isnan(b.floatValue))) &&
           a.scalar == b.scalar && a.weak == b.weak;
  case ConstantValue::Kind::Complex:
    return a.complexValue == b.complexValue && a.scalar == b.scalar && a.weak == b.weak;
  case ConstantValue::Kind::Str:
    return a.strValue == b.strValue;
  case ConstantValue::Kind::Tuple:
    return a.elements == b.elements;
  case ConstantValue::Kind::Array:
    return a.array->dtype == b.array->dtype && a.array->shape == b.array->shape &&
           a.array->values == b.array->values && a.array->record == b.array->record &&
           a.array->bytes == b.array->bytes;
  case ConstantValue::Kind::Type:
    return a.typeValue == b.typeValue;
  case ConstantValue::Kind::NamedTupleClass:
  case ConstantValue::Kind::EnumClass:
  case ConstantValue::Kind::Module:
  case ConstantValue::Kind::ForeignFunction:
  case ConstantValue::Kind::LinkableCode:
    return a.strValue == b.strValue && a.elements == b.elements;
  }
  return false;
}

} // namespace pyk::sema
