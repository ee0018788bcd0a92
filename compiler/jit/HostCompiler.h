// HostCompiler: the CPU backend's C++ units compiled by the host C++ compiler into shared
// objects. The disk cache around it is compileSpecialization's (CpuObjectCompile).
#pragma once

#include <string>
#include <vector>

namespace pyk::jit {

class HostCompiler {
public:
  // The compiler `command` (a name found on PATH, or a path; empty: the compiler pyk was built
  // with). Its identity is worked out once per command in a process.
  static const HostCompiler& named(const std::string& command);

  const std::string& command() const { return command_; }
  // What tells compilers and CPUs apart in cache keys: the compiler's file (size and time stand
  // for its version without running it) and the lines of /proc/cpuinfo -march=native goes by.
  const std::string& identity() const { return identity_; }
  // The flags every unit is compiled with.
  static std::vector<std::string> flags();

  // The shared object's bytes for `source` (`name` is the kernel, for messages), compiled in a
  // private temporary folder with the CPU support header beside it. Throws pyk::Error: Compile when
  // the compiler does not run, Internal when it rejects the generated code (its messages
  // included).
  std::string compile(const std::string& source, const std::string& name) const;

private:
  explicit HostCompiler(std::string command);

  std::string command_;
  std::string identity_;
};

} // namespace pyk::jit
