// FStringParser: splits the body of an f-string into literal text and replacement fields.
//
// As in CPython 3.11 the f-string is one token; this finds the fields (`{expr!r:spec}`), and
// the AST builder then parses each field's expression text with the Python parser.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "syntax/LiteralParser.h"

namespace pyk::syntax {

struct FStringPart {
  bool isField = false;
  // Literal: the text with escapes decoded and `{{`/`}}` collapsed.
  std::string literal;
  size_t offset = 0;    // byte offset of the part in the body
  size_t endOffset = 0; // one past its last byte (a field's closing `}` included)
  // Field:
  std::string_view expression; // as written, between `{` and `!`, `:`, `=` or `}`
  size_t expressionOffset = 0;
  std::string_view selfDocumenting; // `expr=` text with its spaces, when the field ends in `=`
  char conversion = 0;              // 0, 's', 'r' or 'a'
  bool hasFormatSpec = false;
  std::vector<FStringPart> formatSpec; // literal text and nested fields
};

// Splits `body` (the text between the quotes). Returns false, with errors appended, when the
// f-string is malformed; offsets are byte offsets into `body`.
bool parseFString(std::string_view body, bool raw, std::vector<FStringPart>& parts,
                  std::vector<LiteralError>& errors);

} // namespace pyk::syntax
