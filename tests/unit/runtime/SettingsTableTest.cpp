// SettingsTableTest: every row of pyk/settings.def (its variable unique, empty keeping its
// default, a value its parser rejects an error naming its variable) and the parsers rows name
// (what each says it accepts, the messages' placeholders).
#include "pyk/error.hpp"
#include "pyk/settings.hpp"
#include "settings/SettingParsers.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

using pyk::RuntimeSettings;
namespace parsers = pyk::detail::setting_parsers;

// Every row's variable, in the table's order.
const std::vector<std::string>& tableVariables() {
  static const std::vector<std::string> names = {
#define PYK_SETTING(Variable, ...) Variable,
#include "pyk/settings.def"
  };
  return names;
}

// The settings an environment of exactly `variables` gives.
RuntimeSettings settingsGiven(const std::map<std::string, std::string>& variables) {
  return RuntimeSettings::from_environment([&](const char* name) -> std::optional<std::string> {
    auto it = variables.find(name);
    return it != variables.end() ? std::optional<std::string>(it->second) : std::nullopt;
  });
}

TEST(SettingsTable, EachVariableIsAPykVariableOnce) {
  std::set<std::string> seen;
  for (const std::string& name : tableVariables()) {
    EXPECT_EQ(name.rfind("PYK_", 0), 0u) << name;
    EXPECT_TRUE(seen.insert(name).second) << name << " twice";
  }
  EXPECT_EQ(seen.size(), 18u);
}

TEST(SettingsTable, AnEmptyVariableKeepsTheDefault) {
  std::map<std::string, std::string> empty = {{"HOME", "/home/someone"}};
  for (const std::string& name : tableVariables())
    empty[name] = "";
  const RuntimeSettings read = settingsGiven(empty);
  const RuntimeSettings defaults;
  // The cache folder's default is found in the environment (its fallbacks: RuntimeSettingsTest).
#define PYK_SETTING(Variable, Field, ...)                                                          \
  if (std::string(Variable) != "PYK_CACHE_DIR") {                                                  \
    EXPECT_TRUE(read.Field == defaults.Field) << Variable;                                         \
  }
#include "pyk/settings.def"
  EXPECT_EQ(read.cache_folder, "/home/someone/.cache/pyk");
}

TEST(SettingsTable, ARejectedValueIsAnErrorNamingItsVariable) {
  int rejecting = 0;
  for (const std::string& name : tableVariables()) {
    try {
      settingsGiven({{name, "\x7f?"}});
    } catch (const pyk::Error& error) {
      ++rejecting;
      EXPECT_NE(std::string(error.what()).find(name), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find("\x7f?"), std::string::npos) << error.what();
    }
  }
  EXPECT_EQ(rejecting, 11); // all but PYK_BOUNDSCHECK and the texts, paths and folders
}

TEST(SettingParsers, EachSaysWhatItAccepts) {
  enum class Mode { A, B, C };
  EXPECT_EQ(parsers::words<Mode>({{"a", Mode::A}}).accepted(), "`a`");
  EXPECT_EQ(parsers::words<Mode>({{"b", Mode::B}, {"a", Mode::A}}).accepted(), "`b` or `a`");
  EXPECT_EQ(parsers::words<Mode>({{"a", Mode::A}, {"b", Mode::B}, {"c", Mode::C}}).accepted(),
            "`a`, `b` or `c`");
  EXPECT_EQ(parsers::count("threads", 1, 4096).accepted(), "a count of threads from 1 to 4096");
  EXPECT_EQ(parsers::count("devices", 1, 8).orWord("numa", 0).accepted(),
            "`numa` or a count of devices from 1 to 8");
  EXPECT_EQ(parsers::byteSize(16 * 1024, std::size_t{1} << 30).accepted(),
            "a size in bytes (or with a K or M suffix) from 16K to 1024M");
  EXPECT_EQ(parsers::oneOrZero("do it").accepted(), "1 (do it) or 0");
}

TEST(SettingParsers, CountsAndSizesKeepToTheirRange) {
  const parsers::Count count = parsers::count("things", 2, 10).orWord("all", 0);
  EXPECT_EQ(count("2"), 2u);
  EXPECT_EQ(count("10"), 10u);
  EXPECT_EQ(count("all"), 0u);
  for (const char* bad : {"1", "11", "", "0x3", "+3", "99999999999999999999"})
    EXPECT_FALSE(count(bad).has_value()) << bad;
  const parsers::ByteSize size = parsers::byteSize(2048, 4 * 1024 * 1024);
  EXPECT_EQ(size("2K"), 2048u);
  EXPECT_EQ(size("4m"), 4u * 1024 * 1024);
  for (const char* bad : {"1K", "5M", "K", "2KB"})
    EXPECT_FALSE(size(bad).has_value()) << bad;
  EXPECT_EQ(parsers::byteCount()("18446744073709551615"), 18446744073709551615u);
  EXPECT_FALSE(parsers::byteCount()("18446744073709551616").has_value());
}

TEST(SettingParsers, MessagesFillTheirPlaceholders) {
  EXPECT_EQ(parsers::malformedMessage(parsers::mustBe.format, "PYK_X", "v", "`a` or `b`"),
            "`PYK_X` must be `a` or `b`, not `v`");
  EXPECT_EQ(parsers::malformedMessage("{variable}={value}, {value} {unknown}", "V", "{value}", ""),
            "V={value}, {value} {unknown}");
}

} // namespace
