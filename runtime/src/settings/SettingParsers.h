// SettingParsers: the parsers pyk/settings.def's rows name, each implemented once: how a
// variable's text becomes a setting's value, how each says what it accepts (for the error
// message), what a rejected value throws, and readSetting, which reads one row's variable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "pyk/error.hpp"

namespace pyk::detail::setting_parsers {

// The environment as the parsers read it: a variable's value, "" when unset or empty.
using Lookup = std::function<std::string(const char* name)>;

// A decimal count from `min` to `max` (PYK_CPU_THREADS), or a word standing for a value
// (PYK_CPU_DEVICES=numa).
class Count {
public:
  Count(const char* noun, unsigned min, unsigned max) : noun_(noun), min_(min), max_(max) {}
  // This parser, also taking `word` for `value`.
  Count orWord(const char* word, unsigned value) const;
  std::optional<unsigned> operator()(const std::string& text) const;
  std::string accepted() const;

private:
  const char* noun_;
  unsigned min_, max_;
  const char* word_ = nullptr;
  unsigned wordValue_ = 0;
};
inline Count count(const char* noun, unsigned min, unsigned max) {
  return Count(noun, min, max);
}

// A size in bytes from `min` to `max`, or in KiB or MiB with a K or M suffix (either case).
class ByteSize {
public:
  ByteSize(std::size_t min, std::size_t max) : min_(min), max_(max) {}
  std::optional<std::size_t> operator()(const std::string& text) const;
  std::string accepted() const;

private:
  std::size_t min_, max_;
};
inline ByteSize byteSize(std::size_t min, std::size_t max) {
  return ByteSize(min, max);
}

// A decimal count of bytes, any that 64 bits hold.
struct ByteCount {
  std::optional<std::uint64_t> operator()(const std::string& text) const;
  std::string accepted() const { return "a number of bytes"; }
};
inline ByteCount byteCount() {
  return {};
}

// One of a fixed set of words, each standing for a value of `Enum`; accepted() lists them in the
// order given.
template <typename Enum>
class Words {
public:
  explicit Words(std::initializer_list<std::pair<const char*, Enum>> list) : words_(list) {}
  std::optional<Enum> operator()(const std::string& text) const {
    for (const auto& [word, value] : words_)
      if (text == word)
        return value;
    return std::nullopt;
  }
  std::string accepted() const {
    std::string out;
    for (std::size_t i = 0; i < words_.size(); ++i) {
      if (i > 0)
        out += i + 1 == words_.size() ? " or " : ", ";
      out += "`" + std::string(words_[i].first) + "`";
    }
    return out;
  }

private:
  std::vector<std::pair<const char*, Enum>> words_;
};
template <typename Enum>
Words<Enum> words(std::initializer_list<std::pair<const char*, Enum>> list) {
  return Words<Enum>(list);
}

// `1` (on: `meaning`) or `0` (off).
class OneOrZero {
public:
  explicit OneOrZero(const char* meaning) : meaning_(meaning) {}
  std::optional<bool> operator()(const std::string& text) const;
  std::string accepted() const { return "1 (" + std::string(meaning_) + ") or 0"; }

private:
  const char* meaning_;
};
inline OneOrZero oneOrZero(const char* meaning) {
  return OneOrZero(meaning);
}

// Off for `0`, on for any other text.
struct OffWhenZero {
  bool operator()(const std::string& text) const { return text != "0"; }
};
inline OffWhenZero offWhenZero() {
  return {};
}

// The text as it is: a name, a library, a command.
struct Text {
  std::string operator()(const std::string& text) const { return text; }
};
inline Text text() {
  return {};
}

// A file or folder, as given.
struct FilePath {
  std::filesystem::path operator()(const std::string& text) const { return text; }
};
inline FilePath filePath() {
  return {};
}

// The disk cache's folder: as given; when unset, $XDG_CACHE_HOME/pyk when absolute (as the XDG
// spec requires), else $HOME/.cache/pyk (HOME from the password database when unset), else none.
struct CacheFolder {
  std::filesystem::path operator()(const std::string& text) const { return text; }
  std::filesystem::path fallback(const Lookup& variable) const;
};
inline CacheFolder cacheFolder() {
  return {};
}

// What a value its parser rejects throws: a pyk::Error of `kind` whose message is `format` with
// {variable}, {value} and {accepted} (the parser's accepted()) replaced.
struct Malformed {
  ErrorKind kind;
  const char* format;
};
inline constexpr Malformed mustBe{ErrorKind::InvalidArgument,
                                  "`{variable}` must be {accepted}, not `{value}`"};
constexpr Malformed invalid(const char* format) {
  return {ErrorKind::InvalidArgument, format};
}
constexpr Malformed cacheError(const char* format) {
  return {ErrorKind::Cache, format};
}
// The Malformed column of a row whose parser accepts every text.
struct AnyValue {};
inline constexpr AnyValue anyValue{};

// `format` with its {variable}, {value} and {accepted} replaced.
std::string malformedMessage(std::string_view format, const char* variable,
                             const std::string& value, const std::string& accepted);

// `field` from `variable` through `parser`: kept when the variable is unset or empty (or the
// parser's fallback then), else what the parser makes of it; a rejected value throws `malformed`.
template <typename T, typename Parser>
void readSetting(T& field, const char* variable, const Lookup& lookup, const Parser& parser,
                 const Malformed& malformed) {
  static_assert(std::is_same_v<std::invoke_result_t<Parser, std::string>, std::optional<T>>,
                "the row's parser makes a value of another type than its field's");
  const std::string text = lookup(variable);
  if (text.empty()) {
    if constexpr (requires { parser.fallback(lookup); })
      field = parser.fallback(lookup);
    return;
  }
  std::optional<T> value = parser(text);
  if (!value)
    throw Error(malformed.kind,
                malformedMessage(malformed.format, variable, text, parser.accepted()));
  field = std::move(*value);
}

template <typename T, typename Parser>
void readSetting(T& field, const char* variable, const Lookup& lookup, const Parser& parser,
                 AnyValue) {
  static_assert(std::is_same_v<std::invoke_result_t<Parser, std::string>, T>,
                "anyValue needs a parser that accepts every text and makes the field's type");
  const std::string text = lookup(variable);
  if (text.empty()) {
    if constexpr (requires { parser.fallback(lookup); })
      field = parser.fallback(lookup);
    return;
  }
  field = parser(text);
}

} // namespace pyk::detail::setting_parsers
