// ChildProcess: a program run to completion with its output (standard output and error) in a
// log file: the host compiler (HostCompiler), the toolkit's fatbinary (`pykc build`).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pyk::jit {

struct ChildOutcome {
  int startError = 0;     // errno of a program that could not be started (0: it ran)
  bool succeeded = false; // it exited with status 0
  int exitStatus = -1;    // its exit status; -1 when a signal ended it
};

// Runs `args` (args[0] looked up on PATH), waits for it, its output into `log` (mode 0600).
ChildOutcome runChild(const std::vector<std::string>& args, const std::filesystem::path& log);

// A whole file's bytes ("" when it cannot be read).
std::string readWholeFile(const std::filesystem::path& path);

} // namespace pyk::jit
