// AstBuilder: turns an ANTLR parse tree into pyk's AST in one pass (Kuzu's Transformer).
// This file: positions, statements, parameters and assignment-target checks.
#include "syntax/AstBuilder.h"

#include <set>

namespace pyk::syntax {

using namespace pyk::ast;
using antlr4::tree::ParseTree;
using antlr4::tree::TerminalNode;

// ---- positions ----------------------------------------------------------------------------------

SourceLoc AstBuilder::begin(const antlr4::Token* token) const {
  return positions_.map(token->getLine(), token->getCharPositionInLine());
}

SourceLoc AstBuilder::end(const antlr4::Token* token) const {
  return tokenRange(token, positions_).end;
}

SourceRange AstBuilder::range(const antlr4::Token* token) const {
  return tokenRange(token, positions_);
}

SourceRange AstBuilder::range(antlr4::ParserRuleContext* rule) const {
  const antlr4::Token* start = rule->getStart();
  const antlr4::Token* stop = rule->getStop();
  if (stop == nullptr || stop->getTokenIndex() < start->getTokenIndex())
    return SourceRange(begin(start));
  // A statement's range ends at its last real token, not at the NEWLINE or DEDENT after it.
  if (tokens_ != nullptr) {
    for (size_t i = stop->getTokenIndex(); i > start->getTokenIndex(); --i) {
      const antlr4::Token* t = tokens_->get(i);
      size_t type = t->getType();
      if (t->getChannel() == antlr4::Token::DEFAULT_CHANNEL &&
          type != grammar::PythonLexer::NEWLINE && type != grammar::PythonLexer::DEDENT &&
          type != grammar::PythonLexer::INDENT) {
        stop = t;
        break;
      }
    }
  }
  SourceLoc e = end(stop);
  return {begin(start), e};
}

// ---- module and statements ----------------------------------------------------------------------

Module* AstBuilder::buildModule(P::File_inputContext* tree) {
  Module* module = make<Module>(range(tree));
  for (P::StmtContext* s : tree->stmt())
    statement(s, module->body);
  return module;
}

void AstBuilder::statement(P::StmtContext* s, std::vector<Stmt*>& out) {
  if (P::Compound_stmtContext* c = s->compound_stmt()) {
    if (Stmt* st = compoundStatement(c))
      out.push_back(st);
    return;
  }
  for (P::Simple_stmtContext* simple : s->simple_stmts()->simple_stmt())
    if (Stmt* st = simpleStatement(simple))
      out.push_back(st);
}

std::vector<Stmt*> AstBuilder::block(P::BlockContext* b) {
  std::vector<Stmt*> body;
  if (P::Simple_stmtsContext* simple = b->simple_stmts()) {
    for (P::Simple_stmtContext* s : simple->simple_stmt())
      if (Stmt* st = simpleStatement(s))
        body.push_back(st);
    return body;
  }
  for (P::StmtContext* s : b->stmt())
    statement(s, body);
  return body;
}

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

// ---- parameters ---------------------------------------------------------------------------------

void AstBuilder::typedArguments(P::TypedargslistContext* list, Arguments& out) {
  std::vector<Parameter> params;
  for (P::TypedargContext* arg : list->typedarg()) {
    Parameter p{Parameter::Plain, "", range(arg), nullptr, nullptr};
    P::TfpdefContext* def = nullptr;
    if (auto* plain = dynamic_cast<P::PlainParamContext*>(arg)) {
      def = plain->tfpdef();
      if (plain->test())
        p.defaultValue = test(plain->test());
    } else if (auto* star = dynamic_cast<P::StarParamContext*>(arg)) {
      p.kind = Parameter::Star;
      def = star->tfpdef();
    } else if (auto* dstar = dynamic_cast<P::DoubleStarParamContext*>(arg)) {
      p.kind = Parameter::DoubleStar;
      def = dstar->tfpdef();
    } else {
      p.kind = Parameter::Slash;
    }
    if (def != nullptr) {
      p.name = nameText(def->name());
      p.range = range(def->name());
      if (def->test())
        p.annotation = test(def->test());
    }
    params.push_back(p);
  }
  arguments(std::move(params), out, range(list));
}

void AstBuilder::lambdaArguments(P::VarargslistContext* list, Arguments& out) {
  std::vector<Parameter> params;
  for (P::VarargContext* arg : list->vararg()) {
    Parameter p{Parameter::Plain, "", range(arg), nullptr, nullptr};
    P::NameContext* name = nullptr;
    if (auto* plain = dynamic_cast<P::PlainLambdaParamContext*>(arg)) {
      name = plain->name();
      if (plain->test())
        p.defaultValue = test(plain->test());
    } else if (auto* star = dynamic_cast<P::StarLambdaParamContext*>(arg)) {
      p.kind = Parameter::Star;
      name = star->name();
    } else if (auto* dstar = dynamic_cast<P::DoubleStarLambdaParamContext*>(arg)) {
      p.kind = Parameter::DoubleStar;
      name = dstar->name();
    } else {
      p.kind = Parameter::Slash;
    }
    if (name != nullptr) {
      p.name = nameText(name);
      p.range = range(name);
    }
    params.push_back(p);
  }
  arguments(std::move(params), out, range(list));
}

void AstBuilder::arguments(std::vector<Parameter> params, Arguments& out, SourceRange where) {
  bool seenSlash = false, seenStar = false, seenKwarg = false, seenDefault = false;
  bool bareStar = false;
  SourceRange bareStarRange;
  std::set<std::string> names;
  auto error = [&](SourceRange r, const std::string& message) {
    diags_.report(DiagKind::InvalidParameters, r, {message});
  };
  for (Parameter& p : params) {
    if (seenKwarg) {
      error(p.range, "arguments cannot follow var-keyword argument");
      return;
    }
    if (!p.name.empty() && !names.insert(p.name).second)
      error(p.range, "duplicate argument `" + p.name + "` in function definition");
    switch (p.kind) {
    case Parameter::Slash:
      if (seenSlash)
        error(p.range, "`/` may appear only once");
      else if (seenStar)
        error(p.range, "`/` must be ahead of `*`");
      else if (out.args.empty())
        error(p.range, "at least one argument must precede `/`");
      else
        out.posonlyargs = std::move(out.args), out.args.clear();
      seenSlash = true;
      break;
    case Parameter::Plain: {
      Arg arg{p.name, p.annotation, p.range};
      if (seenStar) {
        out.kwonlyargs.push_back(arg);
        out.kwDefaults.push_back(p.defaultValue);
        bareStar = false;
      } else {
        if (p.defaultValue != nullptr) {
          seenDefault = true;
          out.defaults.push_back(p.defaultValue);
        } else if (seenDefault) {
          error(p.range, "non-default argument follows default argument");
        }
        out.args.push_back(arg);
      }
      break;
    }
    case Parameter::Star:
      if (seenStar) {
        error(p.range, "`*` argument may appear only once");
        break;
      }
      seenStar = true;
      if (p.name.empty()) {
        bareStar = true;
        bareStarRange = p.range;
      } else {
        out.vararg = std::make_unique<Arg>(Arg{p.name, p.annotation, p.range});
      }
      break;
    case Parameter::DoubleStar:
      seenKwarg = true;
      out.kwarg = std::make_unique<Arg>(Arg{p.name, p.annotation, p.range});
      break;
    }
  }
  if (bareStar)
    error(bareStarRange.valid() ? bareStarRange : where, "named arguments must follow bare `*`");
}

// ---- assignment targets -------------------------------------------------------------------------

std::string AstBuilder::describe(const Expr* e) const {
  switch (e->kind) {
  case NodeKind::Call:
    return "function call";
  case NodeKind::Constant: {
    auto kind = e->as<Constant>()->valueKind;
    if (kind == ConstantKind::None || kind == ConstantKind::Bool)
      return e->as<Constant>()->valueKind == ConstantKind::None
                 ? "`None`"
                 : (e->as<Constant>()->boolValue ? "`True`" : "`False`");
    if (kind == ConstantKind::Ellipsis)
      return "ellipsis";
    return "literal";
  }
  case NodeKind::JoinedStr:
    return "f-string expression";
  case NodeKind::BinOp:
  case NodeKind::UnaryOp:
    return "expression";
  case NodeKind::BoolOp:
    return "expression";
  case NodeKind::Compare:
    return "comparison";
  case NodeKind::IfExp:
    return "conditional expression";
  case NodeKind::Lambda:
    return "lambda";
  case NodeKind::NamedExpr:
    return "named expression";
  case NodeKind::Dict:
    return "dict literal";
  case NodeKind::Set:
    return "set display";
  case NodeKind::ListComp:
    return "list comprehension";
  case NodeKind::SetComp:
    return "set comprehension";
  case NodeKind::DictComp:
    return "dict comprehension";
  case NodeKind::GeneratorExp:
    return "generator expression";
  case NodeKind::Await:
    return "await expression";
  case NodeKind::Yield:
  case NodeKind::YieldFrom:
    return "yield expression";
  case NodeKind::Starred:
    return "starred";
  case NodeKind::Tuple:
    return "tuple";
  case NodeKind::List:
    return "list";
  case NodeKind::Attribute:
    return "attribute";
  case NodeKind::Subscript:
    return "subscript";
  case NodeKind::Name:
    return "name";
  default:
    return "expression";
  }
}

void AstBuilder::setContext(Expr* target, ExprContext context, const char* verb) {
  switch (target->kind) {
  case NodeKind::Name:
    target->as<Name>()->ctx = context;
    return;
  case NodeKind::Attribute:
    target->as<Attribute>()->ctx = context;
    return;
  case NodeKind::Subscript:
    target->as<Subscript>()->ctx = context;
    return;
  case NodeKind::Starred:
    if (context == ExprContext::Del) {
      diags_.report(DiagKind::InvalidTarget, target->range, {verb, "starred"});
      return;
    }
    target->as<Starred>()->ctx = context;
    setContext(target->as<Starred>()->value, context, verb);
    return;
  case NodeKind::Tuple:
    target->as<Tuple>()->ctx = context;
    for (Expr* e : target->as<Tuple>()->elts)
      setContext(e, context, verb);
    return;
  case NodeKind::List:
    target->as<List>()->ctx = context;
    for (Expr* e : target->as<List>()->elts)
      setContext(e, context, verb);
    return;
  default:
    diags_.report(DiagKind::InvalidTarget, target->range, {verb, describe(target)});
  }
}

} // namespace pyk::syntax
