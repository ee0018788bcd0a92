// PythonLexerBase: turns the raw token stream into Python's logical lines (INDENT, DEDENT,
// NEWLINE only outside brackets and after non-blank lines) and records lexical errors.
#pragma once

#include <antlr4-runtime.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace pyk::grammar {

// A problem found while lexing. Positions are ANTLR's: 1-based line, 0-based column in code points.
struct LexicalProblem {
  enum class Kind {
    InvalidCharacter,
    UnterminatedString,
    UnterminatedTripleString,
    BadLineContinuation,
    LeadingZeroNumber,
    InconsistentDedent,
    TabSpaceMix,
    TooDeepIndentation,
    TooManyBrackets,
    UnmatchedClosingBracket,
    MismatchedBracket,
    UnclosedBracket,
  };
  Kind kind;
  size_t line;
  size_t column;
  size_t endLine;
  size_t endColumn;
  std::string text;      // the offending token's text
  std::string otherText; // the opening bracket, for bracket problems
  size_t otherLine = 0;
  size_t otherColumn = 0;
};

class PythonLexerBase : public antlr4::Lexer {
public:
  static constexpr size_t kMaxIndentLevels = 100; // as CPython
  static constexpr size_t kMaxBracketDepth = 200; // as CPython

  explicit PythonLexerBase(antlr4::CharStream* input);

  std::unique_ptr<antlr4::Token> nextToken() override;
  void reset() override;

  const std::vector<LexicalProblem>& problems() const { return problems_; }

private:
  struct Indent {
    size_t tabsAsEight; // the indentation with tabs to the next multiple of 8 (Python's rule)
    size_t tabsAsOne;   // with a tab counted as one column, to detect inconsistent tab use
  };
  struct OpenBracket {
    size_t type;
    std::string text;
    size_t line;
    size_t column;
  };

  void process(std::unique_ptr<antlr4::Token> token);
  void handleLineStart(const antlr4::Token& first);
  void finish(const antlr4::Token& eof);
  std::unique_ptr<antlr4::Token> makeToken(size_t type, const std::string& text,
                                           const antlr4::Token& at);
  void problem(LexicalProblem::Kind kind, const antlr4::Token& token);

  std::deque<std::unique_ptr<antlr4::Token>> pending_;
  std::vector<Indent> indents_;
  std::vector<OpenBracket> brackets_;
  std::vector<LexicalProblem> problems_;
  bool atLineStart_ = true; // no significant token yet on the current logical line
  bool sawToken_ = false;   // any significant token so far
  bool finished_ = false;   // EOF queued
  size_t lastType_ = 0;     // previous raw token type (for triple-quote detection)
  size_t lastStop_ = 0;     // its stop index
  std::string lastText_;    // its text, when it was a STRING
};

} // namespace pyk::grammar
