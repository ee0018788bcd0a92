// FStringParserTest: literal text, replacement fields, conversions, specs and their errors.
#include <gtest/gtest.h>

#include "syntax/FStringParser.h"

namespace pyk::syntax {
namespace {

std::vector<FStringPart> parse(std::string_view body,
                               std::vector<LiteralError>* errorsOut = nullptr) {
  std::vector<FStringPart> parts;
  std::vector<LiteralError> errors;
  parseFString(body, false, parts, errors);
  if (errorsOut != nullptr)
    *errorsOut = errors;
  return parts;
}

TEST(FStringParser, LiteralsAndFields) {
  auto parts = parse("Time: {t / n:.2f}s {{ok}}");
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].literal, "Time: ");
  EXPECT_TRUE(parts[1].isField);
  EXPECT_EQ(parts[1].expression, "t / n");
  EXPECT_EQ(parts[1].expressionOffset, 7u);
  ASSERT_TRUE(parts[1].hasFormatSpec);
  ASSERT_EQ(parts[1].formatSpec.size(), 1u);
  EXPECT_EQ(parts[1].formatSpec[0].literal, ".2f");
  EXPECT_EQ(parts[2].literal, "s {ok}");
}

TEST(FStringParser, ConversionsSelfDocumentingAndNestedSpecs) {
  auto parts = parse("{x!r}{y = }{z:{w}.{p}}{a != b}{d['k']}");
  ASSERT_EQ(parts.size(), 5u);
  EXPECT_EQ(parts[0].conversion, 'r');
  EXPECT_EQ(parts[1].selfDocumenting, "y = ");
  EXPECT_EQ(parts[1].conversion, 'r');
  ASSERT_EQ(parts[2].formatSpec.size(), 3u);
  EXPECT_TRUE(parts[2].formatSpec[0].isField);
  EXPECT_EQ(parts[2].formatSpec[0].expression, "w");
  EXPECT_EQ(parts[2].formatSpec[1].literal, ".");
  EXPECT_EQ(parts[3].expression, "a != b");
  EXPECT_EQ(parts[4].expression, "d['k']");
}

TEST(FStringParser, Errors) {
  std::vector<LiteralError> errors;
  parse("a } b", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "single `}` is not allowed");
  EXPECT_EQ(errors[0].offset, 2u);
  parse("{}", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "empty expression not allowed");
  parse("{x!z}", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "invalid conversion character: expected `s`, `r` or `a`");
  parse("{x", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "expecting `}`");
  parse("{a\\n}", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "expression part cannot include a backslash");
  parse("{x:{y:{z}}}", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "expressions nested too deeply");
}

} // namespace
} // namespace pyk::syntax
