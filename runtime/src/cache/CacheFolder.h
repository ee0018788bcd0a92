// CacheFolder: where the disk cache lives ($PYK_CACHE_DIR, else $XDG_CACHE_HOME/pyk, else
// $HOME/.cache/pyk), and the check that it is private to the user before anything is kept there.
#pragma once

#include <filesystem>

namespace pyk::cache {

// The folder the environment names: $PYK_CACHE_DIR if set and not empty, else $XDG_CACHE_HOME/pyk
// if that is an absolute path (as the XDG spec requires), else $HOME/.cache/pyk (HOME from the
// password database when unset). Throws pyk::Error (ErrorKind::Cache) when none can be found.
std::filesystem::path cacheFolderFromEnvironment();

// Creates `folder` and its missing parents with mode 0700, then checks that it is a directory
// owned by the current user and writable by nobody else. Throws pyk::Error (ErrorKind::Cache)
// saying what is wrong and what to do otherwise: compiled code loaded from a folder others can
// write would run their code.
void preparePrivateFolder(const std::filesystem::path& folder);

} // namespace pyk::cache
