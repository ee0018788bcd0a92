// NpyHeader: the front of a .npy file (magic, version, header length, the header dictionary),
// parsed from and formatted to bytes. Parse errors are pyk::Error (ErrorKind::File) "NAME: ...".
#include "npy/NpyHeader.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "npy/DtypeDescriptor.h"
#include "pyk/error.hpp"
#include "pyk/npy.hpp"

namespace pyk::npy {

namespace {

constexpr char kMagic[kMagicLength] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
constexpr std::size_t kArrayAlignment = 64;      // numpy's ARRAY_ALIGN
constexpr std::size_t kGrowthAxisMaxDigits = 21; // numpy's GROWTH_AXIS_MAX_DIGITS
constexpr std::string_view kSupportedDtypes =
    "pyk reads bool, int8..int64, uint8..uint64, float16, float32, float64, complex64, complex128, "
    "datetime64 and timedelta64 of any unit, bytes 'S<n>' and unicode 'U<n>'";

std::uint64_t readLittleEndian(std::span<const std::byte> bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = bytes.size(); i-- > 0;)
    value = (value << 8) | std::to_integer<std::uint64_t>(bytes[i]);
  return value;
}

// The header dictionary split into keys and the raw text of their values; the values are
// interpreted afterwards, one key at a time, so each error can name the key it is about.
class DictionaryScanner {
public:
  DictionaryScanner(std::string_view text, std::string_view name) : text_(text), name_(name) {}

  std::map<std::string, std::string_view> scan() {
    std::map<std::string, std::string_view> entries;
    skipSpace();
    if (!consume('{'))
      malformed("it does not start with '{'");
    for (;;) {
      skipSpace();
      if (consume('}'))
        break;
      if (atEnd())
        malformed("the dictionary is not closed");
      if (peek() != '\'' && peek() != '"')
        malformed("expected a quoted key or '}' at offset " + std::to_string(pos_));
      std::string key = scanString();
      skipSpace();
      if (!consume(':'))
        malformed("expected ':' after the key '" + excerpt(key) + "'");
      skipSpace();
      std::string_view value = scanValue(key);
      if (!entries.emplace(key, value).second)
        malformed("the key '" + excerpt(key) + "' appears twice");
      skipSpace();
      if (atEnd())
        malformed("the dictionary is not closed");
      if (consume(','))
        continue;
      if (consume('}'))
        break;
      malformed("expected ',' or '}' after the value of '" + excerpt(key) + "'");
    }
    while (!atEnd()) {
      if (!isPythonSpace(peek()))
        malformed("unexpected text after the closing '}': '" + excerpt(text_.substr(pos_), 40) +
                  "'");
      ++pos_;
    }
    return entries;
  }

private:
  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  bool consume(char c) {
    if (atEnd() || peek() != c)
      return false;
    ++pos_;
    return true;
  }
  void skipSpace() {
    while (!atEnd() && isPythonSpace(peek()))
      ++pos_;
  }

  [[noreturn]] void malformed(const std::string& what) const {
    fail(name_, "malformed header: " + what + " (header: " + excerpt(text_) + ")");
  }

  // A quoted string without escapes (a dtype string or a key never needs one).
  std::string scanString() {
    char quote = text_[pos_++];
    std::size_t start = pos_;
    while (!atEnd() && peek() != quote) {
      if (peek() == '\\')
        malformed("escape sequences in header strings are not supported");
      ++pos_;
    }
    if (atEnd())
      malformed("a string is not closed");
    std::string value(text_.substr(start, pos_ - start));
    ++pos_;
    return value;
  }

  // The raw text of one value: a string, a bracketed expression (brackets balanced, strings
  // inside skipped), or a bare word or number.
  std::string_view scanValue(const std::string& key) {
    std::size_t start = pos_;
    if (atEnd())
      malformed("the dictionary is not closed");
    char first = peek();
    if (first == '\'' || first == '"') {
      scanString();
    } else if (first == '(' || first == '[' || first == '{') {
      std::string open; // the closing brackets still expected, innermost last
      do {
        char c = peek();
        if (c == '\'' || c == '"') {
          scanString();
          continue;
        }
        if (c == '(' || c == '[' || c == '{') {
          open += c == '(' ? ')' : c == '[' ? ']' : '}';
        } else if (c == ')' || c == ']' || c == '}') {
          if (open.back() != c)
            malformed(std::string("unbalanced '") + c + "' in the value of '" + excerpt(key) + "'");
          open.pop_back();
        }
        ++pos_;
      } while (!open.empty() && !atEnd());
      if (!open.empty())
        malformed("the dictionary is not closed");
    } else {
      while (!atEnd() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_' ||
                          peek() == '.' || peek() == '-' || peek() == '+'))
        ++pos_;
    }
    if (pos_ == start)
      malformed("the key '" + excerpt(key) + "' has no value");
    return text_.substr(start, pos_ - start);
  }

  std::string_view text_;
  std::string_view name_;
  std::size_t pos_ = 0;
};

void interpretDescr(std::string_view value, NpyHeader& header, std::string_view name) {
  if (value.front() == '[') {
    header.record = parseRecordDescr(value, name);
    header.dtype = Dtype::Record;
    header.swapBytes = false;
    return;
  }
  if (value.size() < 2 || (value.front() != '\'' && value.front() != '"') ||
      value.back() != value.front())
    fail(name, "malformed header: 'descr' is " + excerpt(value, 80) +
                   ", not a dtype string such as '<f4'");
  std::string_view descriptor = value.substr(1, value.size() - 2);
  // numpy's 'S<n>' and 'U<n>' (`|S12`, `<U12`; a one-byte order mark optional).
  std::string_view chars = descriptor;
  const char order =
      !chars.empty() && std::string_view("<>|=").find(chars[0]) != chars.npos ? chars[0] : '=';
  if (order != '=' || (!chars.empty() && chars[0] == '='))
    chars.remove_prefix(1);
  if (chars.size() > 1 && chars.size() < 9 && (chars[0] == 'S' || chars[0] == 'U') &&
      chars.substr(1).find_first_not_of("0123456789") == chars.npos && chars[1] != '0') {
    header.dtype = chars[0] == 'S' ? Dtype::Bytes : Dtype::Unicode;
    header.chars = std::stoll(std::string(chars.substr(1)));
    if (header.dtype == Dtype::Unicode && order == '>' &&
        std::endian::native == std::endian::little)
      fail(name, "unsupported dtype '" + excerpt(descriptor, 80) + "': big-endian unicode");
    header.swapBytes = false;
    return;
  }
  auto dtype = dtypeOfDescriptor(descriptor);
  if (!dtype)
    fail(name, "unsupported dtype '" + excerpt(descriptor, 80) + "' (" +
                   std::string(kSupportedDtypes) + ")");
  header.dtype = dtype->first;
  header.swapBytes = dtype->second;
}

void interpretFortranOrder(std::string_view value, NpyHeader& header, std::string_view name) {
  if (value == "True")
    header.fortranOrder = true;
  else if (value == "False")
    header.fortranOrder = false;
  else
    fail(name,
         "malformed header: 'fortran_order' is " + excerpt(value, 80) + ", not True or False");
}

void interpretShape(std::string_view value, NpyHeader& header, std::string_view name) {
  auto notTuple = [&](const std::string& why) {
    fail(name, "malformed header: 'shape' is " + excerpt(value, 80) +
                   ", not a tuple of non-negative integers (" + why + ")");
  };
  if (value.front() != '(' || value.back() != ')')
    notTuple("no parentheses");
  std::string_view inside = value.substr(1, value.size() - 2);
  std::size_t pos = 0;
  auto skipSpace = [&] {
    while (pos < inside.size() && isPythonSpace(inside[pos]))
      ++pos;
  };
  std::size_t commas = 0;
  skipSpace();
  while (pos < inside.size()) {
    if (inside[pos] == '-')
      fail(name, "malformed header: 'shape' " + excerpt(value, 80) + " has a negative extent");
    if (inside[pos] < '0' || inside[pos] > '9')
      notTuple("unexpected '" + excerpt(inside.substr(pos, 1)) + "'");
    std::int64_t extent = 0;
    while (pos < inside.size() && inside[pos] >= '0' && inside[pos] <= '9') {
      if (__builtin_mul_overflow(extent, 10, &extent) ||
          __builtin_add_overflow(extent, inside[pos] - '0', &extent))
        fail(name, "malformed header: 'shape' " + excerpt(value, 80) +
                       " has an extent that does not fit in 64 bits");
      ++pos;
    }
    if (pos < inside.size() && inside[pos] == 'L') // Python 2's long integers
      ++pos;
    header.shape.push_back(extent);
    if (header.shape.size() > kMaxNpyDimensions)
      fail(name, "the array has more than " + std::to_string(kMaxNpyDimensions) +
                     " dimensions (pyk reads at most " + std::to_string(kMaxNpyDimensions) + ")");
    skipSpace();
    if (pos == inside.size())
      break;
    if (inside[pos] != ',')
      notTuple("expected ',' after an extent");
    ++pos;
    ++commas;
    skipSpace();
  }
  if (header.shape.size() == 1 && commas == 0)
    notTuple("a one-element tuple needs a trailing comma");
}

// The byte count of the data, refusing shapes whose byte count does not fit in int64 (as numpy
// refuses them, even when an extent of 0 makes the array empty).
void computeDataBytes(NpyHeader& header, std::string_view name) {
  std::int64_t bytes =
      header.record != nullptr ? header.record->itemsize()
      : is_character_dtype(header.dtype)
          ? static_cast<std::int64_t>(character_itemsize(header.dtype, header.chars))
          : static_cast<std::int64_t>(dtype_itemsize(header.dtype));
  bool empty = false;
  for (std::int64_t extent : header.shape) {
    if (extent == 0) {
      empty = true;
      continue;
    }
    if (__builtin_mul_overflow(bytes, extent, &bytes))
      fail(name, "shape " + shapeText(header.shape) + " of " +
                     std::string(dtype_name(header.dtype)) +
                     " is too large: its byte count does not fit in 64 bits");
  }
  header.dataBytes = empty ? 0 : static_cast<std::uint64_t>(bytes);
}

} // namespace

NpyPreamble parseNpyPreamble(std::span<const std::byte> start, std::uint64_t fileSize,
                             std::string_view name) {
  if (start.size() < kMagicLength || std::memcmp(start.data(), kMagic, kMagicLength) != 0)
    fail(name, "not a .npy file (it does not start with \\x93NUMPY)");
  if (start.size() < kMagicLength + 2)
    fail(name, "truncated .npy file: it ends inside the format version");
  int major = std::to_integer<int>(start[kMagicLength]);
  int minor = std::to_integer<int>(start[kMagicLength + 1]);
  if (major < 1 || major > 3 || minor != 0)
    fail(name, "unsupported .npy format version " + std::to_string(major) + "." +
                   std::to_string(minor) + " (pyk reads 1.0, 2.0 and 3.0)");
  NpyPreamble preamble;
  preamble.majorVersion = major;
  std::size_t lengthBytes = major == 1 ? 2 : 4;
  preamble.headerOffset = kMagicLength + 2 + lengthBytes;
  if (start.size() < preamble.headerOffset)
    fail(name, "truncated .npy file: it ends inside the header length");
  preamble.headerLength = readLittleEndian(start.subspan(kMagicLength + 2, lengthBytes));
  if (preamble.headerLength > fileSize - preamble.headerOffset)
    fail(name, "truncated .npy file: the header is " + std::to_string(preamble.headerLength) +
                   " bytes long but the file has " +
                   std::to_string(fileSize - preamble.headerOffset) + " after the preamble");
  if (preamble.headerLength > kMaxHeaderLength)
    fail(name, "the header is " + std::to_string(preamble.headerLength) +
                   " bytes long, more than pyk's limit of " + std::to_string(kMaxHeaderLength));
  return preamble;
}

NpyHeader parseNpyHeaderDictionary(std::string_view dictionary, std::string_view name) {
  std::map<std::string, std::string_view> entries = DictionaryScanner(dictionary, name).scan();
  for (const auto& entry : entries)
    if (entry.first != "descr" && entry.first != "fortran_order" && entry.first != "shape")
      fail(name, "malformed header: unexpected key '" + excerpt(entry.first) +
                     "' (a .npy header has exactly 'descr', 'fortran_order' and 'shape')");
  for (const char* key : {"descr", "fortran_order", "shape"})
    if (!entries.count(key))
      fail(name, std::string("malformed header: no '") + key +
                     "' key (header: " + excerpt(dictionary) + ")");
  NpyHeader header;
  interpretDescr(entries["descr"], header, name);
  interpretFortranOrder(entries["fortran_order"], header, name);
  interpretShape(entries["shape"], header, name);
  computeDataBytes(header, name);
  return header;
}

std::string shapeText(std::span<const std::int64_t> shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0)
      text += ", ";
    text += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    text += ",";
  return text + ")";
}

std::vector<std::byte> formatNpyHeader(Dtype dtype, const RecordDtype* record, std::int64_t chars,
                                       std::span<const std::int64_t> shape) {
  std::string descriptor =
      record != nullptr ? recordDescr(*record)
      : is_character_dtype(dtype)
          ? std::string(dtype == Dtype::Unicode ? "'<U" : "'|S") + std::to_string(chars) + "'"
          : "'" + scalarDescr(dtype) + "'";
  // numpy's _write_array_header: sorted keys, repr'd values, then room for the first axis to
  // grow to GROWTH_AXIS_MAX_DIGITS digits in place.
  std::string dictionary =
      "{'descr': " + descriptor + ", 'fortran_order': False, 'shape': " + shapeText(shape) + ", }";
  if (!shape.empty())
    dictionary.append(kGrowthAxisMaxDigits - std::to_string(shape[0]).size(), ' ');
  // numpy's _wrap_header: pad with spaces, then a newline, to a multiple of ARRAY_ALIGN.
  std::size_t withNewline = dictionary.size() + 1;
  int major = 1;
  std::size_t lengthBytes = 2;
  auto padding = [&] {
    return kArrayAlignment - (kMagicLength + 2 + lengthBytes + withNewline) % kArrayAlignment;
  };
  if (withNewline + padding() > std::numeric_limits<std::uint16_t>::max()) {
    major = 2;
    lengthBytes = 4;
  }
  std::size_t headerLength = withNewline + padding();
  dictionary.append(padding(), ' ');
  dictionary += '\n';

  std::vector<std::byte> out;
  out.reserve(kMagicLength + 2 + lengthBytes + dictionary.size());
  for (char c : kMagic)
    out.push_back(static_cast<std::byte>(c));
  out.push_back(static_cast<std::byte>(major));
  out.push_back(std::byte{0});
  for (std::size_t i = 0; i < lengthBytes; ++i)
    out.push_back(static_cast<std::byte>((headerLength >> (8 * i)) & 0xff));
  for (char c : dictionary)
    out.push_back(static_cast<std::byte>(c));
  return out;
}

} // namespace pyk::npy
