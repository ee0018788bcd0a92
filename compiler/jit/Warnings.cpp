// Warnings: one write(2) each, so lines from several threads never interleave.
#include "jit/Warnings.h"

#include <unistd.h>

#include <mutex>
#include <set>

namespace pyk::jit {

void warnOnce(const std::string& key, const std::string& what) {
  // Never destroyed: a background compile may warn while the process exits.
  static std::mutex* mutex = new std::mutex;
  static std::set<std::string>* said = new std::set<std::string>;
  {
    std::lock_guard lock(*mutex);
    if (!said->insert(key).second)
      return;
  }
  const std::string line = "pyk: warning: " + what + "\n";
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, line.data(), line.size());
}

} // namespace pyk::jit
