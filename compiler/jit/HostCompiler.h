// HostCompiler: the CPU backend's C++ units compiled by the host C++ compiler into shared
// objects. The disk cache around it is compileSpecialization's (CpuObjectCompile).
#pragma once

#include <filesystem>
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
  // Whether the compiler is GCC, whose precompiled headers (`NAME.h.gch` beside `NAME.h`) an
  // `#include` picks up by itself, and falls back from to the text when they do not fit.
  bool readsPrecompiledHeaders() const { return gcc_; }

  // The shared object's bytes for `source` (`name` is the kernel, for messages), compiled in a
  // private temporary folder. The CPU support header is taken from `headerFolder` (with its
  // precompiled form: jit/PrecompiledHeader) or, when that is empty, written beside the unit.
  // Throws pyk::Error: Compile when the compiler does not run, Internal when it rejects the
  // generated code (its messages included). `extraFlags` follow flags().
  std::string compile(const std::string& source, const std::string& name,
                      const std::filesystem::path& headerFolder = {},
                      const std::vector<std::string>& extraFlags = {}) const;

  // Precompiles the CPU support header written at `header` into `output` with the units' flags.
  // Returns "" on success, else the compiler's messages (or why it did not run).
  std::string precompileHeader(const std::filesystem::path& header,
                               const std::filesystem::path& output) const;

private:
  explicit HostCompiler(std::string command);

  std::string command_;
  std::string identity_;
  bool gcc_ = false;
};

} // namespace pyk::jit
