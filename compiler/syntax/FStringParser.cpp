// FStringParser: splits the body of an f-string into literal text and replacement fields.
#include "syntax/FStringParser.h"

namespace pyk::syntax {

namespace {

class FStringScanner {
public:
  FStringScanner(std::string_view body, bool raw, std::vector<LiteralError>& errors)
      : body_(body), raw_(raw), errors_(errors) {}

  // Parses parts until the end of the body or, inside a format spec, the closing `}`.
  bool parseParts(size_t& i, std::vector<FStringPart>& parts, int specDepth) {
    std::string literal;
    size_t literalStart = i;
    auto flushLiteral = [&](size_t end) {
      if (end > literalStart || !literal.empty()) {
        FStringPart part;
        part.offset = literalStart;
        part.endOffset = end;
        std::vector<LiteralError> escapeErrors;
        part.literal = raw_ ? literal : decodeEscapes(literal, false, escapeErrors);
        for (LiteralError& e : escapeErrors)
          errors_.push_back({literalStart, e.length, e.message});
        if (!part.literal.empty())
          parts.push_back(std::move(part));
      }
      literal.clear();
    };
    while (i < body_.size()) {
      char c = body_[i];
      if (c == '\\' && !raw_ && i + 1 < body_.size()) {
        literal += body_.substr(i, 2);
        i += 2;
        continue;
      }
      if (c == '{') {
        if (specDepth == 0 && i + 1 < body_.size() && body_[i + 1] == '{') {
          literal += '{';
          i += 2;
          continue;
        }
        flushLiteral(i);
        if (!parseField(i, parts, specDepth))
          return false;
        literalStart = i;
        continue;
      }
      if (c == '}') {
        if (specDepth > 0)
          break; // the end of the enclosing field's format spec
        if (i + 1 < body_.size() && body_[i + 1] == '}') {
          literal += '}';
          i += 2;
          continue;
        }
        errors_.push_back({i, 1, "single `}` is not allowed"});
        return false;
      }
      literal += c;
      ++i;
    }
    flushLiteral(i);
    return true;
  }

private:
  // At `{`: parses one replacement field up to and including its `}`.
  bool parseField(size_t& i, std::vector<FStringPart>& parts, int specDepth) {
    size_t open = i++;
    if (specDepth >= 2) {
      errors_.push_back({open, 1, "expressions nested too deeply"});
      return false;
    }
    FStringPart field;
    field.isField = true;
    field.expressionOffset = i;
    // The expression runs to the first `!`, `:`, `=` or `}` outside brackets and strings.
    std::vector<char> brackets;
    size_t end = i;
    for (; end < body_.size(); ++end) {
      char c = body_[end];
      if (c == '\\') {
        errors_.push_back({end, 1, "expression part cannot include a backslash"});
        return false;
      }
      if (c == '\'' || c == '"') {
        size_t close = body_.find(c, end + 1);
        if (close == std::string_view::npos) {
          errors_.push_back({end, 1, "unterminated string in expression"});
          return false;
        }
        if (size_t slash = body_.substr(end, close - end).find('\\');
            slash != std::string_view::npos) {
          errors_.push_back({end + slash, 1, "expression part cannot include a backslash"});
          return false;
        }
        end = close;
        continue;
      }
      if (c == '#') {
        errors_.push_back({end, 1, "expression part cannot include `#`"});
        return false;
      }
      if (c == '(' || c == '[' || c == '{') {
        brackets.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
        continue;
      }
      if (c == ')' || c == ']' || (c == '}' && !brackets.empty())) {
        if (brackets.empty() || brackets.back() != c) {
          errors_.push_back({end, 1, std::string("unmatched `") + c + "`"});
          return false;
        }
        brackets.pop_back();
        continue;
      }
      if (!brackets.empty())
        continue;
      char next = end + 1 < body_.size() ? body_[end + 1] : '\0';
      if (c == '}' || c == ':')
        break;
      if (c == '!' && next != '=')
        break;
      if (c == '=' && next != '=') {
        char prev = end > i ? body_[end - 1] : '\0';
        if (prev != '=' && prev != '!' && prev != '<' && prev != '>')
          break;
      }
      if ((c == '=' || c == '!' || c == '<' || c == '>') && next == '=')
        ++end; // a two-character operator
    }
    if (end >= body_.size()) {
      errors_.push_back({open, 1, "expecting `}`"});
      return false;
    }
    field.expression = body_.substr(i, end - i);
    if (field.expression.find_first_not_of(" \t\r\n") == std::string_view::npos) {
      errors_.push_back({open, end - open + 1, "empty expression not allowed"});
      return false;
    }
    i = end;
    if (body_[i] == '=') {
      ++i;
      while (i < body_.size() && (body_[i] == ' ' || body_[i] == '\t'))
        ++i;
      field.selfDocumenting = body_.substr(field.expressionOffset, i - field.expressionOffset);
    }
    if (i < body_.size() && body_[i] == '!') {
      char conversion = i + 1 < body_.size() ? body_[i + 1] : '\0';
      if (conversion != 's' && conversion != 'r' && conversion != 'a') {
        errors_.push_back({i, 2, "invalid conversion character: expected `s`, `r` or `a`"});
        return false;
      }
      field.conversion = conversion;
      i += 2;
    }
    if (i < body_.size() && body_[i] == ':') {
      ++i;
      field.hasFormatSpec = true;
      if (!parseParts(i, field.formatSpec, specDepth + 1))
        return false;
    }
    if (i >= body_.size() || body_[i] != '}') {
      errors_.push_back({i < body_.size() ? i : open, 1, "expecting `}`"});
      return false;
    }
    ++i;
    if (!field.selfDocumenting.empty() && field.conversion == 0 && !field.hasFormatSpec)
      field.conversion = 'r';
    field.offset = open;
    field.endOffset = i;
    parts.push_back(std::move(field));
    return true;
  }

  std::string_view body_;
  bool raw_;
  std::vector<LiteralError>& errors_;
};

} // namespace

bool parseFString(std::string_view body, bool raw, std::vector<FStringPart>& parts,
                  std::vector<LiteralError>& errors) {
  FStringScanner scanner(body, raw, errors);
  size_t i = 0;
  return scanner.parseParts(i, parts, 0) && errors.empty();
}

} // namespace pyk::syntax
