// SettingsFromEnvironment: RuntimeSettings parsed from the PYK_* environment variables (and
// XDG_CACHE_HOME, HOME for the cache folder): each row of pyk/settings.def read with its parser,
// in the table's order. A malformed value is a pyk::Error naming its variable; an unset or empty
// variable keeps the default.
#include <cstdlib>
#include <string>

#include "pyk/settings.hpp"
#include "settings/SettingParsers.h"

namespace pyk {

namespace {

// Every setting of `s` that `variable` gives.
void readSettings(RuntimeSettings& s, const detail::setting_parsers::Lookup& variable) {
  using namespace detail::setting_parsers;
#define PYK_SETTING(Variable, Field, Type, Default, Parser, Malformed, ...)                        \
  readSetting(s.Field, Variable, variable, Parser, Malformed);
#include "pyk/settings.def"
}

} // namespace

RuntimeSettings RuntimeSettings::from_environment() {
  return from_environment([](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
  });
}

RuntimeSettings RuntimeSettings::from_environment(
    const std::function<std::optional<std::string>(const char* name)>& variable) {
  RuntimeSettings s;
  // "" when unset or empty (both keep the default).
  readSettings(s, [&](const char* name) { return variable(name).value_or(""); });
  return s;
}

} // namespace pyk
