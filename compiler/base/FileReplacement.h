// FileReplacement: a file written whole under a temporary name in its own folder, then renamed
// over its final name, so readers (other threads, other processes) never see half a file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "base/Error.h"

namespace pyk::base {

// Writes the concatenation of `pieces` to `path`, replacing any file there, with permission bits
// `mode` (less the umask). On failure throws pyk::Error(`errorKind`, "PATH: cannot write: why")
// and leaves neither a temporary file nor a changed `path` behind.
void replaceFile(const std::filesystem::path& path,
                 std::span<const std::span<const std::byte>> pieces, unsigned mode,
                 ErrorKind errorKind);

// The same for one text.
void replaceFile(const std::filesystem::path& path, std::string_view text, unsigned mode,
                 ErrorKind errorKind);

// The temporary name replaceFile writes `path`'s contents under before the rename: a hidden
// file in the same folder, unique to this process and call (".NAME.tmp-PID-N").
std::filesystem::path temporaryPathFor(const std::filesystem::path& path);

// Whether a file name is one temporaryPathFor makes.
bool isTemporaryName(std::string_view fileName);

} // namespace pyk::base
