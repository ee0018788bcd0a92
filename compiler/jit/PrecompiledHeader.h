// PrecompiledHeader: the CPU support header precompiled once per disk cache folder, compiler,
// CPU and flags, so that a unit's compile does not parse its 3,800 lines and the standard headers
// under them again (0.4 s of the 0.6 s a small kernel took with g++ -O3 on the 2-core VM).
//
// It lives in the cache's folder as `pch-KEY/` (the header and GCC's `pyk_cpu_support.h.gch`
// beside it, which an `#include` picks up by itself), built by one process under a lock file
// (`pch-KEY.lock`) while the others wait, into a temporary folder renamed into place, so nobody
// sees half of one. Where there is none (no cache folder, a compiler other than GCC, a build that
// failed: a warning says why, once) units include the header's text as before.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>

#include "jit/HostCompiler.h"
#include "jit/JitSettings.h"

namespace pyk::jit {

// The folder to compile units against (`-I`): the support header and its precompiled form for
// `compiler`, built now if it is missing. std::nullopt when none can be used.
std::optional<std::filesystem::path> precompiledSupportHeader(const JitSettings& settings,
                                                              const HostCompiler& compiler);

// Forgets a precompiled header the compiler refused (a unit compiled against `folder` failed and
// compiled without it): its folder is removed, so the next process builds it again, and this one
// compiles without it. `why` is the compiler's message, for the warning.
void discardPrecompiledHeader(const std::filesystem::path& folder, const std::string& why);

// Removes the precompiled headers in `cacheFolder` last used before `lastUsedBefore`, and what
// builds of them left behind; returns how many headers it removed (`pykc cache prune/clear`).
std::size_t prunePrecompiledHeaders(const std::filesystem::path& cacheFolder,
                                    std::chrono::system_clock::time_point lastUsedBefore);

} // namespace pyk::jit
