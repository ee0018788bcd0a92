// GufuncLayoutTest: guvectorize layout strings.
#include <gtest/gtest.h>

#include "base/GufuncLayout.h"

namespace pyk::sema {
namespace {

std::string parsedLayout(const std::string& text) {
  GufuncLayoutError error;
  std::optional<GufuncLayout> layout = parseGufuncLayout(text, error);
  return layout ? layout->spelling() : std::to_string(error.offset) + ": " + error.message;
}

TEST(GufuncLayout, Valid) {
  EXPECT_EQ(parsedLayout("(m,n),(n,p)->(m,p)"), "(m,n),(n,p)->(m,p)");
  EXPECT_EQ(parsedLayout(" ( n ) , ( ) -> ( n ) "), "(n),()->(n)");
  EXPECT_EQ(parsedLayout("(n)->()"), "(n)->()");
  EXPECT_EQ(parsedLayout("(n),(n)->(n),(n)"), "(n),(n)->(n),(n)");
  EXPECT_EQ(parsedLayout("(3)->(3)"), "(3)->(3)");
  GufuncLayoutError error;
  std::optional<GufuncLayout> layout = parseGufuncLayout("(m,n),(n,p)->(m,p)", error);
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->operandCount(), 3u);
  EXPECT_EQ(layout->operand(2), (std::vector<std::string>{"m", "p"}));
}

TEST(GufuncLayout, Invalid) {
  EXPECT_EQ(parsedLayout("(n)"), "3: expected `->`");
  EXPECT_EQ(parsedLayout("(n->(n)"), "2: expected `,` or `)`");
  EXPECT_EQ(parsedLayout("(n,)->(n)"), "3: expected a dimension name");
  EXPECT_EQ(parsedLayout("n->n"), "0: expected `(`");
  EXPECT_EQ(parsedLayout("(n)->(n) x"), "9: unexpected text after the outputs");
  EXPECT_EQ(parsedLayout("(n)->"), "5: expected `(`");
  // numba's "undefined output symbols": an output's size must come from the inputs.
  EXPECT_EQ(parsedLayout("(n),(n)->(n, m)"),
            "13: the output dimension `m` is no input's dimension");
  EXPECT_EQ(parsedLayout("(m)->(m, 2)"), "(m)->(m,2)");
}

} // namespace
} // namespace pyk::sema
