// AstNodesTest: what is generated from AstNodes.def — the child traversal in source order, the
// helper structs looked through, a Dict's items pair by pair — and the dump's labels and data.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ParseTestSupport.h"

namespace pyk::test {
namespace {

// Each direct child of `n`: a Name by its id, a Constant by its spelling or string, any other node
// by its kind.
std::vector<std::string> childrenOf(ast::Node* n) {
  std::vector<std::string> out;
  ast::forEachChild(n, [&](ast::Node* child) {
    if (const auto* name = child->as<ast::Name>())
      out.push_back(name->id);
    else if (const auto* c = child->as<ast::Constant>())
      out.push_back(c->spelling.empty() ? c->strValue : c->spelling);
    else
      out.push_back(ast::nodeKindName(child->kind));
  });
  return out;
}

using ChildNames = std::vector<std::string>;

// Decorators come first, then the parameters' annotations, the defaults, the keyword-only
// defaults, the return annotation and the body.
TEST(AstNodes, AFunctionsChildrenComeInSourceOrder) {
  Parsed p("@d\nasync def f(a: A = 1, *, k: K = 2) -> R:\n    pass\n");
  ASSERT_TRUE(p.ok()) << p.errors();
  EXPECT_EQ(childrenOf(p.result.module->body[0]),
            (ChildNames{"d", "A", "K", "1", "2", "R", "Pass"}));
}

TEST(AstNodes, AClassesDecoratorsComeBeforeItsBasesAndKeywords) {
  Parsed p("@d\nclass C(B, metaclass=M):\n    pass\n");
  ASSERT_TRUE(p.ok()) << p.errors();
  EXPECT_EQ(childrenOf(p.result.module->body[0]), (ChildNames{"d", "B", "M", "Pass"}));
}

// A Dict's keys and values alternate; `**m` has no key.
TEST(AstNodes, ADictsItemsComePairByPair) {
  Parsed p("{1: a, **m, 2: b}\n");
  ASSERT_TRUE(p.ok()) << p.errors();
  ast::Node* dict = p.result.module->body[0]->as<ast::ExprStmt>()->value;
  EXPECT_EQ(childrenOf(dict), (ChildNames{"1", "a", "m", "2", "b"}));
}

TEST(AstNodes, HelperStructsAreLookedThrough) {
  Parsed p("with a as b, c:\n    pass\n[x for x in y if x]\n");
  ASSERT_TRUE(p.ok()) << p.errors();
  EXPECT_EQ(childrenOf(p.result.module->body[0]), (ChildNames{"a", "b", "c", "Pass"}));
  ast::Node* comprehension = p.result.module->body[1]->as<ast::ExprStmt>()->value;
  EXPECT_EQ(childrenOf(comprehension), (ChildNames{"x", "x", "y", "x"}));
}

// Labels from the field names (snake_case; a list's items singular), data after the kind.
TEST(AstNodes, TheDumpLabelsChildrenByTheirFieldsAndShowsData) {
  Parsed p("@d\nasync def f(k=1) -> R:\n    return f'{x!r:{w}}'\n");
  ASSERT_TRUE(p.ok()) << p.errors();
  EXPECT_EQ(p.ast(), "Module @1:1-4:1\n"
                     "  body[0]: FunctionDef async `f` @2:1-3:24\n"
                     "    decorator[0]: Name `d` Load @1:2-1:3\n"
                     "    arg[0]: arg `k` @2:13-2:14\n"
                     "    default[0]: Constant int 1 @2:15-2:16\n"
                     "    returns: Name `R` Load @2:21-2:22\n"
                     "    body[0]: Return @3:5-3:24\n"
                     "      value: JoinedStr @3:12-3:24\n"
                     "        value[0]: FormattedValue conversion=r @3:14-3:23\n"
                     "          value: Name `x` Load @3:15-3:16\n"
                     "          format_spec: JoinedStr @3:19-3:22\n"
                     "            value[0]: FormattedValue @3:19-3:22\n"
                     "              value: Name `w` Load @3:20-3:21\n");
}

} // namespace
} // namespace pyk::test
