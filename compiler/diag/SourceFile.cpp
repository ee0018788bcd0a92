// SourceFile: the text of one input file, split into lines for diagnostics.
#include "diag/SourceFile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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
  // A directory opens as a stream that reads nothing; say what it is instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "it is a directory";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    error = "read error";
    return std::nullopt;
  }
  return SourceFile(path, buffer.str());
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
