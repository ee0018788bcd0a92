// Printing: operator<< for the host API's values (pyk/print.hpp).
#include "pyk/print.hpp"

#include <ostream>
#include <string>
#include <vector>

#include "pyk/record.hpp"

namespace pyk {

namespace {

// A Python tuple: `(2, 3)`, `(5,)`, `()`.
std::ostream& tuple(std::ostream& out, const std::vector<std::int64_t>& values) {
  out << '(';
  for (std::size_t i = 0; i < values.size(); ++i)
    out << (i ? ", " : "") << values[i];
  return out << (values.size() == 1 ? ",)" : ")");
}

std::ostream& elementType(std::ostream& out, Dtype dtype, const RecordDtype* record) {
  if (record != nullptr)
    return out << record->str();
  return out << dtype;
}

} // namespace

std::ostream& operator<<(std::ostream& out, Dtype dtype) {
  return out << dtype_name(dtype);
}

std::ostream& operator<<(std::ostream& out, const Dim3& d) {
  return out << '(' << d.x << ", " << d.y << ", " << d.z << ')';
}

std::ostream& operator<<(std::ostream& out, const LaunchShape& s) {
  return out << '[' << s.grid << ", " << s.block << ']';
}

std::ostream& operator<<(std::ostream& out, const AnyDeviceArray& a) {
  out << "DeviceArray(";
  elementType(out, a.dtype(), a.record()) << ", shape=";
  tuple(out, a.shape()) << ", strides=";
  tuple(out, a.strides()) << ", ";
  if (a.backend() == Backend::Cpu)
    out << "cpu";
  else
    out << "cuda:" << a.device_id() << (a.memory_kind() == MemoryKind::Managed ? " managed" : "");
  return out << ')';
}

std::ostream& operator<<(std::ostream& out, const HostArray& h) {
  out << "HostArray(";
  elementType(out, h.dtype, h.record.get()) << ", shape=";
  return tuple(out, h.shape) << ')';
}

} // namespace pyk
