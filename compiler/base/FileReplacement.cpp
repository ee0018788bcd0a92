// FileReplacement: a file written whole under a temporary name in its own folder, then renamed
// over its final name, so readers (other threads, other processes) never see half a file.
#include "base/FileReplacement.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace pyk::base {

namespace {

constexpr std::string_view kTemporaryMarker = ".tmp-";

[[noreturn]] void failWrite(const std::filesystem::path& path, int error, ErrorKind errorKind) {
  throw Error(errorKind, path.string() + ": cannot write: " + std::strerror(error));
}

} // namespace

std::filesystem::path temporaryPathFor(const std::filesystem::path& path) {
  static std::atomic<unsigned long long> counter{0};
  std::string name = "." + path.filename().string() + std::string(kTemporaryMarker) +
                     std::to_string(::getpid()) + "-" + std::to_string(counter++);
  return path.parent_path() / name;
}

bool isTemporaryName(std::string_view fileName) {
  return fileName.size() > 1 && fileName[0] == '.' &&
         fileName.find(kTemporaryMarker) != std::string_view::npos;
}

void replaceFile(const std::filesystem::path& path,
                 std::span<const std::span<const std::byte>> pieces, unsigned mode,
                 ErrorKind errorKind) {
  std::filesystem::path temporary = temporaryPathFor(path);
  int fd =
      ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, static_cast<mode_t>(mode));
  if (fd < 0)
    failWrite(path, errno, errorKind);
  auto abandon = [&](int error) {
    if (fd >= 0)
      ::close(fd);
    ::unlink(temporary.c_str());
    failWrite(path, error, errorKind);
  };
  for (std::span<const std::byte> piece : pieces) {
    const std::byte* next = piece.data();
    std::size_t left = piece.size();
    while (left > 0) {
      ssize_t written = ::write(fd, next, left);
      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        abandon(written < 0 ? errno : EIO);
      next += written;
      left -= static_cast<std::size_t>(written);
    }
  }
  int closed = ::close(fd);
  fd = -1;
  if (closed != 0)
    abandon(errno);
  if (::rename(temporary.c_str(), path.c_str()) != 0)
    abandon(errno);
}

void replaceFile(const std::filesystem::path& path, std::string_view text, unsigned mode,
                 ErrorKind errorKind) {
  const std::span<const std::byte> pieces[] = {std::as_bytes(std::span(text))};
  replaceFile(path, pieces, mode, errorKind);
}

} // namespace pyk::base
