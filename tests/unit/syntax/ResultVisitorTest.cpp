// ResultVisitorTest: ExprVisitor and StmtVisitor reach the overload of each node's own kind, fall
// back to visitExpr / visitStmt for the kinds a visitor does not handle, and pass extra arguments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ParseTestSupport.h"
#include "syntax/ResultVisitor.h"

namespace pyk::test {
namespace {

using namespace pyk::ast;

// Handles every expression kind with an overload of its own that names the kind it was given.
struct EveryExprKind : ExprVisitor<EveryExprKind, std::string> {
#define PYK_TEST_EXPR_Node(Name)
#define PYK_TEST_EXPR_Stmt(Name)
#define PYK_TEST_EXPR_Pattern(Name)
#define PYK_TEST_EXPR_Expr(Name)                                                                   \
  std::string visit##Name(const Name*) {                                                           \
    return #Name;                                                                                  \
  }
#define AST_NODE(Name, Base, Fields) PYK_TEST_EXPR_##Base(Name)
#include "syntax/AstNodes.def"
  std::string visitExpr(const Expr*) {
    return "fallback";
  }
};

// The same for statements.
struct EveryStmtKind : StmtVisitor<EveryStmtKind, std::string> {
#define PYK_TEST_STMT_Node(Name)
#define PYK_TEST_STMT_Expr(Name)
#define PYK_TEST_STMT_Pattern(Name)
#define PYK_TEST_STMT_Stmt(Name)                                                                   \
  std::string visit##Name(const Name*) {                                                           \
    return #Name;                                                                                  \
  }
#define AST_NODE(Name, Base, Fields) PYK_TEST_STMT_##Base(Name)
#include "syntax/AstNodes.def"
  std::string visitStmt(const Stmt*) {
    return "fallback";
  }
};

// Handles no kind: everything reaches the fallback.
struct OnlyFallback : ExprVisitor<OnlyFallback, std::string> {
  std::string visitExpr(const Expr* e) { return std::string("fallback ") + nodeKindName(e->kind); }
};

// Handles no kind and has no fallback of its own: the base's returns R().
struct NoOverloads : ExprVisitor<NoOverloads, int> {};

// How many node kinds of a family AstNodes.def lists, counted by the family's classof.
template <class Family>
int kindsOf() {
  int count = 0;
#define AST_NODE(Name, Base, Fields)                                                               \
  {                                                                                                \
    Node probe(NodeKind::Name);                                                                    \
    count += Family::classof(&probe) ? 1 : 0;                                                      \
  }
#include "syntax/AstNodes.def"
  return count;
}

#define PYK_TEST_MAKE_Node(Name)
#define PYK_TEST_MAKE_Pattern(Name)

TEST(ResultVisitor, EachExpressionKindReachesItsOwnOverload) {
  AstContext ctx;
  int kinds = 0;
#define PYK_TEST_MAKE_Stmt(Name)
#define PYK_TEST_MAKE_Expr(Name)                                                                   \
  {                                                                                                \
    const Expr* e = ctx.make<Name>();                                                              \
    EXPECT_EQ(EveryExprKind().visit(e), #Name);                                                    \
    EXPECT_EQ(OnlyFallback().visit(e), "fallback " #Name);                                         \
    EXPECT_EQ(NoOverloads().visit(e), 0);                                                          \
    ++kinds;                                                                                       \
  }
#define AST_NODE(Name, Base, Fields) PYK_TEST_MAKE_##Base(Name)
#include "syntax/AstNodes.def"
#undef PYK_TEST_MAKE_Expr
#undef PYK_TEST_MAKE_Stmt
  EXPECT_EQ(kinds, kindsOf<Expr>());
  EXPECT_GT(kinds, 20);
}

TEST(ResultVisitor, EachStatementKindReachesItsOwnOverload) {
  AstContext ctx;
  int kinds = 0;
#define PYK_TEST_MAKE_Expr(Name)
#define PYK_TEST_MAKE_Stmt(Name)                                                                   \
  {                                                                                                \
    const Stmt* s = ctx.make<Name>();                                                              \
    EXPECT_EQ(EveryStmtKind().visit(s), #Name);                                                    \
    ++kinds;                                                                                       \
  }
#define AST_NODE(Name, Base, Fields) PYK_TEST_MAKE_##Base(Name)
#include "syntax/AstNodes.def"
#undef PYK_TEST_MAKE_Stmt
#undef PYK_TEST_MAKE_Expr
  EXPECT_EQ(kinds, kindsOf<Stmt>());
  EXPECT_GT(kinds, 20);
}

// Renders an expression, handling names, binary operations and calls, with the nesting depth
// passed along as an extra argument; everything else is "?<Kind>@depth".
struct Renderer : ExprVisitor<Renderer, std::string, int> {
  std::string visitName(const Name* e, int) { return e->id; }
  std::string visitBinOp(const BinOp* e, int depth) {
    return "(" + visit(e->left, depth + 1) + " " + toString(e->op) + " " +
           visit(e->right, depth + 1) + ")";
  }
  std::string visitCall(const Call* e, int depth) {
    std::string out = visit(e->func, depth + 1) + "(";
    for (size_t i = 0; i < e->args.size(); ++i)
      out += (i ? ", " : "") + visit(e->args[i], depth + 1);
    return out + ")";
  }
  std::string visitExpr(const Expr* e, int depth) {
    return std::string("?") + nodeKindName(e->kind) + "@" + std::to_string(depth);
  }
};

const Expr* valueOfFirstStatement(const Parsed& parsed) {
  return parsed.result.module->body.at(0)->as<ExprStmt>()->value;
}

TEST(ResultVisitor, HandledKindsRecurseAndTheRestFallBackWithTheirArguments) {
  Parsed parsed("a + f(b, 2) * c[0]\n");
  ASSERT_TRUE(parsed.ok()) << parsed.errors();
  EXPECT_EQ(Renderer().visit(valueOfFirstStatement(parsed), 0),
            "(a + (f(b, ?Constant@3) * ?Subscript@2))");
}

// Collects, through a reference argument, the kinds of the statements of a body, descending into
// `if` and `for`; the other statements are collected by the fallback.
struct StatementLister : StmtVisitor<StatementLister, void, std::vector<std::string>&> {
  void body(const std::vector<Stmt*>& stmts, std::vector<std::string>& out) {
    for (const Stmt* s : stmts)
      visit(s, out);
  }
  void visitIf(const If* s, std::vector<std::string>& out) {
    out.push_back("if");
    body(s->body, out);
    body(s->orelse, out);
  }
  void visitFor(const For* s, std::vector<std::string>& out) {
    out.push_back("for");
    body(s->body, out);
  }
  void visitAssign(const Assign*, std::vector<std::string>& out) { out.push_back("assign"); }
  void visitStmt(const Stmt* s, std::vector<std::string>& out) {
    out.push_back(std::string("other ") + nodeKindName(s->kind));
  }
};

TEST(ResultVisitor, StatementVisitorWithVoidResultAndAReferenceArgument) {
  Parsed parsed("def k(a):\n"
                "    x = 1\n"
                "    for i in range(3):\n"
                "        if i:\n"
                "            a[i] = x\n"
                "        else:\n"
                "            pass\n"
                "    return x\n");
  ASSERT_TRUE(parsed.ok()) << parsed.errors();
  const auto* def = parsed.result.module->body.at(0)->as<FunctionDef>();
  ASSERT_NE(def, nullptr);
  std::vector<std::string> kinds;
  StatementLister().body(def->body, kinds);
  EXPECT_EQ(kinds, (std::vector<std::string>{"assign", "for", "if", "assign", "other Pass",
                                             "other Return"}));
}

// Both at once, as a function typer is: expressions give a value, statements give none. The two
// bases' visit functions are brought in together; each family keeps its own fallback.
struct ExpressionCounter : ExprVisitor<ExpressionCounter, int>,
                           StmtVisitor<ExpressionCounter, void, int&> {
  using ExprVisitor<ExpressionCounter, int>::visit;
  using StmtVisitor<ExpressionCounter, void, int&>::visit;

  int visitBinOp(const BinOp* e) { return 1 + visit(e->left) + visit(e->right); }
  int visitExpr(const Expr*) { return 1; }
  void visitAssign(const Assign* s, int& total) { total += visit(s->value); }
  void visitStmt(const Stmt*, int& total) { total += 1000; }
};

TEST(ResultVisitor, OneClassCanVisitExpressionsAndStatements) {
  Parsed parsed("x = a + b * c\n"
                "pass\n");
  ASSERT_TRUE(parsed.ok()) << parsed.errors();
  int total = 0;
  ExpressionCounter counter;
  for (const Stmt* s : parsed.result.module->body)
    counter.visit(s, total);
  EXPECT_EQ(total, 5 + 1000);
}

} // namespace
} // namespace pyk::test
