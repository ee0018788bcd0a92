// AstBuilderCompoundStatements: AstBuilder's statements with a block (`if`, `while`, `for`,
// `try`, `with`, function and class definitions with their decorators, `match`).
#include "syntax/AstBuilder.h"

namespace pyk::syntax {

using namespace pyk::ast;

Stmt* AstBuilder::compoundStatement(P::Compound_stmtContext* s) {
  SourceRange r = range(s);
  if (auto* x = s->if_stmt())
    return ifStatement(x);
  if (auto* x = s->while_stmt())
    return whileStatement(x);
  if (auto* x = s->for_stmt())
    return forStatement(x, false, r);
  if (auto* x = s->try_stmt())
    return tryStatement(x);
  if (auto* x = s->with_stmt())
    return withStatement(x, false, r);
  if (auto* x = s->funcdef())
    return functionDefinition(x, {}, false, r);
  if (auto* x = s->classdef())
    return classDefinition(x, {}, r);
  if (auto* x = s->decorated())
    return decorated(x);
  if (auto* x = s->match_stmt())
    return matchStatement(x);
  if (auto* x = s->async_stmt()) {
    if (x->funcdef())
      return functionDefinition(x->funcdef(), {}, true, r);
    if (x->with_stmt())
      return withStatement(x->with_stmt(), true, r);
    return forStatement(x->for_stmt(), true, r);
  }
  return nullptr;
}

Stmt* AstBuilder::ifStatement(P::If_stmtContext* s) {
  auto* root = make<If>(range(s));
  root->test = namedTest(s->namedexpr_test());
  root->body = block(s->block());
  If* last = root;
  for (P::Elif_clauseContext* elif : s->elif_clause()) {
    auto* node = make<If>(SourceRange(begin(elif->getStart()), root->range.end));
    node->test = namedTest(elif->namedexpr_test());
    node->body = block(elif->block());
    last->orelse.push_back(node);
    last = node;
  }
  if (P::Else_clauseContext* e = s->else_clause())
    last->orelse = block(e->block());
  return root;
}

Stmt* AstBuilder::whileStatement(P::While_stmtContext* s) {
  auto* node = make<While>(range(s));
  node->test = namedTest(s->namedexpr_test());
  ++loopDepth_;
  node->body = block(s->block());
  --loopDepth_;
  if (P::Else_clauseContext* e = s->else_clause())
    node->orelse = block(e->block());
  return node;
}

Stmt* AstBuilder::forStatement(P::For_stmtContext* s, bool isAsync, SourceRange r) {
  auto* node = make<For>(r);
  node->isAsync = isAsync;
  node->target = exprList(s->exprlist());
  setContext(node->target, ExprContext::Store, "assign to");
  node->iter = testListStar(s->testlist_star_expr());
  ++loopDepth_;
  node->body = block(s->block());
  --loopDepth_;
  if (P::Else_clauseContext* e = s->else_clause())
    node->orelse = block(e->block());
  return node;
}

Stmt* AstBuilder::tryStatement(P::Try_stmtContext* s) {
  auto* node = make<Try>(range(s));
  node->body = block(s->block());
  bool sawPlain = false;
  for (P::Except_clauseContext* clause : s->except_clause()) {
    ExceptHandler handler;
    handler.range = range(clause);
    if (clause->test())
      handler.type = test(clause->test());
    if (clause->name())
      handler.name = nameText(clause->name());
    handler.body = block(clause->block());
    bool star = clause->STAR() != nullptr;
    if (star && handler.type == nullptr)
      diags_.report(DiagKind::SyntaxError, handler.range,
                    {"expected an exception type after `except*`"});
    if ((star && sawPlain) || (!star && node->isStar))
      diags_.report(DiagKind::SyntaxError, handler.range,
                    {"cannot have both `except` and `except*` on the same `try`"});
    node->isStar |= star;
    sawPlain |= !star;
    node->handlers.push_back(std::move(handler));
  }
  for (size_t i = 0; i + 1 < node->handlers.size(); ++i)
    if (node->handlers[i].type == nullptr)
      diags_.report(DiagKind::SyntaxError, node->handlers[i].range,
                    {"default `except:` must be last"});
  if (P::Else_clauseContext* e = s->else_clause())
    node->orelse = block(e->block());
  if (P::Finally_clauseContext* f = s->finally_clause())
    node->finalbody = block(f->block());
  return node;
}

Stmt* AstBuilder::withStatement(P::With_stmtContext* s, bool isAsync, SourceRange r) {
  auto* node = make<With>(r);
  node->isAsync = isAsync;
  for (P::With_itemContext* item : s->with_item()) {
    WithItem w;
    w.contextExpr = test(item->test());
    if (item->expr()) {
      w.optionalVars = expr(item->expr());
      setContext(w.optionalVars, ExprContext::Store, "assign to");
    }
    node->items.push_back(w);
  }
  node->body = block(s->block());
  return node;
}

Stmt* AstBuilder::decorated(P::DecoratedContext* d) {
  std::vector<Expr*> decorators;
  for (P::DecoratorContext* dec : d->decorators()->decorator())
    decorators.push_back(namedTest(dec->namedexpr_test()));
  // As in CPython, the definition starts at `def`/`class` (or `async`), not at a decorator.
  if (d->classdef())
    return classDefinition(d->classdef(), std::move(decorators), range(d->classdef()));
  if (d->funcdef())
    return functionDefinition(d->funcdef(), std::move(decorators), false, range(d->funcdef()));
  return functionDefinition(d->async_funcdef()->funcdef(), std::move(decorators), true,
                            range(d->async_funcdef()));
}

Stmt* AstBuilder::functionDefinition(P::FuncdefContext* f, std::vector<Expr*> decorators,
                                     bool isAsync, SourceRange r) {
  auto* node = make<FunctionDef>(r);
  node->name = nameText(f->name());
  node->nameRange = range(f->name());
  node->decorators = std::move(decorators);
  node->isAsync = isAsync;
  if (P::TypedargslistContext* params = f->parameters()->typedargslist())
    typedArguments(params, node->args);
  if (f->test())
    node->returns = test(f->test());
  int savedLoops = loopDepth_;
  loopDepth_ = 0;
  ++functionDepth_;
  node->body = block(f->block());
  --functionDepth_;
  loopDepth_ = savedLoops;
  return node;
}

Stmt* AstBuilder::classDefinition(P::ClassdefContext* c, std::vector<Expr*> decorators,
                                  SourceRange r) {
  auto* node = make<ClassDef>(r);
  node->name = nameText(c->name());
  node->nameRange = range(c->name());
  node->decorators = std::move(decorators);
  if (c->arglist())
    callArguments(c->arglist(), node->bases, node->keywords);
  int savedLoops = loopDepth_;
  int savedFunctions = functionDepth_;
  loopDepth_ = 0;
  functionDepth_ = 0;
  node->body = block(c->block());
  loopDepth_ = savedLoops;
  functionDepth_ = savedFunctions;
  return node;
}

Stmt* AstBuilder::matchStatement(P::Match_stmtContext* s) {
  auto* node = make<Match>(range(s));
  P::Subject_exprContext* subject = s->subject_expr();
  if (subject->namedexpr_test() != nullptr) {
    node->subject = namedTest(subject->namedexpr_test());
  } else {
    auto* tuple = make<Tuple>(range(subject));
    auto item = [&](P::Star_named_expressionContext* e) {
      return e->star_expr() ? starExpr(e->star_expr()) : namedTest(e->namedexpr_test());
    };
    tuple->elts.push_back(item(subject->star_named_expression()));
    if (subject->star_named_expressions())
      for (auto* e : subject->star_named_expressions()->star_named_expression())
        tuple->elts.push_back(item(e));
    node->subject = tuple;
  }
  for (P::Case_blockContext* c : s->case_block()) {
    MatchCase mc;
    mc.range = range(c);
    mc.pattern = patterns(c->patterns());
    if (c->guard())
      mc.guard = namedTest(c->guard()->namedexpr_test());
    mc.body = block(c->block());
    node->cases.push_back(std::move(mc));
  }
  return node;
}

} // namespace pyk::syntax
