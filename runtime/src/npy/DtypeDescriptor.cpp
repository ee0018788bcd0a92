// DtypeDescriptor: numpy's dtype descriptors as .npy headers spell them, and the parsers' shared
// text helpers.
#include "npy/DtypeDescriptor.h"

#include <bit>

#include "pyk/error.hpp"

namespace pyk::npy {

[[noreturn]] void fail(std::string_view name, const std::string& what) {
  throw Error(ErrorKind::File, std::string(name) + ": " + what);
}

std::string excerpt(std::string_view text, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (text.size() > limit)
    out += "...";
  return out;
}

bool isPythonSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

std::string typeCode(Dtype dtype) {
  if (is_datetime_dtype(dtype) || is_timedelta_dtype(dtype)) { // numpy's `M8[D]`, `m8[ms]`, `M8`
    const std::string_view unit = time_unit_name(dtype_time_unit(dtype));
    return std::string(is_datetime_dtype(dtype) ? "M8" : "m8") +
           (unit.empty() ? "" : "[" + std::string(unit) + "]");
  }
  char kind = 'i';
  switch (dtype) {
  case Dtype::Bool:
    kind = 'b';
    break;
  case Dtype::UInt8:
  case Dtype::UInt16:
  case Dtype::UInt32:
  case Dtype::UInt64:
    kind = 'u';
    break;
  case Dtype::Float16:
  case Dtype::Float32:
  case Dtype::Float64:
    kind = 'f';
    break;
  case Dtype::Complex64:
  case Dtype::Complex128:
    kind = 'c';
    break;
  case Dtype::Record: // described field by field (recordDescr)
  default:
    break;
  }
  return kind + std::to_string(dtype_itemsize(dtype));
}

std::string scalarDescr(Dtype dtype) {
  return (dtype_itemsize(dtype) == 1 ? "|" : "<") + typeCode(dtype);
}

std::optional<std::pair<Dtype, bool>> dtypeOfDescriptor(std::string_view descriptor) {
  char order = '=';
  if (!descriptor.empty() &&
      std::string_view("<>|=").find(descriptor[0]) != std::string_view::npos) {
    order = descriptor[0];
    descriptor.remove_prefix(1);
  }
  for (Dtype dtype : kAllDtypes) {
    if (descriptor != typeCode(dtype))
      continue;
    bool nativeLittle = std::endian::native == std::endian::little;
    bool swap = dtype_itemsize(dtype) > 1 &&
                ((order == '<' && !nativeLittle) || (order == '>' && nativeLittle));
    return std::make_pair(dtype, swap);
  }
  return std::nullopt;
}

} // namespace pyk::npy
