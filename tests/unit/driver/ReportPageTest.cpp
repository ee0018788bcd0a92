// ReportPage's helpers: generated lines mapped to the source lines their `#line` directives name,
// and the line diff the index32 section shows.
#include "driver/ReportPage.h"

#include <gtest/gtest.h>

namespace {

using pyk::driver::diffLines;
using pyk::driver::mapGeneratedLines;

TEST(ReportPage, GeneratedLinesTakeTheLineOfTheLastDirectiveOfTheirFile) {
  const std::string unit = "// head\n"
                           "#line 12 \"k.pyk\"\n"
                           "int a;\n"
                           "int b;\n"
                           "#line 3 \"other.pyk\"\n"
                           "int c;\n"
                           "#line 14 \"k.pyk\"\n"
                           "int d;\n";
  const auto lines = mapGeneratedLines(unit, {"k.pyk"});
  ASSERT_EQ(lines.size(), 5u); // the directives dropped
  EXPECT_EQ(lines[0].text, "// head");
  EXPECT_EQ(lines[0].sourceLine, 0u);
  EXPECT_EQ(lines[1].sourceLine, 12u);
  EXPECT_EQ(lines[2].sourceLine, 12u); // one statement's several lines
  EXPECT_EQ(lines[3].sourceLine, 0u);  // a file not listed
  EXPECT_EQ(lines[4].text, "int d;");
  EXPECT_EQ(lines[4].sourceLine, 14u);
  const auto both = mapGeneratedLines(unit, {"k.pyk", "other.pyk"});
  EXPECT_EQ(both[3].file, 1u);
  EXPECT_EQ(both[3].sourceLine, 3u);
  EXPECT_EQ(both[4].file, 0u);
}

TEST(ReportPage, ADirectivesFileNameIsUnescaped) {
  const auto lines =
      mapGeneratedLines("#line 7 \"dir\\\\a \\\"b\\\".pyk\"\nx;\n", {"dir\\a \"b\".pyk"});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].sourceLine, 7u);
}

TEST(ReportPage, TheDiffKeepsCommonLinesAndMarksTheOthers) {
  const auto diff = diffLines({"a", "b", "c", "d", "e"}, {"a", "x", "c", "d", "y", "e"});
  const std::vector<std::pair<char, std::string>> expected = {
      {' ', "a"}, {'+', "x"}, {'-', "b"}, {' ', "c"}, {' ', "d"}, {'+', "y"}, {' ', "e"}};
  EXPECT_EQ(diff, expected);
  EXPECT_EQ(diffLines({}, {"a"}), (std::vector<std::pair<char, std::string>>{{'+', "a"}}));
  EXPECT_EQ(diffLines({"a"}, {}), (std::vector<std::pair<char, std::string>>{{'-', "a"}}));
  EXPECT_EQ(diffLines({"a", "a"}, {"a"}),
            (std::vector<std::pair<char, std::string>>{{' ', "a"}, {'-', "a"}}));
}

} // namespace
