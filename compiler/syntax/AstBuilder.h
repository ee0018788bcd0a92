// AstBuilder: turns an ANTLR parse tree into pyk's AST in one pass (Kuzu's Transformer).
// Internal to syntax/: with Parser.cpp, the only code outside grammar/ that sees ANTLR types. Its
// functions are defined by construct family, one file each (the file names are beside the groups
// below).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "PythonLexer.h"
#include "PythonParser.h"
#include "diag/DiagnosticEngine.h"
#include "syntax/Ast.h"
#include "syntax/FStringParser.h"
#include "syntax/SyntaxErrorReporter.h"

namespace pyk::syntax {

class AstBuilder {
public:
  AstBuilder(ast::AstContext& context, DiagnosticEngine& diags, antlr4::TokenStream* tokens,
             PositionMap positions = {})
      : ctx_(context), diags_(diags), tokens_(tokens), positions_(positions) {}

  ast::Module* buildModule(grammar::PythonParser::File_inputContext* tree);
  // The expression of an f-string field, parsed from "(" + text + ")".
  ast::Expr* buildFStringExpression(grammar::PythonParser::Fstring_exprContext* tree);

private:
  using P = grammar::PythonParser;

  // ---- positions (AstBuilder.cpp) ----
  SourceLoc begin(const antlr4::Token* token) const;
  SourceLoc end(const antlr4::Token* token) const;
  SourceRange range(antlr4::ParserRuleContext* rule) const;
  SourceRange range(const antlr4::Token* token) const;
  SourceRange range(antlr4::tree::TerminalNode* node) const { return range(node->getSymbol()); }
  template <class T>
  T* make(SourceRange r) {
    return ctx_.make<T>(r);
  }

  // ---- statements (AstBuilder.cpp: statement, block; AstBuilderSimpleStatements.cpp,
  // AstBuilderCompoundStatements.cpp) ----
  void statement(P::StmtContext* s, std::vector<ast::Stmt*>& out);
  ast::Stmt* simpleStatement(P::Simple_stmtContext* s);
  ast::Stmt* expressionStatement(P::Expr_stmtContext* s);
  ast::Stmt* compoundStatement(P::Compound_stmtContext* s);
  std::vector<ast::Stmt*> block(P::BlockContext* b);
  ast::Stmt* ifStatement(P::If_stmtContext* s);
  ast::Stmt* whileStatement(P::While_stmtContext* s);
  ast::Stmt* forStatement(P::For_stmtContext* s, bool isAsync, SourceRange r);
  ast::Stmt* tryStatement(P::Try_stmtContext* s);
  ast::Stmt* withStatement(P::With_stmtContext* s, bool isAsync, SourceRange r);
  ast::Stmt* functionDefinition(P::FuncdefContext* f, std::vector<ast::Expr*> decorators,
                                bool isAsync, SourceRange r);
  ast::Stmt* classDefinition(P::ClassdefContext* c, std::vector<ast::Expr*> decorators,
                             SourceRange r);
  ast::Stmt* decorated(P::DecoratedContext* d);
  ast::Stmt* importStatement(P::Import_stmtContext* s);
  ast::Stmt* matchStatement(P::Match_stmtContext* s);

  // ---- parameters and arguments (AstBuilderArguments.cpp) ----
  struct Parameter {
    enum Kind { Plain, Star, DoubleStar, Slash } kind;
    std::string name;
    SourceRange range;
    ast::Expr* annotation = nullptr;
    ast::Expr* defaultValue = nullptr;
  };
  void arguments(std::vector<Parameter> params, ast::Arguments& out, SourceRange where);
  void typedArguments(P::TypedargslistContext* list, ast::Arguments& out);
  void lambdaArguments(P::VarargslistContext* list, ast::Arguments& out);
  void callArguments(P::ArglistContext* list, std::vector<ast::Expr*>& args,
                     std::vector<ast::Keyword>& keywords);

  // ---- expressions (AstBuilderOperators.cpp; atom, strings, number: AstBuilderAtoms.cpp;
  // testlistComp, dictOrSet, comprehensions: AstBuilderDisplays.cpp) ----
  ast::Expr* namedTest(P::Namedexpr_testContext* e);
  ast::Expr* test(P::TestContext* e);
  ast::Expr* testNoCond(P::Test_nocondContext* e);
  ast::Expr* lambda(P::VarargslistContext* args, antlr4::ParserRuleContext* whole, ast::Expr* body);
  ast::Expr* orTest(P::Or_testContext* e);
  ast::Expr* andTest(P::And_testContext* e);
  ast::Expr* notTest(P::Not_testContext* e);
  ast::Expr* comparison(P::ComparisonContext* e);
  ast::Expr* starExpr(P::Star_exprContext* e);
  ast::Expr* expr(P::ExprContext* e);
  ast::Expr* binaryChain(antlr4::ParserRuleContext* e);
  ast::Expr* factor(P::FactorContext* e);
  ast::Expr* power(P::PowerContext* e);
  ast::Expr* atomExpr(P::Atom_exprContext* e);
  ast::Expr* atom(P::AtomContext* e);
  ast::Expr* strings(const std::vector<antlr4::tree::TerminalNode*>& tokens, SourceRange r);
  ast::Expr* number(antlr4::tree::TerminalNode* token);
  ast::Expr* testlistComp(P::Testlist_compContext* e, bool list, SourceRange r);
  ast::Expr* dictOrSet(P::DictorsetmakerContext* e, SourceRange r);
  ast::Expr* subscriptList(P::SubscriptlistContext* e);
  ast::Expr* subscript(P::SubscriptContext* e);
  ast::Expr* exprList(P::ExprlistContext* e);
  ast::Expr* testListStar(P::Testlist_star_exprContext* e);
  ast::Expr* yieldExpr(P::Yield_exprContext* e);
  std::vector<ast::Comprehension> comprehensions(P::Comp_forContext* e);
  // A sequence of elements separated by commas: the element itself when there is one and no
  // comma, else a Tuple.
  ast::Expr* tupleOrSingle(antlr4::ParserRuleContext* e, bool parenthesized = false);
  ast::Expr* element(antlr4::ParserRuleContext* e);

  // ---- f-strings (AstBuilderAtoms.cpp) ----
  void fstringParts(const std::vector<FStringPart>& parts, std::string_view token,
                    size_t bodyOffset, const antlr4::Token* at, std::vector<ast::Expr*>& out);
  SourceLoc locationInToken(const antlr4::Token* token, size_t byteOffset) const;

  // ---- patterns (AstBuilderPatterns.cpp) ----
  ast::Pattern* patterns(P::PatternsContext* p);
  ast::Pattern* pattern(P::PatternContext* p);
  ast::Pattern* orPattern(P::Or_patternContext* p);
  ast::Pattern* closedPattern(P::Closed_patternContext* p);
  ast::Pattern* literalPattern(P::Literal_patternContext* p);
  ast::Pattern* sequence(const std::vector<P::Maybe_star_patternContext*>& items, SourceRange r);
  ast::Expr* signedNumber(P::Signed_numberContext* n);
  ast::Expr* dottedName(const std::vector<P::NameContext*>& names);

  // ---- checks (AstBuilder.cpp) ----
  // Sets the Store/Del context of an assignment target, reporting what cannot be assigned.
  void setContext(ast::Expr* target, ast::ExprContext context, const char* verb);
  std::string describe(const ast::Expr* e) const;
  std::string nameText(P::NameContext* n) const { return n->getText(); }

  ast::AstContext& ctx_;
  DiagnosticEngine& diags_;
  antlr4::TokenStream* tokens_;
  PositionMap positions_;
  int loopDepth_ = 0;
  int functionDepth_ = 0;
};

} // namespace pyk::syntax
