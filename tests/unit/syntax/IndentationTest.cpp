// IndentationTest: INDENT/DEDENT from the lexer base, seen through the parser and the AST.
#include <gtest/gtest.h>

#include "ParseTestSupport.h"

namespace pyk::test {
namespace {

TEST(Indentation, NestedBlocksAndDedentToOuterLevel) {
  Parsed p("def f(a):\n"
           "    if a:\n"
           "        x = 1\n"
           "    return 2\n");
  ASSERT_TRUE(p.ok()) << p.errors();
  std::string ast = p.ast();
  EXPECT_NE(ast.find("body[0]: FunctionDef `f`"), std::string::npos) << ast;
  EXPECT_NE(ast.find("    body[1]: Return"), std::string::npos) << ast;
}

TEST(Indentation, TabsCountToNextMultipleOfEight) {
  // A tab and eight spaces are the same level when written consistently in one block.
  Parsed p("if x:\n\ty = 1\n\tz = 2\n");
  EXPECT_TRUE(p.ok()) << p.errors();
}

TEST(Indentation, InconsistentTabsAndSpacesAreAnError) {
  Parsed p("if x:\n        y = 1\n\tz = 2\n");
  EXPECT_FALSE(p.ok());
  EXPECT_EQ(p.first(), "3:2: inconsistent use of tabs and spaces in indentation");
}

TEST(Indentation, BlankAndCommentOnlyLinesDoNotCount) {
  Parsed p("if x:\n"
           "    y = 1\n"
           "\n"
           "# a comment at column 0\n"
           "        # a deeper comment\n"
           "    z = 2\n");
  ASSERT_TRUE(p.ok()) << p.errors();
  EXPECT_NE(p.ast().find("body[1]: Assign"), std::string::npos) << p.ast();
}

TEST(Indentation, BracketsSpanLinesWithoutIndentTokens) {
  Parsed p("x = foo(1,\n"
           "           2,\n"
           "  3)\n"
           "y = [\n"
           "1]\n");
  EXPECT_TRUE(p.ok()) << p.errors();
}

TEST(Indentation, BackslashContinuationJoinsLines) {
  Parsed p("x = 1 + \\\n    2\nif x and \\\n  y:\n    pass\n");
  EXPECT_TRUE(p.ok()) << p.errors();
}

TEST(Indentation, InconsistentDedentIsReported) {
  Parsed p("if x:\n"
           "    y = 1\n"
           "  z = 2\n");
  EXPECT_FALSE(p.ok());
  EXPECT_EQ(p.first(), "3:3: unindent does not match any outer indentation level");
}

TEST(Indentation, UnexpectedIndent) {
  Parsed p("x = 1\n    y = 2\n");
  EXPECT_FALSE(p.ok());
  EXPECT_EQ(p.first(), "2:5: unexpected indent");
}

TEST(Indentation, ExpectedIndentedBlock) {
  Parsed p("for i in range(3):\nx = 1\n");
  EXPECT_FALSE(p.ok());
  EXPECT_EQ(p.first(), "2:1: expected an indented block after `for` statement on line 1");
}

TEST(Indentation, NoTrailingNewlineAtEndOfFile) {
  Parsed p("def f():\n    return 1");
  EXPECT_TRUE(p.ok()) << p.errors();
}

TEST(Indentation, CrLfLineEndings) {
  Parsed p("if x:\r\n    y = 1\r\nz = 2\r\n");
  EXPECT_TRUE(p.ok()) << p.errors();
}

TEST(Indentation, TooManyLevelsIsAnErrorNotACrash) {
  std::string source;
  for (int i = 0; i < 150; ++i)
    source += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  source += std::string(150, ' ') + "pass\n";
  Parsed p(source);
  EXPECT_FALSE(p.ok());
  EXPECT_NE(p.first().find("too many levels of indentation"), std::string::npos) << p.first();
}

TEST(Indentation, EmptyFileAndOnlyComments) {
  EXPECT_TRUE(Parsed("").ok());
  EXPECT_TRUE(Parsed("# nothing\n\n   # here\n").ok());
  EXPECT_TRUE(Parsed("\n\n\n").ok());
}

} // namespace
} // namespace pyk::test
