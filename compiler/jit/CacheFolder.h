// CacheFolder: the check that the disk cache's folder is private to the user before anything is
// kept there. Where the folder is (PYK_CACHE_DIR, XDG_CACHE_HOME, HOME) is the runtime's setting.
#pragma once

#include <filesystem>

namespace pyk::jit {

// Creates `folder` and its missing parents with mode 0700, then checks that it is a directory
// owned by the current user and writable by nobody else. Throws pyk::Error (ErrorKind::Cache)
// saying what is wrong and what to do otherwise: compiled code loaded from a folder others can
// write would run their code.
void preparePrivateFolder(const std::filesystem::path& folder);

} // namespace pyk::jit
