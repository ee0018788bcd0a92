// SourceFile: the text of one input file, split into lines for diagnostics.
#include "diag/SourceFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace pyk {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  lineStarts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    char c = text_[i];
    if (c == '\n' || (c == '\r' && (i + 1 >= text_.size() || text_[i + 1] != '\n')))
      lineStarts_.push_back(i + 1);
  }
}

std::optional<SourceFile> SourceFile::read(const std::string& path, std::string& error) {
  // Opened without blocking, so that a FIFO or a device is refused, never waited on; only a
  // regular file of a bounded size is read (a source is never larger).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  if (S_ISDIR(status.st_mode)) {
    error = "it is a directory";
    return std::nullopt;
  }
  if (!S_ISREG(status.st_mode)) {
    error = "it is not a regular file (a pipe, socket or device is not read)";
    return std::nullopt;
  }
  if (static_cast<std::uint64_t>(status.st_size) > kMaxSourceBytes) {
    error = "it has " + std::to_string(status.st_size) + " bytes; a source file may have at most " +
            std::to_string(kMaxSourceBytes);
    return std::nullopt;
  }
  std::string text(static_cast<std::size_t>(status.st_size), '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t got = ::read(fd, text.data() + done, text.size() - done);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      error = std::string("read error: ") + std::strerror(errno);
      return std::nullopt;
    }
    if (got == 0)
      break; // it shrank while being read: what is there
    done += static_cast<std::size_t>(got);
  }
  text.resize(done);
  return SourceFile(path, std::move(text));
}

std::string_view SourceFile::line(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size())
    return {};
  size_t begin = lineStarts_[line - 1];
  size_t end = line < lineStarts_.size() ? lineStarts_[line] : text_.size();
  while (end > begin && (text_[end - 1] == '\n' || text_[end - 1] == '\r'))
    --end;
  return std::string_view(text_).substr(begin, end - begin);
}

SourceLoc SourceFile::locationOfOffset(size_t offset) const {
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - lineStarts_.begin());
  size_t begin = lineStarts_[line - 1];
  uint32_t column = 1;
  for (size_t i = begin; i < offset && i < text_.size(); ++i)
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80)
      ++column;
  return {line, column};
}

} // namespace pyk
