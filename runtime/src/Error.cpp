// Error: names of the runtime's error kinds.
#include "pyk/error.hpp"

namespace pyk {

const char* errorKindName(ErrorKind kind) noexcept {
  switch (kind) {
  case ErrorKind::InvalidArgument:
    return "invalid argument";
  case ErrorKind::InvalidLaunch:
    return "invalid launch";
  case ErrorKind::Compile:
    return "compile error";
  case ErrorKind::File:
    return "file error";
  case ErrorKind::Cache:
    return "cache error";
  case ErrorKind::Device:
    return "device error";
  case ErrorKind::Kernel:
    return "kernel error";
  case ErrorKind::Internal:
    return "internal error";
  }
  return "error";
}

} // namespace pyk
