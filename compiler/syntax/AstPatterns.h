// AstPatterns: the match-statement pattern nodes of pyk's syntax tree (Python's `ast.pattern`).
#pragma once

#include "syntax/AstExpressions.h"
#include "syntax/AstNode.h"

namespace pyk::ast {

struct MatchValue : Pattern {
  PYK_AST_CLASSOF(MatchValue)
  MatchValue() : Pattern(NodeKind::MatchValue) {}
  Expr* value = nullptr;
};

struct MatchSingleton : Pattern {
  PYK_AST_CLASSOF(MatchSingleton)
  MatchSingleton() : Pattern(NodeKind::MatchSingleton) {}
  Constant* value = nullptr; // None, True or False
};

struct MatchSequence : Pattern {
  PYK_AST_CLASSOF(MatchSequence)
  MatchSequence() : Pattern(NodeKind::MatchSequence) {}
  std::vector<Pattern*> patterns;
};

struct MatchMapping : Pattern {
  PYK_AST_CLASSOF(MatchMapping)
  MatchMapping() : Pattern(NodeKind::MatchMapping) {}
  std::vector<Expr*> keys;
  std::vector<Pattern*> patterns;
  std::string rest; // **rest, empty when absent
};

struct MatchClass : Pattern {
  PYK_AST_CLASSOF(MatchClass)
  MatchClass() : Pattern(NodeKind::MatchClass) {}
  Expr* cls = nullptr;
  std::vector<Pattern*> patterns;
  std::vector<std::string> kwdAttrs;
  std::vector<Pattern*> kwdPatterns;
};

struct MatchStar : Pattern {
  PYK_AST_CLASSOF(MatchStar)
  MatchStar() : Pattern(NodeKind::MatchStar) {}
  std::string name; // empty for *_
};

struct MatchAs : Pattern {
  PYK_AST_CLASSOF(MatchAs)
  MatchAs() : Pattern(NodeKind::MatchAs) {}
  Pattern* pattern = nullptr; // null for a bare capture or `_`
  std::string name;           // empty for `_`
};

struct MatchOr : Pattern {
  PYK_AST_CLASSOF(MatchOr)
  MatchOr() : Pattern(NodeKind::MatchOr) {}
  std::vector<Pattern*> patterns;
};

} // namespace pyk::ast
