// Error: pyk::Error, the exception every user-caused failure becomes (a bad launch, a bad .npy
// file, a missing device, a compile error), with a message that says what and where, and its kind.
// Shared vocabulary: the compiler's libraries throw it (a cache that cannot be written, a host
// compiler that does not run) and the runtime's public pyk/error.hpp gives it to programs.
#pragma once

#include <stdexcept>
#include <string>

namespace pyk {

// What went wrong, for callers that react differently to different failures.
enum class ErrorKind {
  InvalidArgument, // a bad value passed to the API (shape, dtype, argument types)
  InvalidLaunch,   // a launch configuration outside the device's limits
  Compile,         // pykc or the backend compiler rejected the source
  File,            // a file could not be read or written, or has a bad format (.npy)
  Cache,           // the compile cache could not be used
  Device,          // no device, or the device/driver reported an error
  Kernel,          // a kernel failed while it ran (a deadlock at a barrier on the CPU backend)
  Internal,        // a bug in pyk
};

// The kind's name as messages and tests print it ("invalid launch").
inline const char* error_kind_name(ErrorKind kind) noexcept {
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

class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

private:
  ErrorKind kind_;
};

} // namespace pyk
