// GufuncLayout: a `guvectorize` layout string such as `(m,n),(n,p)->(m,p)`: the core dimensions
// of each input and output operand.
#include "base/GufuncLayout.h"

#include <cctype>

namespace pyk::types {

namespace {

std::string operandSpelling(const std::vector<std::string>& dims) {
  std::string out = "(";
  for (size_t i = 0; i < dims.size(); ++i)
    out += (i ? "," : "") + dims[i];
  return out + ")";
}

class LayoutParser {
public:
  LayoutParser(std::string_view text, GufuncLayoutError& error) : text_(text), error_(error) {}

  std::optional<GufuncLayout> parse() {
    GufuncLayout layout;
    if (!parseOperands(layout.inputs))
      return std::nullopt;
    skipSpace();
    if (text_.substr(pos_, 2) != "->")
      return fail("expected `->`");
    pos_ += 2;
    skipSpace();
    const size_t outputsStart = pos_;
    if (!parseOperands(layout.outputs))
      return std::nullopt;
    skipSpace();
    if (pos_ != text_.size())
      return fail("unexpected text after the outputs");
    // As numba: an output's core dimension must be an input's (or a number), so that a call can
    // size its outputs from its inputs.
    for (const std::vector<std::string>& output : layout.outputs)
      for (const std::string& dim : output) {
        if (std::isdigit(static_cast<unsigned char>(dim[0])) || inputsName(layout, dim))
          continue;
        error_.message = "the output dimension `" + dim + "` is no input's dimension";
        error_.offset = wordOffset(dim, outputsStart);
        return std::nullopt;
      }
    return layout;
  }

private:
  static bool inputsName(const GufuncLayout& layout, const std::string& dim) {
    for (const std::vector<std::string>& input : layout.inputs)
      for (const std::string& d : input)
        if (d == dim)
          return true;
    return false;
  }

  // Where the name `word` stands on its own in the text from `from`.
  size_t wordOffset(const std::string& word, size_t from) const {
    auto isName = [&](size_t i) {
      return i < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[i])) || text_[i] == '_');
    };
    for (size_t at = text_.find(word, from); at != std::string_view::npos;
         at = text_.find(word, at + 1))
      if (!isName(at + word.size()) && (at == 0 || !isName(at - 1)))
        return at;
    return from;
  }

  bool parseOperands(std::vector<std::vector<std::string>>& operands) {
    while (true) {
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '(') {
        fail("expected `(`");
        return false;
      }
      ++pos_;
      std::vector<std::string> dims;
      skipSpace();
      while (pos_ < text_.size() && text_[pos_] != ')') {
        size_t start = pos_;
        while (pos_ < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
          ++pos_;
        if (pos_ == start) {
          fail("expected a dimension name");
          return false;
        }
        dims.emplace_back(text_.substr(start, pos_ - start));
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          skipSpace();
          if (pos_ < text_.size() && text_[pos_] == ')') {
            fail("expected a dimension name");
            return false;
          }
        } else if (pos_ < text_.size() && text_[pos_] != ')') {
          fail("expected `,` or `)`");
          return false;
        }
      }
      if (pos_ >= text_.size()) {
        fail("expected `)`");
        return false;
      }
      ++pos_;
      operands.push_back(std::move(dims));
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      return true;
    }
  }

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }

  std::nullopt_t fail(std::string message) {
    error_.message = std::move(message);
    error_.offset = pos_;
    return std::nullopt;
  }

  std::string_view text_;
  GufuncLayoutError& error_;
  size_t pos_ = 0;
};

} // namespace

std::string GufuncLayout::spelling() const {
  std::string out;
  for (size_t i = 0; i < inputs.size(); ++i)
    out += (i ? "," : "") + operandSpelling(inputs[i]);
  out += "->";
  for (size_t i = 0; i < outputs.size(); ++i)
    out += (i ? "," : "") + operandSpelling(outputs[i]);
  return out;
}

std::optional<GufuncLayout> parseGufuncLayout(std::string_view text, GufuncLayoutError& error) {
  return LayoutParser(text, error).parse();
}

} // namespace pyk::types
