// StringLiteralLocation: the source range of a piece of a string literal's value, for diagnostics
// that point inside the literal (a bad type name in a signature string).
#include "sema/resolve/StringLiteralLocation.h"

#include <algorithm>
#include <vector>

#include "syntax/Ast.h"

namespace pyk::sema {

namespace {

bool isContinuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

uint32_t codePointCount(std::string_view text) {
  uint32_t count = 0;
  for (char c : text)
    if (!isContinuationByte(c))
      ++count;
  return count;
}

// Byte offset of the code point `index` of `text` (text.size() past the end).
size_t byteOffsetOfCodePoint(std::string_view text, uint32_t index) {
  uint32_t seen = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (isContinuationByte(text[i]))
      continue;
    if (seen == index)
      return i;
    ++seen;
  }
  return text.size();
}

} // namespace

StringLiteralLocation::StringLiteralLocation(const ast::Constant& literal, const SourceFile* file)
    : StringLiteralLocation(literal.range, literal.strValue, file) {}

StringLiteralLocation::StringLiteralLocation(SourceRange literalRange, std::string_view value,
                                             const SourceFile* file)
    : literalRange_(literalRange), value_(value) {
  const SourceRange& r = literalRange;
  if (!r.valid() || r.end.line != r.begin.line || r.end.column <= r.begin.column)
    return;
  uint32_t width = r.end.column - r.begin.column;
  if (file != nullptr && r.begin.line <= file->lineCount()) {
    std::string_view line = file->line(r.begin.line);
    size_t begin = byteOffsetOfCodePoint(line, r.begin.column - 1);
    size_t end = byteOffsetOfCodePoint(line, r.end.column - 1);
    std::string_view written = line.substr(begin, end - begin);
    size_t prefix = 0;
    while (prefix < written.size() &&
           std::string_view("rRuU").find(written[prefix]) != std::string_view::npos)
      ++prefix;
    std::string_view rest = written.substr(prefix);
    size_t quote = 0;
    if (rest.size() >= 6 && (rest.starts_with("\"\"\"") || rest.starts_with("'''")))
      quote = 3;
    else if (rest.size() >= 2 && (rest[0] == '"' || rest[0] == '\''))
      quote = 1;
    if (quote != 0 && rest.substr(rest.size() - quote) == rest.substr(0, quote) &&
        rest.substr(quote, rest.size() - 2 * quote) == value_) {
      exact_ = true;
      contentColumn_ = r.begin.column + static_cast<uint32_t>(prefix + quote);
    }
    return;
  }
  if (width == codePointCount(value_) + 2) {
    exact_ = true;
    contentColumn_ = r.begin.column + 1;
  }
}

SourceRange StringLiteralLocation::rangeOf(size_t offset, size_t length) const {
  if (!exact_)
    return literalRange_;
  offset = std::min(offset, value_.size());
  length = std::min(length, value_.size() - offset);
  std::string_view value(value_);
  uint32_t column = contentColumn_ + codePointCount(value.substr(0, offset));
  uint32_t end = column + codePointCount(value.substr(offset, length));
  return {SourceLoc{literalRange_.begin.line, column}, SourceLoc{literalRange_.begin.line, end}};
}

} // namespace pyk::sema
