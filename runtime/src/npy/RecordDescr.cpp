// RecordDescr: numpy's descriptor of a structured dtype (dtype.descr, as .npy headers hold it),
// parsed into a RecordDtype and written from one.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "npy/DtypeDescriptor.h"
#include "npy/NpyHeader.h"
#include "pyk/error.hpp"

namespace pyk::npy {

namespace {

// A structured dtype's descriptor, numpy's dtype.descr: `[('s0', '<u8'), ('', '|V7'), ...]`, each
// field a (name, descriptor) or (name, descriptor, shape) tuple at the offset where the previous
// one ended; the descriptor a scalar ('<f4'), characters ('|S12', '<U12') or a nested list (a
// nested record); a shape makes a sub-array; unnamed '|Vn' entries are padding. Titles,
// big-endian fields and sub-arrays of records are refused by name.
class RecordDescrParser {
public:
  RecordDescrParser(std::string_view text, std::string_view name) : text_(text), name_(name) {}

  std::shared_ptr<const RecordDtype> parse() {
    std::shared_ptr<const RecordDtype> record = list(0);
    skipSpaces();
    if (at_ != text_.size())
      malformed();
    return record;
  }

private:
  static constexpr int kMaxNesting = 16;

  // One `[...]` list of fields.
  std::shared_ptr<const RecordDtype> list(int depth) {
    if (depth > kMaxNesting)
      unsupported("records nested more than " + std::to_string(kMaxNesting) + " deep");
    expect('[');
    std::vector<RecordField> fields;
    std::int64_t offset = 0;
    skipSpaces();
    while (peek() != ']') {
      expect('(');
      skipSpaces();
      if (peek() == '(')
        unsupported("a field with a title");
      std::string fieldName = quoted("a field name");
      expect(',');
      skipSpaces();
      RecordField f;
      f.name = fieldName;
      f.offset = offset;
      std::string descriptor;
      if (peek() == '[') {
        f.dtype = Dtype::Record;
        f.record = list(depth + 1);
      } else {
        descriptor = quoted("a field's dtype");
      }
      skipSpaces();
      if (peek() == ',') {
        ++at_;
        skipSpaces();
        if (peek() != ')')
          f.shape = shape(fieldName);
      }
      expect(')');
      if (fieldName.empty() && f.record == nullptr && f.shape.empty()) {
        offset += paddingBytes(descriptor);
      } else {
        if (fieldName.empty())
          unsupported("an unnamed field");
        if (f.record == nullptr)
          item(descriptor, f);
        if (f.record != nullptr && !f.shape.empty())
          unsupported("the sub-array of records '" + fieldName + "' (numba has no type for it)");
        if (f.bytes() > (std::int64_t{1} << 40))
          unsupported("the field '" + fieldName + "' of " + std::to_string(f.bytes()) + " bytes");
        offset += f.bytes();
        fields.push_back(std::move(f));
      }
      skipSpaces();
      if (peek() == ',') {
        ++at_;
        skipSpaces();
      } else if (peek() != ']') {
        malformed();
      }
    }
    ++at_;
    try {
      return std::make_shared<const RecordDtype>(std::move(fields), offset, false);
    } catch (const Error& e) {
      fail(name_, "unsupported structured dtype " + excerpt(text_, 80) + ": " + e.what());
    }
  }

  // A field's scalar or character descriptor, into `f`.
  void item(const std::string& descriptor, RecordField& f) {
    std::string_view d = descriptor;
    char order = '=';
    if (!d.empty() && std::string_view("<>|=").find(d[0]) != std::string_view::npos) {
      order = d[0];
      d.remove_prefix(1);
    }
    if (!d.empty() && (d[0] == 'S' || d[0] == 'U')) {
      std::int64_t n = 0;
      bool digits = d.size() > 1 && d.size() < 12;
      for (std::size_t i = 1; digits && i < d.size(); ++i) {
        digits = d[i] >= '0' && d[i] <= '9';
        n = n * 10 + (d[i] - '0');
      }
      if (digits && n > 0) {
        const bool unicode = d[0] == 'U';
        if (unicode && order == '>' && std::endian::native == std::endian::little)
          unsupported("the big-endian field '" + f.name + "'");
        f.chars = unicode ? FieldChars::Unicode : FieldChars::Bytes;
        f.dtype = unicode ? Dtype::UInt32 : Dtype::UInt8;
        f.length = n;
        return;
      }
    }
    auto dtype = dtypeOfDescriptor(descriptor);
    // (a datetime64 field: numba types it as NPDatetime, which pyk's records do not hold yet)
    if (!dtype || is_datetime_dtype(dtype->first) || is_timedelta_dtype(dtype->first))
      unsupported("the field '" + f.name + "' of dtype '" + excerpt(descriptor, 40) + "'");
    if (dtype->second)
      unsupported("the big-endian field '" + f.name + "'");
    f.dtype = dtype->first;
  }

  // A sub-array's shape: `(3, 2)`, `(5,)` or a bare integer.
  std::vector<std::int64_t> shape(const std::string& fieldName) {
    std::vector<std::int64_t> out;
    const bool tuple = peek() == '(';
    if (tuple)
      ++at_;
    skipSpaces();
    while (peek() >= '0' && peek() <= '9') {
      std::int64_t extent = 0;
      while (peek() >= '0' && peek() <= '9') {
        if (extent > (std::int64_t{1} << 40))
          unsupported("the sub-array field '" + fieldName + "' of a huge shape");
        extent = extent * 10 + (peek() - '0');
        ++at_;
      }
      out.push_back(extent);
      if (out.size() > 32)
        unsupported("the sub-array field '" + fieldName + "' of more than 32 dimensions");
      skipSpaces();
      if (!tuple)
        break;
      if (peek() == ',') {
        ++at_;
        skipSpaces();
      }
    }
    if (tuple)
      expect(')');
    if (out.empty() && !tuple)
      malformed();
    return out;
  }

  char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
  void skipSpaces() {
    while (at_ < text_.size() && isPythonSpace(text_[at_]))
      ++at_;
  }
  void expect(char c) {
    skipSpaces();
    if (peek() != c)
      malformed();
    ++at_;
  }
  std::string quoted(const char* what) {
    skipSpaces();
    const char quote = peek();
    if (quote != '\'' && quote != '"')
      fail(name_, "malformed structured dtype " + excerpt(text_, 80) + ": expected " + what +
                      " in quotes");
    const size_t end = text_.find(quote, at_ + 1);
    if (end == std::string_view::npos)
      malformed();
    std::string out(text_.substr(at_ + 1, end - at_ - 1));
    at_ = end + 1;
    return out;
  }
  // The size of an unnamed padding entry, '|V7'.
  std::int64_t paddingBytes(std::string_view descriptor) {
    if (descriptor.size() < 3 || descriptor.substr(0, 2) != "|V")
      unsupported("an unnamed field of dtype '" + excerpt(descriptor, 40) + "'");
    std::int64_t bytes = 0;
    for (char c : descriptor.substr(2)) {
      if (c < '0' || c > '9' || bytes > (std::int64_t{1} << 40))
        unsupported("the padding '" + excerpt(descriptor, 40) + "'");
      bytes = bytes * 10 + (c - '0');
    }
    return bytes;
  }
  [[noreturn]] void malformed() {
    fail(name_, "malformed header: 'descr' is " + excerpt(text_, 80) +
                    ", not a list of (name, dtype) fields");
  }
  [[noreturn]] void unsupported(const std::string& what) {
    fail(name_, "unsupported structured dtype " + excerpt(text_, 80) + ": " + what);
  }

  std::string_view text_;
  std::string_view name_;
  size_t at_ = 0;
};

} // namespace

std::shared_ptr<const RecordDtype> parseRecordDescr(std::string_view text, std::string_view name) {
  return RecordDescrParser(text, name).parse();
}

std::string recordDescr(const RecordDtype& record) {
  std::vector<RecordField> fields = record.fields();
  std::sort(fields.begin(), fields.end(),
            [](const RecordField& a, const RecordField& b) { return a.offset < b.offset; });
  std::string out = "[";
  std::int64_t offset = 0;
  auto entry = [&](const std::string& name, const std::string& descriptor,
                   const std::vector<std::int64_t>& shape) {
    out += (out.size() > 1 ? ", ('" : "('") + name + "', " + descriptor +
           (shape.empty() ? "" : ", " + shapeText(shape)) + ")";
  };
  auto pad = [&](std::int64_t to) {
    if (to > offset)
      entry("", "'|V" + std::to_string(to - offset) + "'", {});
  };
  for (const RecordField& f : fields) {
    pad(f.offset);
    std::string descriptor;
    if (f.chars == FieldChars::Bytes)
      descriptor = "'|S" + std::to_string(f.length) + "'";
    else if (f.chars == FieldChars::Unicode)
      descriptor = "'<U" + std::to_string(f.length) + "'";
    else if (f.record != nullptr)
      descriptor = recordDescr(*f.record);
    else
      descriptor = "'" + scalarDescr(f.dtype) + "'";
    entry(f.name, descriptor, f.shape);
    offset = f.offset + f.bytes();
  }
  pad(record.itemsize());
  return out + "]";
}

} // namespace pyk::npy
