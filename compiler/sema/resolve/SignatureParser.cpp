// SignatureParser: numba's signature strings (`void(float32[:, ::1], int64)`) parsed into types,
// and numba's repr of a record type (`Record(x[type=float32;offset=0];4;False)`), which is how pyk
// spells one. Kept whole because it is one recursive-descent parser sharing its token state.
#include "sema/resolve/SignatureParser.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "sema/resolve/SpellingSuggestion.h"

namespace pyk::sema {

namespace {

struct Token {
  enum class Kind { Name, Integer, String, Punct, End };
  Kind kind = Kind::End;
  std::string_view text;
  size_t offset = 0;
};

// The parse stops at the first error: every parse function returns false once it reported one.
class SignatureTextParser {
public:
  SignatureTextParser(std::string_view text, const StringLiteralLocation& where,
                      DiagnosticEngine& diags)
      : text_(text), where_(where), diags_(diags) {
    advance();
  }

  std::optional<FunctionSignature> parseFunction() {
    FunctionSignature signature;
    if (isPunct("(")) {
      // `(args...)`, or a parenthesised return type when a call follows.
      Token open = token_;
      std::vector<NumbaType> types;
      bool trailingComma = false;
      if (!parseTypeList(types, trailingComma, /*allowVoid=*/false))
        return std::nullopt;
      if (!expectPunct(")"))
        return std::nullopt;
      if (types.size() == 1 && !trailingComma && !isPunct("(")) {
        std::string inner(text_.substr(open.offset + 1, lastEnd_ - open.offset - 2));
        report(DiagKind::SignatureSingleTypeInParens, open.offset, lastEnd_ - open.offset,
               {trimmed(inner)});
        return std::nullopt;
      }
      if (types.size() == 1 && !trailingComma) {
        signature.returnType = types[0];
        if (!parseArguments(signature.params))
          return std::nullopt;
      } else {
        signature.params = std::move(types);
      }
    } else {
      size_t start = token_.offset;
      std::optional<NumbaType> returnType = parseType(/*allowVoid=*/true);
      if (!returnType)
        return std::nullopt;
      if (!isPunct("(")) {
        if (token_.kind == Token::Kind::End) {
          std::string spelled(text_.substr(start, lastEnd_ - start));
          report(DiagKind::SignatureNotAFunctionType, start, lastEnd_ - start, {spelled});
        } else {
          expected("`(`");
        }
        return std::nullopt;
      }
      signature.returnType = *returnType;
      if (!parseArguments(signature.params))
        return std::nullopt;
    }
    if (token_.kind != Token::Kind::End) {
      report(DiagKind::SignatureTrailingText, token_.offset, text_.size() - token_.offset,
             {std::string(text_.substr(token_.offset))});
      return std::nullopt;
    }
    return signature;
  }

  std::optional<NumbaType> parseLoneType() {
    std::optional<NumbaType> type = parseType(/*allowVoid=*/false);
    if (!type)
      return std::nullopt;
    if (token_.kind != Token::Kind::End) {
      report(DiagKind::SignatureTrailingText, token_.offset, text_.size() - token_.offset,
             {std::string(text_.substr(token_.offset))});
      return std::nullopt;
    }
    return type;
  }

private:
  // `(` types `)` after a return type.
  bool parseArguments(std::vector<NumbaType>& params) {
    bool trailingComma = false;
    if (!parseTypeList(params, trailingComma, /*allowVoid=*/false))
      return false;
    return expectPunct(")");
  }

  // Types separated by commas up to (not including) `)`; the opening `(` is consumed here.
  bool parseTypeList(std::vector<NumbaType>& types, bool& trailingComma, bool allowVoid) {
    if (!expectPunct("("))
      return false;
    while (!isPunct(")")) {
      std::optional<NumbaType> type = parseType(allowVoid);
      if (!type)
        return false;
      types.push_back(*type);
      trailingComma = false;
      if (isPunct(",")) {
        advance();
        trailingComma = true;
        continue;
      }
      if (!isPunct(")")) {
        expected("`,` or `)`");
        return false;
      }
    }
    // Leave `)` for the caller, so that it can tell where the list ends.
    return true;
  }

  std::optional<NumbaType> parseType(bool allowVoid) {
    // Every nesting (parentheses, tuples, arrays of records...) comes back here: bounded, so that
    // a hostile signature cannot overflow the stack (found by the signature fuzzer).
    if (depth_ >= kMaxTypeDepth) {
      report(DiagKind::SignatureNestedTooDeeply, token_.offset, token_.text.size(),
             {std::to_string(kMaxTypeDepth)});
      return std::nullopt;
    }
    ++depth_;
    std::optional<NumbaType> type = parseTypeAtDepth(allowVoid);
    --depth_;
    return type;
  }

  std::optional<NumbaType> parseTypeAtDepth(bool allowVoid) {
    if (isPunct("(")) {
      advance();
      std::optional<NumbaType> inner = parseType(allowVoid);
      if (!inner || !expectPunct(")"))
        return std::nullopt;
      return inner;
    }
    if (token_.kind != Token::Kind::Name) {
      expected("a type");
      return std::nullopt;
    }
    Token name = token_;
    advance();
    if (name.text == "UniTuple")
      return parseUniTuple();
    if (name.text == "Tuple")
      return parseTuple();
    if (name.text == "Array")
      return parseArrayCall();
    if (name.text == "Record") {
      std::optional<RecordLayout> layout = parseRecord(name.offset);
      if (!layout)
        return std::nullopt;
      NumbaType record = NumbaType::record(std::move(*layout));
      return itemOrArray(record);
    }
    if (name.text == "NPDatetime" || name.text == "NPTimedelta") {
      // numba.types' NPDatetime('D') / NPTimedelta('ms') ('' for the unit-less one).
      if (!expectPunct("("))
        return std::nullopt;
      std::optional<DatetimeUnit> unit;
      if (token_.kind == Token::Kind::String)
        unit = datetimeUnitNamed(token_.text.substr(1, token_.text.size() - 2));
      if (!unit) {
        expected("a datetime64 unit string ('Y', 'M', 'W', 'D', 'h', 'm', 's', 'ms', 'us', "
                 "'ns', 'ps', 'fs', 'as' or '')");
        return std::nullopt;
      }
      advance();
      if (!expectPunct(")"))
        return std::nullopt;
      const NumbaType item =
          name.text == "NPDatetime" ? NumbaType::datetime(*unit) : NumbaType::timedelta(*unit);
      return itemOrArray(item);
    }
    if (name.text == "CharSeq" || name.text == "UnicodeCharSeq") {
      // numba.types' CharSeq(12) / UnicodeCharSeq(12): an item of a numpy 'S12' / 'U12' array.
      if (!expectPunct("("))
        return std::nullopt;
      constexpr int kMaxChars = 1 << 20; // as record fields: an item of at most 1 MiB
      if (token_.kind != Token::Kind::Integer || token_.text.size() > 7 ||
          std::stoi(std::string(token_.text)) < 1 ||
          std::stoi(std::string(token_.text)) > kMaxChars) {
        expected("a character count from 1 to " + std::to_string(kMaxChars));
        return std::nullopt;
      }
      const int count = std::stoi(std::string(token_.text));
      advance();
      if (!expectPunct(")"))
        return std::nullopt;
      const NumbaType item = NumbaType::charSeq(count, name.text == "UnicodeCharSeq");
      return itemOrArray(item);
    }
    if (name.text == "CPointer") {
      // numba.types' CPointer(float32): a raw pointer to scalars (numba's repr `float32*`).
      if (!expectPunct("("))
        return std::nullopt;
      std::optional<ScalarKind> pointee;
      if (token_.kind == Token::Kind::Name)
        pointee = scalarKindNamed(token_.text);
      if (!pointee) {
        expected("the scalar type it points to (`CPointer(float32)`)");
        return std::nullopt;
      }
      advance();
      if (!expectPunct(")"))
        return std::nullopt;
      return NumbaType::pointer(*pointee);
    }
    if (isVoidTypeName(name.text)) {
      if (!allowVoid || isPunct("[")) {
        report(DiagKind::SignatureVoidNotReturn, name.offset, name.text.size(),
               {std::string(name.text)});
        return std::nullopt;
      }
      return NumbaType::voidType();
    }
    std::optional<ScalarKind> scalar = scalarKindNamed(name.text);
    if (!scalar) {
      report(DiagKind::SignatureUnknownType, name.offset, name.text.size(),
             {std::string(name.text)});
      std::vector<std::string> candidates = numbaTypeNames();
      candidates.insert(candidates.end(), {"UniTuple", "Tuple", "Array", "NPDatetime",
                                           "NPTimedelta", "CharSeq", "UnicodeCharSeq", "CPointer"});
      if (std::optional<std::string> guess = closestSpelling(name.text, candidates))
        diags_.note(DiagKind::NoteDidYouMean, where_.rangeOf(name.offset, name.text.size()),
                    {*guess});
      return std::nullopt;
    }
    if (!isPunct("["))
      return NumbaType::scalar(*scalar);
    return parseArraySlices(*scalar);
  }

  // An item type (a record, a datetime64, a character sequence) alone, or an array of it when
  // `[` dims `]` follow.
  std::optional<NumbaType> itemOrArray(const NumbaType& item) {
    if (!isPunct("["))
      return item;
    std::optional<NumbaType> shape = parseArraySlices(ScalarKind::UInt8);
    if (!shape)
      return std::nullopt;
    return NumbaType::arrayOf(item, shape->ndim(), shape->layout());
  }

  // `[` dims `]` after a dtype: each dim `:` or `::1` (also `::` and `:,`).
  std::optional<NumbaType> parseArraySlices(ScalarKind dtype) {
    size_t open = token_.offset;
    advance();
    std::vector<size_t> contiguousOffsets; // offsets of the dims written `::1`
    std::vector<bool> contiguous;
    while (true) {
      size_t dimStart = token_.offset;
      if (!isPunct(":")) {
        reportBadDimension(dimStart);
        return std::nullopt;
      }
      advance();
      bool isContiguous = false;
      if (isPunct(":")) {
        advance();
        if (token_.kind == Token::Kind::Integer) {
          if (token_.text != "1") {
            reportBadDimension(dimStart);
            return std::nullopt;
          }
          isContiguous = true;
          advance();
        }
      }
      if (!isPunct(",") && !isPunct("]")) {
        reportBadDimension(dimStart);
        return std::nullopt;
      }
      contiguous.push_back(isContiguous);
      if (isContiguous)
        contiguousOffsets.push_back(dimStart);
      if (isPunct("]"))
        break;
      advance();
      if (isPunct("]")) // a trailing comma
        break;
    }
    size_t close = token_.offset;
    advance();
    int ndim = static_cast<int>(contiguous.size());
    if (ndim > NumbaType::kMaxArrayDims) {
      report(DiagKind::SignatureTooManyDimensions, open, close + 1 - open,
             {std::to_string(NumbaType::kMaxArrayDims), std::to_string(ndim)});
      return std::nullopt;
    }
    if (contiguousOffsets.size() > 1) {
      report(DiagKind::SignatureContiguousTwice, contiguousOffsets[1], 3, {});
      return std::nullopt;
    }
    ArrayLayout layout = ArrayLayout::A;
    if (contiguous.back())
      layout = ArrayLayout::C;
    else if (contiguous.front())
      layout = ArrayLayout::F;
    else if (!contiguousOffsets.empty()) {
      report(DiagKind::SignatureContiguousMiddle, contiguousOffsets[0], 3, {});
      return std::nullopt;
    }
    return NumbaType::array(dtype, ndim, layout);
  }

  void reportBadDimension(size_t dimStart) {
    size_t end = dimStart;
    int depth = 0;
    while (end < text_.size()) {
      char c = text_[end];
      if (depth == 0 && (c == ',' || c == ']'))
        break;
      if (c == '[' || c == '(')
        ++depth;
      if ((c == ']' || c == ')') && --depth < 0)
        break;
      ++end;
    }
    if (end == dimStart) {
      expected("`:` or `::1`");
      return;
    }
    report(DiagKind::SignatureBadArrayDimension, dimStart, end - dimStart,
           {trimmed(std::string(text_.substr(dimStart, end - dimStart)))});
  }

  // numba's repr of a record type (what NumbaType::spelling() writes for one):
  // `Record(x[type=float32;offset=0],y[type=nestedarray(int16, (2, 3));offset=4];16;False)`,
  // fields of a scalar, a nested Record, a sub-array or `[char x N]` / `[unichr x N]`; checked
  // to fit: each field inside the item, the item no larger than 1 MiB.
  std::optional<RecordLayout> parseRecord(size_t start) {
    RecordLayout layout;
    if (!expectPunct("("))
      return std::nullopt;
    while (!isPunct(";")) {
      if (!layout.fields.empty() && !expectPunct(","))
        return std::nullopt;
      if (token_.kind != Token::Kind::Name) {
        expected("a field name");
        return std::nullopt;
      }
      RecordField field;
      field.name = std::string(token_.text);
      advance();
      if (!expectPunct("[") || !expectWord("type") || !expectPunct("=") || !parseField(field) ||
          !expectPunct(";") || !expectWord("offset") || !expectPunct("="))
        return std::nullopt;
      std::optional<int64_t> offset = parseSize();
      if (!offset || !expectPunct("]"))
        return std::nullopt;
      field.offset = *offset;
      if (layout.field(field.name) != nullptr) {
        badRecord(start, "the field `" + field.name + "` is given twice");
        return std::nullopt;
      }
      layout.fields.push_back(std::move(field));
    }
    advance();
    std::optional<int64_t> size = parseSize();
    if (!size || !expectPunct(";"))
      return std::nullopt;
    layout.size = *size;
    if (token_.kind != Token::Kind::Name || (token_.text != "True" && token_.text != "False")) {
      expected("`True` or `False` (aligned)");
      return std::nullopt;
    }
    layout.aligned = token_.text == "True";
    advance();
    if (!expectPunct(")"))
      return std::nullopt;
    if (layout.fields.empty() || layout.size < 1) {
      badRecord(start, "a record has at least one field and one byte");
      return std::nullopt;
    }
    for (const RecordField& f : layout.fields) {
      int64_t end = f.itemBytes(); // each factor at most 2**20: stop before it could overflow
      for (size_t d = 0; d < f.shape.size() && end <= layout.size; ++d)
        end *= f.shape[d];
      if (f.offset + end > layout.size) {
        badRecord(start, "the field `" + f.name + "` ends past the record's " +
                             std::to_string(layout.size) + " bytes");
        return std::nullopt;
      }
    }
    return layout;
  }

  // A field's type: a scalar, `Record(...)`, `nestedarray(ITEM, (d, ...))`, `[char x N]`,
  // `[unichr x N]`.
  bool parseField(RecordField& field) {
    if (isPunct("[")) {
      advance();
      if (token_.kind != Token::Kind::Name || (token_.text != "char" && token_.text != "unichr")) {
        expected("`char` or `unichr`");
        return false;
      }
      field.kind = token_.text == "char" ? FieldKind::Bytes : FieldKind::Unicode;
      advance();
      if (!expectWord("x"))
        return false;
      std::optional<int64_t> length = parseSize();
      if (!length || *length < 1)
        return length ? (expected("a length of at least 1"), false) : false;
      field.length = *length;
      return expectPunct("]");
    }
    if (token_.kind != Token::Kind::Name) {
      expected("a field type");
      return false;
    }
    const Token name = token_;
    advance();
    if (name.text == "nestedarray") {
      if (!expectPunct("(") || !parseField(field) || !expectPunct(",") || !expectPunct("("))
        return false;
      while (!isPunct(")")) {
        std::optional<int64_t> extent = parseSize();
        if (!extent || *extent < 1)
          return extent ? (expected("an extent of at least 1"), false) : false;
        field.shape.push_back(*extent);
        if (isPunct(","))
          advance();
        else if (!isPunct(")"))
          return expectPunct(")");
      }
      advance();
      return !field.shape.empty() ? expectPunct(")") : (expected("a sub-array shape"), false);
    }
    if (name.text == "Record") {
      std::optional<RecordLayout> nested = parseRecord(name.offset);
      if (!nested)
        return false;
      field.kind = FieldKind::Record;
      field.record = std::make_shared<const RecordLayout>(std::move(*nested));
      return true;
    }
    // numba's repr names boolean `bool` in a record.
    std::optional<ScalarKind> scalar =
        name.text == "bool" ? ScalarKind::Boolean : scalarKindNamed(name.text);
    if (!scalar) {
      report(DiagKind::SignatureUnknownType, name.offset, name.text.size(),
             {std::string(name.text)});
      return false;
    }
    field.kind = FieldKind::Scalar;
    field.type = *scalar;
    return true;
  }

  // A byte count or an extent: 0 to 2**20.
  std::optional<int64_t> parseSize() {
    if (token_.kind != Token::Kind::Integer || token_.text.size() > 7 ||
        std::stoll(std::string(token_.text)) > (int64_t{1} << 20)) {
      expected("a count from 0 to 1048576");
      return std::nullopt;
    }
    const int64_t value = std::stoll(std::string(token_.text));
    advance();
    return value;
  }

  bool expectWord(std::string_view word) {
    if (token_.kind != Token::Kind::Name || token_.text != word) {
      expected("`" + std::string(word) + "`");
      return false;
    }
    advance();
    return true;
  }

  void badRecord(size_t start, const std::string& why) {
    report(DiagKind::SignatureBadRecord, start, std::max<size_t>(lastEnd_ - start, 1), {why});
  }

  // `UniTuple(` type `,` count `)`.
  std::optional<NumbaType> parseUniTuple() {
    if (!expectPunct("("))
      return std::nullopt;
    std::optional<NumbaType> element = parseType(/*allowVoid=*/false);
    if (!element || !expectPunct(","))
      return std::nullopt;
    const size_t countOffset = token_.offset;
    std::optional<int> count = parseCount(DiagKind::SignatureBadTupleCount, 1 << 16);
    if (!count)
      return std::nullopt;
    // Tuples of tuples multiply: bounded in all, or a short signature could ask for 2^64 values.
    const uint64_t values = valuesIn(*element) * static_cast<uint64_t>(*count);
    if (values > kMaxTupleValues) {
      report(DiagKind::SignatureTupleTooLarge, countOffset, lastEnd_ - countOffset,
             {std::to_string(values), std::to_string(kMaxTupleValues)});
      return std::nullopt;
    }
    if (isPunct(","))
      advance();
    if (!expectPunct(")"))
      return std::nullopt;
    return NumbaType::uniTuple(*element, *count);
  }

  // The values a type holds, tuples flattened (a tuple's elements, recursively; 1 otherwise),
  // saturated past the limit.
  static uint64_t valuesIn(const NumbaType& type) {
    if (!type.isTuple())
      return 1;
    uint64_t values = 0;
    for (const NumbaType& element : type.elements())
      values = std::min<uint64_t>(values + valuesIn(element), kMaxTupleValues + 1);
    return values;
  }

  // `Tuple((` types `))` as numba spells it, or `Tuple(` types `)`.
  std::optional<NumbaType> parseTuple() {
    if (!expectPunct("("))
      return std::nullopt;
    std::vector<NumbaType> elements;
    bool trailingComma = false;
    if (isPunct("(")) {
      if (!parseTypeList(elements, trailingComma, /*allowVoid=*/false) || !expectPunct(")"))
        return std::nullopt;
      if (isPunct(","))
        advance();
      if (!expectPunct(")"))
        return std::nullopt;
      return NumbaType::tuple(std::move(elements));
    }
    while (!isPunct(")")) {
      std::optional<NumbaType> type = parseType(/*allowVoid=*/false);
      if (!type)
        return std::nullopt;
      elements.push_back(*type);
      if (isPunct(",")) {
        advance();
        continue;
      }
      if (!isPunct(")")) {
        expected("`,` or `)`");
        return std::nullopt;
      }
    }
    advance();
    return NumbaType::tuple(std::move(elements));
  }

  // `Array(` dtype `,` ndim `,` 'C'|'F'|'A' `)`.
  std::optional<NumbaType> parseArrayCall() {
    if (!expectPunct("("))
      return std::nullopt;
    Token dtypeToken = token_;
    std::optional<NumbaType> dtype = parseType(/*allowVoid=*/false);
    if (!dtype)
      return std::nullopt;
    if (!dtype->isScalar() && !dtype->isRecord() && !dtype->isDatetimeLike() &&
        !dtype->isCharSeq()) {
      expectedAt(dtypeToken,
                 "a scalar, datetime64, timedelta64, character sequence or record element type");
      return std::nullopt;
    }
    if (!expectPunct(","))
      return std::nullopt;
    Token ndimToken = token_;
    // numba's Array(T, 0, 'C') is a 0-d array (what typeof gives np.array(1.0)); the subscript
    // spelling has no 0-d form in numba either (float64[()] raises there).
    std::optional<int> ndim =
        parseCount(DiagKind::SignatureExpected, NumbaType::kMaxArrayDims, /*lowest=*/0);
    if (!ndim)
      return std::nullopt;
    if (!expectPunct(","))
      return std::nullopt;
    if (token_.kind != Token::Kind::String) {
      expected("a layout string 'C', 'F' or 'A'");
      return std::nullopt;
    }
    std::string_view layoutText = token_.text.substr(1, token_.text.size() - 2);
    ArrayLayout layout;
    if (layoutText == "C")
      layout = ArrayLayout::C;
    else if (layoutText == "F")
      layout = ArrayLayout::F;
    else if (layoutText == "A")
      layout = ArrayLayout::A;
    else {
      report(DiagKind::SignatureBadArrayLayout, token_.offset, token_.text.size(),
             {std::string(token_.text)});
      return std::nullopt;
    }
    advance();
    if (!expectPunct(")"))
      return std::nullopt;
    (void)ndimToken;
    return NumbaType::arrayOf(*dtype, *ndim, layout);
  }

  // An integer from `lowest` to `limit`.
  std::optional<int> parseCount(DiagKind kind, int limit, int lowest = 1) {
    if (token_.kind != Token::Kind::Integer || token_.text.size() > 6 ||
        std::stoi(std::string(token_.text)) < lowest ||
        std::stoi(std::string(token_.text)) > limit) {
      if (kind == DiagKind::SignatureExpected)
        expected("a dimension count from " + std::to_string(lowest) + " to " +
                 std::to_string(limit));
      else
        report(kind, token_.offset, std::max<size_t>(token_.text.size(), 1),
               {std::to_string(limit)});
      return std::nullopt;
    }
    int value = std::stoi(std::string(token_.text));
    advance();
    return value;
  }

  bool isPunct(std::string_view p) const {
    return token_.kind == Token::Kind::Punct && token_.text == p;
  }

  bool expectPunct(std::string_view p) {
    if (!isPunct(p)) {
      expected("`" + std::string(p) + "`");
      return false;
    }
    advance();
    return true;
  }

  void expected(const std::string& what) { expectedAt(token_, what); }

  void expectedAt(const Token& at, const std::string& what) {
    report(DiagKind::SignatureExpected, at.offset, at.kind == Token::Kind::End ? 0 : at.text.size(),
           {what});
  }

  void report(DiagKind kind, size_t offset, size_t length,
              std::initializer_list<std::string> args) {
    diags_.report(kind, where_.rangeOf(offset, length), args);
  }

  static std::string trimmed(std::string s) {
    size_t b = s.find_first_not_of(" \t");
    size_t e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  }

  void advance() {
    lastEnd_ = token_.offset + token_.text.size();
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
    token_ = Token{Token::Kind::End, {}, pos_};
    if (pos_ >= text_.size())
      return;
    size_t start = pos_;
    char c = text_[pos_];
    auto isNameChar = [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' ||
             static_cast<unsigned char>(ch) >= 0x80;
    };
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
        static_cast<unsigned char>(c) >= 0x80) {
      // Dotted names (`np.float32`) are one token, so that they are reported whole.
      while (pos_ < text_.size() &&
             (isNameChar(text_[pos_]) ||
              (text_[pos_] == '.' && pos_ + 1 < text_.size() && isNameChar(text_[pos_ + 1]))))
        ++pos_;
      token_ = Token{Token::Kind::Name, text_.substr(start, pos_ - start), start};
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_])))
        ++pos_;
      token_ = Token{Token::Kind::Integer, text_.substr(start, pos_ - start), start};
      for (char d : token_.text)
        if (!std::isdigit(static_cast<unsigned char>(d)))
          token_.kind = Token::Kind::Punct; // e.g. `1x`: reported as unexpected
    } else if (c == '\'' || c == '"') {
      ++pos_;
      while (pos_ < text_.size() && text_[pos_] != c)
        ++pos_;
      if (pos_ < text_.size())
        ++pos_;
      token_ = Token{Token::Kind::String, text_.substr(start, pos_ - start), start};
      if (token_.text.size() < 2 || token_.text.back() != c)
        token_.kind = Token::Kind::Punct;
    } else {
      // One character of ASCII punctuation (bytes from 0x80 up start names, above): a byte
      // after it starts the next token, so `(\xa7` is `(` and a name, as its spelling reads
      // back (the signature fuzzer found the two told apart).
      ++pos_;
      token_ = Token{Token::Kind::Punct, text_.substr(start, 1), start};
    }
  }

  std::string_view text_;
  const StringLiteralLocation& where_;
  DiagnosticEngine& diags_;
  size_t pos_ = 0;
  size_t lastEnd_ = 0; // end offset of the previous token
  Token token_;
  static constexpr int kMaxTypeDepth = 64;
  static constexpr uint64_t kMaxTupleValues = 1 << 16;
  int depth_ = 0;
};

} // namespace

std::optional<FunctionSignature>
parseSignature(std::string_view text, const StringLiteralLocation& where, DiagnosticEngine& diags) {
  return SignatureTextParser(text, where, diags).parseFunction();
}

std::optional<NumbaType> parseTypeSpelling(std::string_view text,
                                           const StringLiteralLocation& where,
                                           DiagnosticEngine& diags) {
  return SignatureTextParser(text, where, diags).parseLoneType();
}

} // namespace pyk::sema
