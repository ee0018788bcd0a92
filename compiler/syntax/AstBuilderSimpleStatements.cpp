// AstBuilderSimpleStatements: AstBuilder's one-line statements (expression statements and
// assignments, `del`, `pass`, `break`, `continue`, `return`, `raise`, `global`, `nonlocal`,
// `assert`, imports).
#include "syntax/AstBuilder.h"

namespace pyk::syntax {

using namespace pyk::ast;
using antlr4::tree::ParseTree;

Stmt* AstBuilder::simpleStatement(P::Simple_stmtContext* s) {
  SourceRange r = range(s);
  if (auto* e = s->expr_stmt())
    return expressionStatement(e);
  if (auto* d = s->del_stmt()) {
    auto* del = make<Delete>(r);
    Expr* targets = exprList(d->exprlist());
    if (auto* tuple = targets->as<Tuple>(); tuple != nullptr && !tuple->parenthesized)
      del->targets = tuple->elts;
    else
      del->targets.push_back(targets);
    for (Expr* t : del->targets)
      setContext(t, ExprContext::Del, "delete");
    return del;
  }
  if (s->pass_stmt())
    return make<Pass>(r);
  if (s->break_stmt()) {
    if (loopDepth_ == 0)
      diags_.report(DiagKind::SyntaxError, r, {"`break` outside loop"});
    return make<Break>(r);
  }
  if (s->continue_stmt()) {
    if (loopDepth_ == 0)
      diags_.report(DiagKind::SyntaxError, r, {"`continue` not properly in loop"});
    return make<Continue>(r);
  }
  if (auto* ret = s->return_stmt()) {
    if (functionDepth_ == 0)
      diags_.report(DiagKind::SyntaxError, r, {"`return` outside function"});
    auto* node = make<Return>(r);
    if (ret->testlist_star_expr())
      node->value = testListStar(ret->testlist_star_expr());
    return node;
  }
  if (auto* raise = s->raise_stmt()) {
    auto* node = make<Raise>(r);
    std::vector<P::TestContext*> tests = raise->test();
    if (!tests.empty())
      node->exc = test(tests[0]);
    if (tests.size() > 1)
      node->cause = test(tests[1]);
    return node;
  }
  if (auto* y = s->yield_stmt()) {
    auto* node = make<ExprStmt>(r);
    node->value = yieldExpr(y->yield_expr());
    return node;
  }
  if (auto* imp = s->import_stmt())
    return importStatement(imp);
  if (auto* g = s->global_stmt()) {
    auto* node = make<Global>(r);
    for (P::NameContext* n : g->name())
      node->names.push_back(nameText(n));
    return node;
  }
  if (auto* n = s->nonlocal_stmt()) {
    if (functionDepth_ == 0)
      diags_.report(DiagKind::SyntaxError, r, {"nonlocal declaration not allowed at module level"});
    auto* node = make<Nonlocal>(r);
    for (P::NameContext* name : n->name())
      node->names.push_back(nameText(name));
    return node;
  }
  if (auto* a = s->assert_stmt()) {
    auto* node = make<Assert>(r);
    std::vector<P::TestContext*> tests = a->test();
    node->test = test(tests[0]);
    if (tests.size() > 1)
      node->msg = test(tests[1]);
    return node;
  }
  return nullptr;
}

namespace {
BinOpKind augmentedOperator(const std::string& text) {
  static const std::pair<const char*, BinOpKind> kOps[] = {
      {"+=", BinOpKind::Add},      {"-=", BinOpKind::Sub},     {"*=", BinOpKind::Mult},
      {"@=", BinOpKind::MatMult},  {"/=", BinOpKind::Div},     {"%=", BinOpKind::Mod},
      {"&=", BinOpKind::BitAnd},   {"|=", BinOpKind::BitOr},   {"^=", BinOpKind::BitXor},
      {"<<=", BinOpKind::LShift},  {">>=", BinOpKind::RShift}, {"**=", BinOpKind::Pow},
      {"//=", BinOpKind::FloorDiv}};
  for (const auto& [spelling, op] : kOps)
    if (text == spelling)
      return op;
  return BinOpKind::Add;
}
} // namespace

Stmt* AstBuilder::expressionStatement(P::Expr_stmtContext* s) {
  SourceRange r = range(s);
  // The operands in source order: testlist_star_expr and yield_expr, between `=` signs.
  std::vector<Expr*> parts;
  for (ParseTree* child : s->children) {
    if (auto* t = dynamic_cast<P::Testlist_star_exprContext*>(child))
      parts.push_back(testListStar(t));
    else if (auto* y = dynamic_cast<P::Yield_exprContext*>(child))
      parts.push_back(yieldExpr(y));
  }
  if (P::AnnassignContext* ann = s->annassign()) {
    auto* node = make<AnnAssign>(r);
    node->target = parts[0];
    node->annotation = test(ann->test());
    if (ann->testlist_star_expr())
      node->value = testListStar(ann->testlist_star_expr());
    else if (ann->yield_expr())
      node->value = yieldExpr(ann->yield_expr());
    node->simple = node->target->is<Name>() && s->getStart()->getText() != "(";
    if (!node->target->is<Name>() && !node->target->is<Attribute>() &&
        !node->target->is<Subscript>())
      diags_.report(DiagKind::InvalidTarget, node->target->range,
                    {"annotate", describe(node->target)});
    else
      setContext(node->target, ExprContext::Store, "assign to");
    return node;
  }
  if (P::AugassignContext* aug = s->augassign()) {
    auto* node = make<AugAssign>(r);
    node->target = parts[0];
    node->op = augmentedOperator(aug->getText());
    node->value = parts.size() > 1 ? parts[1] : nullptr;
    if (!node->target->is<Name>() && !node->target->is<Attribute>() &&
        !node->target->is<Subscript>())
      diags_.report(DiagKind::InvalidTarget, node->target->range,
                    {"use augmented assignment on", describe(node->target)});
    else
      setContext(node->target, ExprContext::Store, "assign to");
    return node;
  }
  if (parts.size() == 1) {
    auto* node = make<ExprStmt>(r);
    node->value = parts[0];
    return node;
  }
  auto* node = make<Assign>(r);
  node->targets.assign(parts.begin(), parts.end() - 1);
  node->value = parts.back();
  for (Expr* target : node->targets)
    setContext(target, ExprContext::Store, "assign to");
  return node;
}

// ---- imports ------------------------------------------------------------------------------------

Stmt* AstBuilder::importStatement(P::Import_stmtContext* s) {
  SourceRange r = range(s);
  if (P::Import_nameContext* imp = s->import_name()) {
    auto* node = make<Import>(r);
    for (P::Dotted_as_nameContext* d : imp->dotted_as_names()->dotted_as_name()) {
      Alias alias;
      alias.name = d->dotted_name()->getText();
      if (d->name())
        alias.asname = nameText(d->name());
      alias.range = range(d);
      node->names.push_back(alias);
    }
    return node;
  }
  P::Import_fromContext* from = s->import_from();
  auto* node = make<ImportFrom>(r);
  for (P::Import_dotsContext* dots : from->import_dots())
    node->level += dots->getText() == "..." ? 3 : 1;
  if (from->dotted_name())
    node->module = from->dotted_name()->getText();
  if (from->STAR()) {
    node->names.push_back({"*", "", range(from->STAR())});
    if (functionDepth_ > 0)
      diags_.report(DiagKind::SyntaxError, r, {"`import *` only allowed at module level"});
    return node;
  }
  for (P::Import_as_nameContext* a : from->import_as_names()->import_as_name()) {
    Alias alias;
    std::vector<P::NameContext*> names = a->name();
    alias.name = nameText(names[0]);
    if (names.size() > 1)
      alias.asname = nameText(names[1]);
    alias.range = range(a);
    node->names.push_back(alias);
  }
  if (from->LPAR() == nullptr && !from->import_as_names()->COMMA().empty() &&
      from->import_as_names()->getStop()->getText() == ",")
    diags_.report(DiagKind::SyntaxError, range(from->import_as_names()->getStop()),
                  {"trailing comma not allowed without surrounding parentheses"});
  return node;
}

} // namespace pyk::syntax
