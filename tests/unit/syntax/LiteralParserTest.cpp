// LiteralParserTest: number values, string prefixes and escape decoding.
#include <gtest/gtest.h>

#include <cmath>

#include "syntax/LiteralParser.h"

namespace pyk::syntax {
namespace {

TEST(LiteralParser, IntegersOfEveryBase) {
  EXPECT_EQ(parseIntegerLiteral("0").value, 0);
  EXPECT_EQ(parseIntegerLiteral("1_000_000").value, 1000000);
  EXPECT_EQ(parseIntegerLiteral("0x_FF").value, 255);
  EXPECT_EQ(parseIntegerLiteral("0o777").value, 511);
  EXPECT_EQ(parseIntegerLiteral("0B1010").value, 10);
  EXPECT_EQ(parseIntegerLiteral("9223372036854775808").value,
            static_cast<__int128>(9223372036854775807LL) + 1);
  EXPECT_FALSE(parseIntegerLiteral("170141183460469231731687303715884105727").tooLarge);
  EXPECT_TRUE(parseIntegerLiteral("170141183460469231731687303715884105728").tooLarge);
  EXPECT_TRUE(parseIntegerLiteral("0x" + std::string(40, 'f')).tooLarge);
}

TEST(LiteralParser, Floats) {
  EXPECT_DOUBLE_EQ(parseFloatLiteral("1.5"), 1.5);
  EXPECT_DOUBLE_EQ(parseFloatLiteral(".5"), 0.5);
  EXPECT_DOUBLE_EQ(parseFloatLiteral("1_0.2_5e-1_0"), 10.25e-10);
  EXPECT_DOUBLE_EQ(parseFloatLiteral("3j"), 3.0);
  EXPECT_TRUE(std::isinf(parseFloatLiteral("1e400")));
}

TEST(LiteralParser, StringPrefixesAndQuotes) {
  StringLiteralParts p = splitStringLiteral("rb'''a'b'''");
  EXPECT_TRUE(p.raw);
  EXPECT_TRUE(p.bytes);
  EXPECT_TRUE(p.triple);
  EXPECT_EQ(p.body, "a'b");
  EXPECT_EQ(p.bodyOffset, 5u);
  p = splitStringLiteral("F\"x\"");
  EXPECT_TRUE(p.formatted);
  EXPECT_FALSE(p.triple);
  EXPECT_EQ(p.body, "x");
  p = splitStringLiteral("''");
  EXPECT_EQ(p.body, "");
  EXPECT_FALSE(p.triple);
}

TEST(LiteralParser, Escapes) {
  std::vector<LiteralError> errors;
  EXPECT_EQ(decodeEscapes(R"(a\n\t\\\'\x41\101\u00e9\U0001F600)", false, errors),
            "a\n\t\\'AA\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(decodeEscapes(R"(\q\N{DASH})", false, errors), R"(\q\N{DASH})");
  EXPECT_EQ(decodeEscapes("a\\\nb", false, errors), "ab");
  EXPECT_EQ(decodeEscapes(R"(\xff\u1234)", true, errors), std::string("\xff\\u1234"));
  EXPECT_TRUE(errors.empty());
}

TEST(LiteralParser, EscapeErrors) {
  std::vector<LiteralError> errors;
  decodeEscapes(R"(ab\x4)", false, errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].offset, 2u);
  EXPECT_EQ(errors[0].message, "truncated `\\x` escape");
  errors.clear();
  decodeEscapes(R"(\U00110000)", false, errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "illegal Unicode character");
  errors.clear();
  decodeEscapes("caf\xC3\xA9", true, errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "bytes can only contain ASCII literal characters");
}

} // namespace
} // namespace pyk::syntax
