// LiteralParser: the values of Python number and string literals, from their source text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pyk::syntax {

struct IntegerValue {
  __int128 value = 0;
  bool tooLarge = false; // needs more than 127 bits
};
// `text` is a valid integer token (any base, underscores allowed).
IntegerValue parseIntegerLiteral(std::string_view text);

// The decimal spelling of an integer value.
std::string formatIntegerLiteral(__int128 value);

// `text` is a valid float or imaginary token (a trailing j/J is ignored). Out-of-range values
// become inf, as in Python.
double parseFloatLiteral(std::string_view text);

struct StringLiteralParts {
  bool raw = false;
  bool bytes = false;
  bool formatted = false;
  bool triple = false;
  std::string_view body; // between the quotes
  size_t bodyOffset = 0; // byte offset of the body in the token text
};
StringLiteralParts splitStringLiteral(std::string_view token);

struct LiteralError {
  size_t offset; // byte offset into the decoded body
  size_t length;
  std::string message;
};

// Decodes backslash escapes of a str (UTF-8 result) or bytes body, as Python does. Unknown
// escapes keep their backslash (Python only warns). Errors are appended to `errors`.
std::string decodeEscapes(std::string_view body, bool bytes, std::vector<LiteralError>& errors);

// The inverse, for display: a str or bytes value written as the body of a literal quoted with
// `quote`, with backslashes, the quote and control characters escaped (and, for bytes, every
// byte past 0x7F), so the text is printable and valid UTF-8.
std::string escapeForDisplay(std::string_view value, char quote, bool bytes);

} // namespace pyk::syntax
