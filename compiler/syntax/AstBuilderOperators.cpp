// AstBuilderOperators: AstBuilder's expressions built of operators: comma sequences, `:=`,
// conditional expressions and lambdas, `and` / `or` / `not`, comparisons, binary and unary
// operators, `**`, calls, attributes and subscripts (trailers), `await` and `yield`.
#include "syntax/AstBuilder.h"

namespace pyk::syntax {

using namespace pyk::ast;
using antlr4::tree::ParseTree;
using antlr4::tree::TerminalNode;
using grammar::PythonLexer;

namespace {
TerminalNode* asTerminal(ParseTree* t) {
  return dynamic_cast<TerminalNode*>(t);
}
size_t tokenType(ParseTree* t) {
  TerminalNode* term = asTerminal(t);
  return term != nullptr ? term->getSymbol()->getType() : 0;
}
} // namespace

// ---- sequences ----------------------------------------------------------------------------------

Expr* AstBuilder::element(antlr4::ParserRuleContext* e) {
  if (auto* x = dynamic_cast<P::TestContext*>(e))
    return test(x);
  if (auto* x = dynamic_cast<P::Star_exprContext*>(e))
    return starExpr(x);
  if (auto* x = dynamic_cast<P::Namedexpr_testContext*>(e))
    return namedTest(x);
  if (auto* x = dynamic_cast<P::ExprContext*>(e))
    return expr(x);
  return nullptr;
}

Expr* AstBuilder::tupleOrSingle(antlr4::ParserRuleContext* e, bool parenthesized) {
  std::vector<Expr*> elts;
  bool comma = false;
  for (ParseTree* child : e->children) {
    if (tokenType(child) == PythonLexer::COMMA)
      comma = true;
    else if (auto* rule = dynamic_cast<antlr4::ParserRuleContext*>(child))
      if (Expr* x = element(rule))
        elts.push_back(x);
  }
  if (elts.size() == 1 && !comma)
    return elts[0];
  auto* tuple = make<Tuple>(range(e));
  tuple->elts = std::move(elts);
  tuple->parenthesized = parenthesized;
  return tuple;
}

Expr* AstBuilder::testListStar(P::Testlist_star_exprContext* e) {
  return tupleOrSingle(e);
}
Expr* AstBuilder::exprList(P::ExprlistContext* e) {
  return tupleOrSingle(e);
}

// ---- operators ----------------------------------------------------------------------------------

Expr* AstBuilder::namedTest(P::Namedexpr_testContext* e) {
  std::vector<P::TestContext*> tests = e->test();
  Expr* first = test(tests[0]);
  if (tests.size() == 1)
    return first;
  auto* node = make<NamedExpr>(range(e));
  node->target = first;
  node->value = test(tests[1]);
  if (auto* name = first->as<Name>())
    name->ctx = ExprContext::Store;
  else
    diags_.report(DiagKind::InvalidTarget, first->range,
                  {"use assignment expressions with", describe(first)});
  return node;
}

Expr* AstBuilder::test(P::TestContext* e) {
  if (P::LambdefContext* l = e->lambdef())
    return lambda(l->varargslist(), l, test(l->test()));
  std::vector<P::Or_testContext*> ors = e->or_test();
  Expr* body = orTest(ors[0]);
  if (ors.size() == 1)
    return body;
  auto* node = make<IfExp>(range(e));
  node->body = body;
  node->test = orTest(ors[1]);
  node->orelse = test(e->test());
  return node;
}

Expr* AstBuilder::testNoCond(P::Test_nocondContext* e) {
  if (P::Lambdef_nocondContext* l = e->lambdef_nocond())
    return lambda(l->varargslist(), l, testNoCond(l->test_nocond()));
  return orTest(e->or_test());
}

Expr* AstBuilder::lambda(P::VarargslistContext* args, antlr4::ParserRuleContext* whole,
                         Expr* body) {
  auto* node = make<Lambda>(range(whole));
  if (args != nullptr)
    lambdaArguments(args, node->args);
  node->body = body;
  return node;
}

Expr* AstBuilder::orTest(P::Or_testContext* e) {
  std::vector<P::And_testContext*> items = e->and_test();
  if (items.size() == 1)
    return andTest(items[0]);
  auto* node = make<BoolOp>(range(e));
  node->op = BoolOpKind::Or;
  for (auto* item : items)
    node->values.push_back(andTest(item));
  return node;
}

Expr* AstBuilder::andTest(P::And_testContext* e) {
  std::vector<P::Not_testContext*> items = e->not_test();
  if (items.size() == 1)
    return notTest(items[0]);
  auto* node = make<BoolOp>(range(e));
  node->op = BoolOpKind::And;
  for (auto* item : items)
    node->values.push_back(notTest(item));
  return node;
}

Expr* AstBuilder::notTest(P::Not_testContext* e) {
  if (e->comparison())
    return comparison(e->comparison());
  auto* node = make<UnaryOp>(range(e));
  node->op = UnaryOpKind::Not;
  node->operand = notTest(e->not_test());
  return node;
}

Expr* AstBuilder::comparison(P::ComparisonContext* e) {
  std::vector<P::ExprContext*> operands = e->expr();
  Expr* left = expr(operands[0]);
  if (operands.size() == 1)
    return left;
  auto* node = make<Compare>(range(e));
  node->left = left;
  std::vector<P::Comp_opContext*> ops = e->comp_op();
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string op = ops[i]->getText(); // "notin" and "isnot" for the two-word operators
    CmpOpKind kind = op == "<"       ? CmpOpKind::Lt
                     : op == ">"     ? CmpOpKind::Gt
                     : op == "=="    ? CmpOpKind::Eq
                     : op == ">="    ? CmpOpKind::GtE
                     : op == "<="    ? CmpOpKind::LtE
                     : op == "!="    ? CmpOpKind::NotEq
                     : op == "in"    ? CmpOpKind::In
                     : op == "notin" ? CmpOpKind::NotIn
                     : op == "is"    ? CmpOpKind::Is
                                     : CmpOpKind::IsNot;
    node->ops.push_back(kind);
    node->comparators.push_back(expr(operands[i + 1]));
  }
  return node;
}

Expr* AstBuilder::starExpr(P::Star_exprContext* e) {
  auto* node = make<Starred>(range(e));
  node->value = expr(e->expr());
  return node;
}

Expr* AstBuilder::expr(P::ExprContext* e) {
  return binaryChain(e);
}

// expr, xor_expr, and_expr, shift_expr, arith_expr and term: operands and operators alternate;
// fold them to the left.
Expr* AstBuilder::binaryChain(antlr4::ParserRuleContext* e) {
  auto operand = [&](ParseTree* t) -> Expr* {
    if (auto* f = dynamic_cast<P::FactorContext*>(t))
      return factor(f);
    return binaryChain(static_cast<antlr4::ParserRuleContext*>(t));
  };
  if (e->children.size() == 1)
    return operand(e->children[0]);
  Expr* left = operand(e->children[0]);
  // As in CPython, a binary operation starts where its first operand's text does, a
  // parenthesis included: `(x + y) / 2` starts at `(`.
  const SourceLoc start = begin(e->getStart());
  for (size_t i = 1; i + 1 < e->children.size(); i += 2) {
    std::string op = e->children[i]->getText();
    auto* node = make<BinOp>(SourceRange(start, left->range.end));
    node->left = left;
    node->op = op == "|"    ? BinOpKind::BitOr
               : op == "^"  ? BinOpKind::BitXor
               : op == "&"  ? BinOpKind::BitAnd
               : op == "<<" ? BinOpKind::LShift
               : op == ">>" ? BinOpKind::RShift
               : op == "+"  ? BinOpKind::Add
               : op == "-"  ? BinOpKind::Sub
               : op == "*"  ? BinOpKind::Mult
               : op == "@"  ? BinOpKind::MatMult
               : op == "/"  ? BinOpKind::Div
               : op == "%"  ? BinOpKind::Mod
                            : BinOpKind::FloorDiv;
    node->right = operand(e->children[i + 1]);
    node->range.end = end(static_cast<antlr4::ParserRuleContext*>(e->children[i + 1])->getStop());
    left = node;
  }
  return left;
}

Expr* AstBuilder::factor(P::FactorContext* e) {
  if (e->power())
    return power(e->power());
  auto* node = make<UnaryOp>(range(e));
  std::string op = e->children[0]->getText();
  node->op = op == "+" ? UnaryOpKind::UAdd : op == "-" ? UnaryOpKind::USub : UnaryOpKind::Invert;
  node->operand = factor(e->factor());
  return node;
}

Expr* AstBuilder::power(P::PowerContext* e) {
  Expr* base = atomExpr(e->atom_expr());
  if (e->factor() == nullptr)
    return base;
  auto* node = make<BinOp>(range(e));
  node->left = base;
  node->op = BinOpKind::Pow;
  node->right = factor(e->factor());
  return node;
}

Expr* AstBuilder::atomExpr(P::Atom_exprContext* e) {
  Expr* result = atom(e->atom());
  SourceLoc start = begin(e->atom()->getStart()); // `(a).b` starts at `(`, as in CPython
  for (P::TrailerContext* t : e->trailer()) {
    SourceRange r(start, end(t->getStop()));
    if (auto* call = dynamic_cast<P::CallTrailerContext*>(t)) {
      auto* node = make<Call>(r);
      node->func = result;
      if (call->arglist())
        callArguments(call->arglist(), node->args, node->keywords);
      result = node;
    } else if (auto* sub = dynamic_cast<P::SubscriptTrailerContext*>(t)) {
      auto* node = make<Subscript>(r);
      node->value = result;
      node->slice = subscriptList(sub->subscriptlist());
      result = node;
    } else if (auto* attr = dynamic_cast<P::AttributeTrailerContext*>(t)) {
      auto* node = make<Attribute>(r);
      node->value = result;
      node->attr = nameText(attr->name());
      node->attrRange = range(attr->name());
      result = node;
    }
  }
  if (e->AWAIT()) {
    auto* node = make<Await>(range(e));
    node->value = result;
    if (functionDepth_ == 0)
      diags_.report(DiagKind::SyntaxError, node->range, {"`await` outside function"});
    return node;
  }
  return result;
}

Expr* AstBuilder::subscriptList(P::SubscriptlistContext* e) {
  std::vector<P::SubscriptContext*> items = e->subscript();
  if (items.size() == 1 && e->COMMA().empty())
    return subscript(items[0]);
  auto* tuple = make<Tuple>(range(e));
  for (auto* item : items)
    tuple->elts.push_back(subscript(item));
  return tuple;
}

Expr* AstBuilder::subscript(P::SubscriptContext* e) {
  if (auto* index = dynamic_cast<P::IndexSubscriptContext*>(e))
    return namedTest(index->namedexpr_test());
  if (auto* star = dynamic_cast<P::StarSubscriptContext*>(e))
    return starExpr(star->star_expr());
  auto* slice = static_cast<P::SliceSubscriptContext*>(e);
  auto* node = make<Slice>(range(slice));
  bool afterColon = false;
  for (ParseTree* child : slice->children) {
    if (tokenType(child) == PythonLexer::COLON)
      afterColon = true;
    else if (auto* t = dynamic_cast<P::TestContext*>(child))
      (afterColon ? node->upper : node->lower) = test(t);
    else if (auto* step = dynamic_cast<P::SliceopContext*>(child))
      if (step->test())
        node->step = test(step->test());
  }
  return node;
}

Expr* AstBuilder::yieldExpr(P::Yield_exprContext* e) {
  if (functionDepth_ == 0)
    diags_.report(DiagKind::SyntaxError, range(e), {"`yield` outside function"});
  if (e->FROM()) {
    auto* node = make<YieldFrom>(range(e));
    node->value = test(e->test());
    return node;
  }
  auto* node = make<Yield>(range(e));
  if (e->testlist_star_expr())
    node->value = testListStar(e->testlist_star_expr());
  return node;
}

} // namespace pyk::syntax
