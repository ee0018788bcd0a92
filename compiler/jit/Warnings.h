// Warnings: what the jit library could not do but worked around (a cache it could not use, a
// precompiled header it could not build), said on standard error once a process per key, never
// silently and never again and again.
#pragma once

#include <string>

namespace pyk::jit {

// Writes "pyk: warning: WHAT" to standard error, unless a warning with `key` was written before
// in this process.
void warnOnce(const std::string& key, const std::string& what);

} // namespace pyk::jit
