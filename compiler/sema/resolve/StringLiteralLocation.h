// StringLiteralLocation: the source range of a piece of a string literal's value, for diagnostics
// that point inside the literal (a bad type name in a signature string).
#pragma once

#include <string>
#include <string_view>

#include "diag/SourceFile.h"
#include "diag/SourceLocation.h"

namespace pyk::ast {
struct Constant;
}

namespace pyk::sema {

class StringLiteralLocation {
public:
  // `literalRange` covers the literal as written (prefix and quotes included); `value` is its
  // value. With `file` the written text is compared with the value; without it, a one-line
  // literal exactly two characters wider than its value is taken to be `"value"`.
  StringLiteralLocation(SourceRange literalRange, std::string_view value,
                        const SourceFile* file = nullptr);
  StringLiteralLocation(const ast::Constant& literal, const SourceFile* file);

  // The range of value bytes [offset, offset + length): exact when the literal is written on one
  // line without escapes (column = literal start + prefix + quote + offset in code points),
  // otherwise the whole literal.
  SourceRange rangeOf(size_t offset, size_t length) const;
  SourceRange literalRange() const { return literalRange_; }
  bool exact() const { return exact_; }

private:
  SourceRange literalRange_;
  std::string value_;
  bool exact_ = false;
  uint32_t contentColumn_ = 0; // column of the value's first character
};

} // namespace pyk::sema
