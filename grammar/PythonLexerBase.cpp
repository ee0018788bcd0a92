// PythonLexerBase: turns the raw token stream into Python's logical lines (INDENT, DEDENT,
// NEWLINE only outside brackets and after non-blank lines) and records lexical errors.
#include "PythonLexerBase.h"

#include "PythonLexer.h"

namespace pyk::grammar {

using antlr4::Token;
using Kind = LexicalProblem::Kind;

PythonLexerBase::PythonLexerBase(antlr4::CharStream* input) : antlr4::Lexer(input) {
  indents_.push_back({0, 0});
}

void PythonLexerBase::reset() {
  antlr4::Lexer::reset();
  pending_.clear();
  indents_.assign(1, {0, 0});
  brackets_.clear();
  problems_.clear();
  atLineStart_ = true;
  sawToken_ = false;
  finished_ = false;
  lastType_ = 0;
}

std::unique_ptr<Token> PythonLexerBase::nextToken() {
  while (pending_.empty()) {
    std::unique_ptr<Token> raw = antlr4::Lexer::nextToken();
    if (raw->getType() == Token::EOF) {
      finish(*raw);
      pending_.push_back(std::move(raw));
      break;
    }
    process(std::move(raw));
  }
  std::unique_ptr<Token> next = std::move(pending_.front());
  pending_.pop_front();
  if (next->getType() == Token::EOF && pending_.empty()) {
    // Keep answering EOF: ANTLR may ask again.
    pending_.push_back(makeToken(Token::EOF, "<EOF>", *next));
  }
  return next;
}

std::unique_ptr<Token> PythonLexerBase::makeToken(size_t type, const std::string& text,
                                                  const Token& at) {
  return _factory->create({this, _input}, type, text, Token::DEFAULT_CHANNEL, at.getStartIndex(),
                          at.getStartIndex() == 0 ? 0 : at.getStartIndex() - 1, at.getLine(),
                          at.getCharPositionInLine());
}

void PythonLexerBase::problem(Kind kind, const Token& token) {
  std::string text = token.getText();
  size_t endLine = token.getLine();
  size_t endColumn = token.getCharPositionInLine();
  // The end of the token: count code points after the last newline of its text.
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++endLine;
      endColumn = 0;
    } else if ((c & 0xC0) != 0x80) {
      ++endColumn;
    }
  }
  problems_.push_back(
      {kind, token.getLine(), token.getCharPositionInLine(), endLine, endColumn, text, {}, 0, 0});
}

void PythonLexerBase::process(std::unique_ptr<Token> token) {
  const size_t type = token->getType();
  const size_t previousType = lastType_;
  const size_t previousStop = lastStop_;
  const std::string previousText = std::move(lastText_);
  lastType_ = type;
  lastStop_ = token->getStopIndex();
  lastText_ = type == PythonLexer::STRING ? token->getText() : std::string();

  if (token->getChannel() != Token::DEFAULT_CHANNEL)
    return; // whitespace, comments and line continuations never reach the parser

  if (type == PythonLexer::NEWLINE) {
    if (!brackets_.empty() || atLineStart_)
      return; // a newline inside brackets, or one ending a blank or comment-only line
    atLineStart_ = true;
    pending_.push_back(std::move(token));
    return;
  }

  if (atLineStart_) {
    atLineStart_ = false;
    handleLineStart(*token);
    if (finished_)
      return;
  }
  sawToken_ = true;

  switch (type) {
  case PythonLexer::LPAR:
  case PythonLexer::LSQB:
  case PythonLexer::LBRACE:
    if (brackets_.size() >= kMaxBracketDepth) {
      problem(Kind::TooManyBrackets, *token);
      // Stop here: everything after is unreliable, and deeper nesting is what we refuse.
      pending_.push_back(makeToken(Token::EOF, "<EOF>", *token));
      finished_ = true;
      return;
    }
    brackets_.push_back({type, token->getText(), token->getLine(), token->getCharPositionInLine()});
    break;
  case PythonLexer::RPAR:
  case PythonLexer::RSQB:
  case PythonLexer::RBRACE: {
    size_t expected = type == PythonLexer::RPAR   ? PythonLexer::LPAR
                      : type == PythonLexer::RSQB ? PythonLexer::LSQB
                                                  : PythonLexer::LBRACE;
    if (!brackets_.empty() && brackets_.back().type == expected) {
      brackets_.pop_back();
      break;
    }
    if (brackets_.empty()) {
      problem(Kind::UnmatchedClosingBracket, *token);
    } else {
      problem(Kind::MismatchedBracket, *token);
      problems_.back().otherText = brackets_.back().text;
      problems_.back().otherLine = brackets_.back().line;
      problems_.back().otherColumn = brackets_.back().column;
    }
    // As in CPython, a bracket error ends tokenizing: what follows would only echo it.
    pending_.push_back(makeToken(Token::EOF, "<EOF>", *token));
    finished_ = true;
    return;
  }
  case PythonLexer::ERROR_CHAR:
    problem(token->getText() == "\\" ? Kind::BadLineContinuation : Kind::InvalidCharacter, *token);
    break;
  case PythonLexer::LEADING_ZERO_NUMBER:
    problem(Kind::LeadingZeroNumber, *token);
    break;
  case PythonLexer::UNTERMINATED_STRING: {
    // `"""abc` lexes as the empty string `""` followed by the unterminated `"abc`: that is an
    // unterminated triple-quoted string starting at the empty string.
    std::string text = token->getText();
    size_t quote = text.find_first_of("'\"");
    bool triple =
        previousType == PythonLexer::STRING && previousStop + 1 == token->getStartIndex() &&
        quote == 0 && previousText.size() >= 2 && previousText.size() <= 4 &&
        previousText.back() == text[0] && previousText[previousText.size() - 2] == text[0];
    if (triple) {
      problem(Kind::UnterminatedTripleString, *token);
      // Point at the opening quotes (and prefix), where the empty string began.
      LexicalProblem& p = problems_.back();
      p.column = p.column >= previousText.size() ? p.column - previousText.size() : 0;
      // The string runs to the end of the file: nothing after it is real code.
      pending_.push_back(makeToken(Token::EOF, "<EOF>", *token));
      finished_ = true;
      return;
    } else {
      problem(Kind::UnterminatedString, *token);
    }
    break;
  }
  default:
    break;
  }
  pending_.push_back(std::move(token));
}

void PythonLexerBase::handleLineStart(const Token& first) {
  // Measure the indentation of the first token's physical line from the character stream.
  size_t start = first.getStartIndex();
  size_t column = first.getCharPositionInLine();
  size_t lineStart = start - column;
  std::string leading =
      column == 0 ? std::string() : _input->getText(antlr4::misc::Interval(lineStart, start - 1));
  Indent indent{0, 0};
  for (char c : leading) {
    if (c == ' ') {
      ++indent.tabsAsEight;
      ++indent.tabsAsOne;
    } else if (c == '\t') {
      indent.tabsAsEight = (indent.tabsAsEight / 8 + 1) * 8;
      ++indent.tabsAsOne;
    } else if (c == '\f') {
      indent = {0, 0};
    } else {
      break; // the token's line began with something else (a continued string, say)
    }
  }

  const Indent& top = indents_.back();
  if (indent.tabsAsEight > top.tabsAsEight) {
    if (indent.tabsAsOne <= top.tabsAsOne)
      problem(Kind::TabSpaceMix, first);
    if (indents_.size() > kMaxIndentLevels) {
      problem(Kind::TooDeepIndentation, first);
      pending_.push_back(makeToken(Token::EOF, "<EOF>", first));
      finished_ = true;
      return;
    }
    indents_.push_back(indent);
    pending_.push_back(makeToken(PythonLexer::INDENT, "<INDENT>", first));
    return;
  }
  if (indent.tabsAsEight == top.tabsAsEight) {
    if (indent.tabsAsOne != top.tabsAsOne)
      problem(Kind::TabSpaceMix, first);
    return;
  }
  while (indents_.size() > 1 && indent.tabsAsEight < indents_.back().tabsAsEight) {
    indents_.pop_back();
    pending_.push_back(makeToken(PythonLexer::DEDENT, "<DEDENT>", first));
  }
  if (indent.tabsAsEight != indents_.back().tabsAsEight)
    problem(Kind::InconsistentDedent, first);
  else if (indent.tabsAsOne != indents_.back().tabsAsOne)
    problem(Kind::TabSpaceMix, first);
}

void PythonLexerBase::finish(const Token& eof) {
  if (finished_)
    return;
  finished_ = true;
  if (!brackets_.empty()) {
    const OpenBracket& open = brackets_.front();
    problems_.push_back({Kind::UnclosedBracket,
                         open.line,
                         open.column,
                         open.line,
                         open.column + 1,
                         open.text,
                         {},
                         0,
                         0});
  }
  if (sawToken_ && !atLineStart_)
    pending_.push_back(makeToken(PythonLexer::NEWLINE, "<NEWLINE>", eof));
  while (indents_.size() > 1) {
    indents_.pop_back();
    pending_.push_back(makeToken(PythonLexer::DEDENT, "<DEDENT>", eof));
  }
}

} // namespace pyk::grammar
