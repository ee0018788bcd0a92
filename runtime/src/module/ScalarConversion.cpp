// ScalarConversion: see the header.
#include "module/ScalarConversion.h"

#include <complex>
#include <cstring>

namespace pyk::detail {

using types::ScalarKind;

ScalarKind scalarKindOf(Dtype d) {
  switch (d) {
  case Dtype::Bool:
    return ScalarKind::Boolean;
  case Dtype::Int8:
    return ScalarKind::Int8;
  case Dtype::Int16:
    return ScalarKind::Int16;
  case Dtype::Int32:
    return ScalarKind::Int32;
  case Dtype::Int64:
    return ScalarKind::Int64;
  case Dtype::UInt8:
    return ScalarKind::UInt8;
  case Dtype::UInt16:
    return ScalarKind::UInt16;
  case Dtype::UInt32:
    return ScalarKind::UInt32;
  case Dtype::UInt64:
    return ScalarKind::UInt64;
  case Dtype::Float16:
    return ScalarKind::Float16;
  case Dtype::Float32:
    return ScalarKind::Float32;
  case Dtype::Float64:
    return ScalarKind::Float64;
  case Dtype::Complex64:
    return ScalarKind::Complex64;
  case Dtype::Complex128:
    return ScalarKind::Complex128;
  case Dtype::Record:
    break; // not a scalar: callers type record arrays from their RecordDtype
  default:
    break; // datetime64, timedelta64: an int64 count
  }
  return ScalarKind::Int64;
}

types::NumbaType valueTypeOf(Dtype d) {
  const auto unit = static_cast<types::DatetimeUnit>(time_unit_number(dtype_time_unit(d)));
  if (is_datetime_dtype(d))
    return types::NumbaType::datetime(unit);
  if (is_timedelta_dtype(d))
    return types::NumbaType::timedelta(unit);
  return types::NumbaType::scalar(scalarKindOf(d));
}

std::optional<Dtype> dtypeOfType(const types::NumbaType& t) {
  if (t.isScalar())
    return dtypeOfKind(t.scalarKind());
  for (Dtype d : kAllDtypes)
    if ((is_datetime_dtype(d) || is_timedelta_dtype(d)) && valueTypeOf(d) == t)
      return d;
  return std::nullopt;
}

std::optional<Dtype> dtypeOfKind(ScalarKind kind) {
  for (Dtype d : kAllDtypes)
    if (scalarKindOf(d) == kind)
      return d;
  return std::nullopt;
}

// The argument's scalar value as the parameter's type, written to `out`.
void convertScalar(const KernelArgument& a, ScalarKind to, unsigned char* out) {
  long double real = 0, imag = 0;
  std::int64_t signedValue = 0;
  std::uint64_t unsignedValue = 0;
  bool isUnsigned = false;
  // `v` given a value of the argument's type is read from the argument's bytes; given the double
  // a float16 argument holds, as it is.
  auto read = [&](auto v, bool fromBytes = true) {
    if (fromBytes)
      std::memcpy(&v, a.value, sizeof v);
    using V = decltype(v);
    if constexpr (std::is_same_v<V, std::complex<float>> ||
                  std::is_same_v<V, std::complex<double>>) {
      real = v.real();
      imag = v.imag();
      signedValue = static_cast<std::int64_t>(v.real());
    } else if constexpr (std::is_floating_point_v<V>) {
      real = v;
      signedValue = static_cast<std::int64_t>(v);
    } else if constexpr (std::is_unsigned_v<V>) {
      unsignedValue = v;
      isUnsigned = true;
      real = static_cast<long double>(v);
    } else {
      signedValue = v;
      real = static_cast<long double>(v);
    }
  };
  switch (a.dtype) {
  case Dtype::Bool:
    read(bool{});
    break;
  case Dtype::Int8:
    read(std::int8_t{});
    break;
  case Dtype::Int16:
    read(std::int16_t{});
    break;
  case Dtype::Int32:
    read(std::int32_t{});
    break;
  case Dtype::Int64:
    read(std::int64_t{});
    break;
  case Dtype::UInt8:
    read(std::uint8_t{});
    break;
  case Dtype::UInt16:
    read(std::uint16_t{});
    break;
  case Dtype::UInt32:
    read(std::uint32_t{});
    break;
  case Dtype::UInt64:
    read(std::uint64_t{});
    break;
  case Dtype::Float32:
    read(float{});
    break;
  case Dtype::Float64:
    read(double{});
    break;
  case Dtype::Complex64:
    read(std::complex<float>{});
    break;
  case Dtype::Complex128:
    read(std::complex<double>{});
    break;
  case Dtype::Float16: {
    float16 h;
    std::memcpy(&h, a.value, sizeof h);
    read(static_cast<double>(h), false);
    break;
  }
  case Dtype::Record:
    throw Error(ErrorKind::InvalidArgument, "a record is not a scalar argument");
  default: // datetime64, timedelta64: only ever passed to their own type (typing converts no
           // other), their count copied
    read(std::int64_t{});
    break;
  }
  const std::uint64_t bits = isUnsigned ? unsignedValue : static_cast<std::uint64_t>(signedValue);
  auto write = [&](auto v) { std::memcpy(out, &v, sizeof v); };
  const bool fromFloat = a.dtype == Dtype::Float16 || a.dtype == Dtype::Float32 ||
                         a.dtype == Dtype::Float64 || a.dtype == Dtype::Complex64 ||
                         a.dtype == Dtype::Complex128;
  switch (to) {
  case ScalarKind::Boolean:
    write(static_cast<bool>(real != 0 || imag != 0));
    break;
  case ScalarKind::Int8:
    write(static_cast<std::int8_t>(bits));
    break;
  case ScalarKind::Int16:
    write(static_cast<std::int16_t>(bits));
    break;
  case ScalarKind::Int32:
    write(static_cast<std::int32_t>(bits));
    break;
  case ScalarKind::Int64:
    write(static_cast<std::int64_t>(bits));
    break;
  case ScalarKind::UInt8:
    write(static_cast<std::uint8_t>(bits));
    break;
  case ScalarKind::UInt16:
    write(static_cast<std::uint16_t>(bits));
    break;
  case ScalarKind::UInt32:
    write(static_cast<std::uint32_t>(bits));
    break;
  case ScalarKind::UInt64:
    write(fromFloat ? static_cast<std::uint64_t>(real) : bits);
    break;
  case ScalarKind::Float16:
    write(float16(static_cast<double>(real)));
    break;
  case ScalarKind::Float32:
    write(static_cast<float>(real));
    break;
  case ScalarKind::Float64:
    write(static_cast<double>(real));
    break;
  case ScalarKind::Complex64: {
    const float parts[2] = {static_cast<float>(real), static_cast<float>(imag)};
    std::memcpy(out, parts, sizeof parts);
    break;
  }
  case ScalarKind::Complex128: {
    const double parts[2] = {static_cast<double>(real), static_cast<double>(imag)};
    std::memcpy(out, parts, sizeof parts);
    break;
  }
  default:
    throw Error(ErrorKind::InvalidArgument, "a scalar argument of this type is not supported");
  }
}

} // namespace pyk::detail
