// LiteralParser: the values of Python number and string literals, from their source text.
#include "syntax/LiteralParser.h"

#include <cmath>
#include <cstdlib>

namespace pyk::syntax {

IntegerValue parseIntegerLiteral(std::string_view text) {
  unsigned base = 10;
  size_t i = 0;
  if (text.size() > 1 && text[0] == '0') {
    char b = static_cast<char>(text[1] | 0x20);
    if (b == 'x' || b == 'o' || b == 'b') {
      base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
      i = 2;
    }
  }
  IntegerValue result;
  const unsigned __int128 limit = (static_cast<unsigned __int128>(1) << 127) - 1;
  unsigned __int128 value = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '_')
      continue;
    unsigned digit = c >= '0' && c <= '9'   ? static_cast<unsigned>(c - '0')
                     : c >= 'a' && c <= 'f' ? static_cast<unsigned>(c - 'a' + 10)
                                            : static_cast<unsigned>(c - 'A' + 10);
    if (value > (limit - digit) / base) {
      result.tooLarge = true;
      return result;
    }
    value = value * base + digit;
  }
  result.value = static_cast<__int128>(value);
  return result;
}

std::string formatIntegerLiteral(__int128 value) {
  if (value == 0)
    return "0";
  bool negative = value < 0;
  unsigned __int128 magnitude = negative ? static_cast<unsigned __int128>(-(value + 1)) + 1
                                         : static_cast<unsigned __int128>(value);
  std::string digits;
  while (magnitude != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  return negative ? "-" + digits : digits;
}

double parseFloatLiteral(std::string_view text) {
  std::string clean;
  for (char c : text)
    if (c != '_' && c != 'j' && c != 'J')
      clean += c;
  return std::strtod(clean.c_str(), nullptr);
}

StringLiteralParts splitStringLiteral(std::string_view token) {
  StringLiteralParts parts;
  size_t i = 0;
  while (i < token.size() && token[i] != '\'' && token[i] != '"') {
    char c = static_cast<char>(token[i] | 0x20);
    parts.raw |= c == 'r';
    parts.bytes |= c == 'b';
    parts.formatted |= c == 'f';
    ++i;
  }
  if (i >= token.size())
    return parts;
  char quote = token[i];
  size_t quoteLength = 1;
  if (token.size() >= i + 6 && token[i + 1] == quote && token[i + 2] == quote) {
    parts.triple = true;
    quoteLength = 3;
  }
  parts.bodyOffset = i + quoteLength;
  if (token.size() >= parts.bodyOffset + quoteLength)
    parts.body = token.substr(parts.bodyOffset, token.size() - parts.bodyOffset - quoteLength);
  return parts;
}

namespace {
void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}
} // namespace

std::string decodeEscapes(std::string_view body, bool bytes, std::vector<LiteralError>& errors) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\') {
      if (bytes && (static_cast<unsigned char>(c) & 0x80)) {
        errors.push_back({i, 1, "bytes can only contain ASCII literal characters"});
        return out;
      }
      out += c;
      continue;
    }
    if (i + 1 >= body.size()) {
      out += c;
      break;
    }
    char e = body[++i];
    switch (e) {
    case '\n':
      break; // line continuation inside the string
    case '\r':
      if (i + 1 < body.size() && body[i + 1] == '\n')
        ++i;
      break;
    case '\\':
    case '\'':
    case '"':
      out += e;
      break;
    case 'a':
      out += '\a';
      break;
    case 'b':
      out += '\b';
      break;
    case 'f':
      out += '\f';
      break;
    case 'n':
      out += '\n';
      break;
    case 'r':
      out += '\r';
      break;
    case 't':
      out += '\t';
      break;
    case 'v':
      out += '\v';
      break;
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7': {
      uint32_t value = static_cast<uint32_t>(e - '0');
      for (int n = 0; n < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++n)
        value = value * 8 + static_cast<uint32_t>(body[++i] - '0');
      if (bytes)
        out += static_cast<char>(value & 0xFF);
      else
        appendUtf8(out, value);
      break;
    }
    case 'x':
    case 'u':
    case 'U': {
      if (bytes && e != 'x') {
        out += '\\';
        out += e;
        break;
      }
      int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      uint32_t value = 0;
      int n = 0;
      for (; n < digits && i + 1 < body.size() && hexValue(body[i + 1]) >= 0; ++n)
        value = value * 16 + static_cast<uint32_t>(hexValue(body[++i]));
      if (n < digits) {
        errors.push_back({i + 1 - static_cast<size_t>(n) - 2, static_cast<size_t>(n) + 2,
                          std::string("truncated `\\") + e + "` escape"});
        return out;
      }
      if (value > 0x10FFFF) {
        errors.push_back({i + 1 - static_cast<size_t>(digits) - 2, static_cast<size_t>(digits) + 2,
                          "illegal Unicode character"});
        return out;
      }
      if (bytes)
        out += static_cast<char>(value);
      else
        appendUtf8(out, value);
      break;
    }
    default:
      // \N{NAME} is kept as written (pyk has no Unicode name table); unknown escapes keep the
      // backslash, as Python does.
      out += '\\';
      out += e;
      break;
    }
  }
  return out;
}

std::string escapeForDisplay(std::string_view value, char quote, bool bytes) {
  std::string out;
  for (char ch : value) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (ch == '\\' || ch == quote) {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F || (bytes && c >= 0x80)) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else {
      out += ch;
    }
  }
  return out;
}

} // namespace pyk::syntax
