// SettingParsers: the parsers of the settings' variables that are not templates, the cache
// folder's fallbacks, and the messages of rejected values.
#include "settings/SettingParsers.h"

#include <pwd.h>
#include <unistd.h>

namespace pyk::detail::setting_parsers {

namespace {

// A decimal count; false when `text` is empty, has other characters, or exceeds `limit`.
bool parseCount(const std::string& text, unsigned long long limit, unsigned long long& count) {
  if (text.empty() || text.size() > 19)
    return false;
  count = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    count = count * 10 + static_cast<unsigned long long>(c - '0');
  }
  return count <= limit;
}

// `bytes` as the settings write sizes: 16K, 1024M.
std::string sizeText(std::size_t bytes) {
  if (bytes != 0 && bytes % (1024 * 1024) == 0)
    return std::to_string(bytes / (1024 * 1024)) + "M";
  if (bytes != 0 && bytes % 1024 == 0)
    return std::to_string(bytes / 1024) + "K";
  return std::to_string(bytes);
}

std::string homeFromPasswordDatabase() {
  std::vector<char> buffer(16384);
  struct passwd entry {};
  struct passwd* found = nullptr;
  if (::getpwuid_r(::geteuid(), &entry, buffer.data(), buffer.size(), &found) != 0 || !found ||
      !found->pw_dir)
    return "";
  return found->pw_dir;
}

} // namespace

Count Count::orWord(const char* word, unsigned value) const {
  Count out = *this;
  out.word_ = word;
  out.wordValue_ = value;
  return out;
}

std::optional<unsigned> Count::operator()(const std::string& text) const {
  if (word_ != nullptr && text == word_)
    return wordValue_;
  unsigned long long count = 0;
  if (!parseCount(text, max_, count) || count < min_)
    return std::nullopt;
  return static_cast<unsigned>(count);
}

std::string Count::accepted() const {
  return (word_ != nullptr ? "`" + std::string(word_) + "` or " : std::string()) + "a count of " +
         noun_ + " from " + std::to_string(min_) + " to " + std::to_string(max_);
}

std::optional<std::size_t> ByteSize::operator()(const std::string& text) const {
  std::string digits = text;
  unsigned long long scale = 1;
  if (!digits.empty() && (digits.back() == 'K' || digits.back() == 'k')) {
    scale = 1024;
    digits.pop_back();
  } else if (!digits.empty() && (digits.back() == 'M' || digits.back() == 'm')) {
    scale = 1024 * 1024;
    digits.pop_back();
  }
  unsigned long long count = 0;
  if (!parseCount(digits, max_ / scale, count) || count * scale < min_)
    return std::nullopt;
  return static_cast<std::size_t>(count * scale);
}

std::string ByteSize::accepted() const {
  return "a size in bytes (or with a K or M suffix) from " + sizeText(min_) + " to " +
         sizeText(max_);
}

std::optional<std::uint64_t> ByteCount::operator()(const std::string& text) const {
  std::uint64_t bytes = 0;
  for (char c : text) {
    if (c < '0' || c > '9' || __builtin_mul_overflow(bytes, 10, &bytes) ||
        __builtin_add_overflow(bytes, static_cast<std::uint64_t>(c - '0'), &bytes))
      return std::nullopt;
  }
  return bytes;
}

std::optional<bool> OneOrZero::operator()(const std::string& text) const {
  if (text != "0" && text != "1")
    return std::nullopt;
  return text == "1";
}

std::filesystem::path CacheFolder::fallback(const Lookup& variable) const {
  if (const std::string xdg = variable("XDG_CACHE_HOME"); !xdg.empty() && xdg.front() == '/')
    return std::filesystem::path(xdg) / "pyk";
  std::string home = variable("HOME");
  if (home.empty())
    home = homeFromPasswordDatabase();
  if (home.empty())
    return {};
  return std::filesystem::path(home) / ".cache" / "pyk";
}

std::string malformedMessage(std::string_view format, const char* variable,
                             const std::string& value, const std::string& accepted) {
  const std::pair<std::string_view, std::string_view> fields[] = {
      {"{variable}", variable}, {"{value}", value}, {"{accepted}", accepted}};
  std::string out;
  for (std::size_t i = 0; i < format.size();) {
    bool replaced = false;
    for (const auto& [name, text] : fields)
      if (format.substr(i, name.size()) == name) {
        out += text;
        i += name.size();
        replaced = true;
        break;
      }
    if (!replaced)
      out += format[i++];
  }
  return out;
}

} // namespace pyk::detail::setting_parsers
