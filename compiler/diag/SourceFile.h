// SourceFile: the text of one input file, split into lines for diagnostics.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/SourceLocation.h"

namespace pyk {

class SourceFile {
public:
  SourceFile(std::string path, std::string text);

  // The largest source file read (64 MiB).
  static constexpr std::uint64_t kMaxSourceBytes = std::uint64_t{64} << 20;

  // Reads a regular file of at most kMaxSourceBytes; returns std::nullopt and sets `error` (the
  // OS's reason, or why it is not read: a directory, a FIFO or device, too large) otherwise.
  static std::optional<SourceFile> read(const std::string& path, std::string& error);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  size_t lineCount() const { return lineStarts_.size(); }
  // The text of a 1-based line without its line terminator; empty past the end.
  std::string_view line(uint32_t line) const;
  // The location of a byte offset into text().
  SourceLoc locationOfOffset(size_t offset) const;

private:
  std::string path_;
  std::string text_;
  std::vector<size_t> lineStarts_;
};

} // namespace pyk
