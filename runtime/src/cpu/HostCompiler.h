// HostCompiler: the CPU backend's C++ units compiled by the host C++ compiler into shared objects,
// through the disk cache (key: the source, the support headers, the flags, the compiler and the
// CPU it tunes for, the pyk version and the CPU ABI version).
#pragma once

#include <string>
#include <vector>

namespace pyk::cpu {

class HostCompiler {
public:
  // The compiler is $PYK_CXX when set, else the one pyk was built with.
  static HostCompiler& shared();

  // The shared object's bytes for `source` (`name` is the kernel, for messages): from the disk
  // cache, or compiled and stored. Throws pyk::Error: Compile when no compiler runs, Internal
  // when it rejects the generated code (its messages included).
  // `fresh`: compile even when the cache has an entry (one that would not load), and replace it.
  std::string build(const std::string& source, const std::string& name, bool fresh = false);

  const std::string& compiler() const { return compiler_; }
  // The flags every unit is compiled with.
  std::vector<std::string> flags() const;

private:
  HostCompiler();
  std::string compile(const std::string& source, const std::string& name) const;

  std::string compiler_;
  std::string identity_; // what tells compilers and CPUs apart in cache keys
};

} // namespace pyk::cpu
