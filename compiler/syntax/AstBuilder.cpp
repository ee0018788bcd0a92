// AstBuilder: turns an ANTLR parse tree into pyk's AST in one pass (Kuzu's Transformer).
// This file: positions, the module and its statement blocks, and assignment-target checks; each
// family of constructs has a file of its own (AstBuilderSimpleStatements.cpp,
// AstBuilderCompoundStatements.cpp, AstBuilderArguments.cpp, AstBuilderOperators.cpp,
// AstBuilderAtoms.cpp, AstBuilderDisplays.cpp, AstBuilderPatterns.cpp).
#include "syntax/AstBuilder.h"

namespace pyk::syntax {

using namespace pyk::ast;

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
