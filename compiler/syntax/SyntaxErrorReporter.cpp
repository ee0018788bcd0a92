// SyntaxErrorReporter: turns ANTLR's parse errors into pyk diagnostics with Python-like messages.
#include "syntax/SyntaxErrorReporter.h"

#include "PythonLexer.h"
#include "PythonParser.h"

namespace pyk::syntax {

using grammar::PythonLexer;
using grammar::PythonParser;

SourceRange tokenRange(const antlr4::Token* token, const PositionMap& positions) {
  SourceLoc begin = positions.map(token->getLine(), token->getCharPositionInLine());
  if (token->getType() == antlr4::Token::EOF || token->getType() == PythonLexer::INDENT ||
      token->getType() == PythonLexer::DEDENT || token->getType() == PythonLexer::NEWLINE)
    return SourceRange(begin);
  std::string text = token->getText();
  size_t line = token->getLine();
  size_t column = token->getCharPositionInLine();
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      ++line;
      column = 0;
    } else if ((c & 0xC0) != 0x80) {
      ++column;
    }
  }
  return {begin, positions.map(line, column)};
}

namespace {

std::string quoted(const std::string& text) {
  return "`" + text + "`";
}

std::string describeFound(const antlr4::Token* token, bool inFString) {
  switch (token->getType()) {
  case antlr4::Token::EOF:
    return inFString ? "end of the expression" : "end of file";
  case PythonLexer::NEWLINE:
    return "end of line";
  case PythonLexer::INDENT:
    return "an indent";
  case PythonLexer::DEDENT:
    return "end of block";
  default:
    return quoted(token->getText());
  }
}

std::string describeExpectedToken(size_t type, const antlr4::dfa::Vocabulary& vocabulary) {
  switch (type) {
  case antlr4::Token::EOF:
    return "end of file";
  case PythonLexer::NAME:
    return "a name";
  case PythonLexer::NUMBER:
    return "a number";
  case PythonLexer::STRING:
    return "a string";
  case PythonLexer::NEWLINE:
    return "end of line";
  case PythonLexer::INDENT:
    return "an indented block";
  case PythonLexer::DEDENT:
    return "end of block";
  default: {
    std::string literal = vocabulary.getLiteralName(type);
    if (literal.size() >= 2 && literal.front() == '\'')
      return quoted(literal.substr(1, literal.size() - 2));
    return vocabulary.getDisplayName(type);
  }
  }
}

// "an expression", "`:`", "`)` or `,`", or "" when the set is too large to be useful.
std::string describeExpected(const antlr4::misc::IntervalSet& expected,
                             const antlr4::dfa::Vocabulary& vocabulary) {
  if (expected.contains(static_cast<size_t>(PythonLexer::NAME)) &&
      expected.contains(static_cast<size_t>(PythonLexer::NUMBER)) &&
      expected.contains(static_cast<size_t>(PythonLexer::LPAR)))
    return "an expression";
  std::vector<ssize_t> types = expected.toList();
  std::vector<std::string> names;
  for (ssize_t t : types) {
    if (t == PythonLexer::MATCH || t == PythonLexer::CASE)
      continue; // soft keywords come along with NAME
    names.push_back(describeExpectedToken(static_cast<size_t>(t), vocabulary));
  }
  if (names.empty() || names.size() > 3)
    return "";
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0)
      out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

// For "expected an indented block after ...": the compound statement being parsed.
std::string describeBlockOwner(antlr4::ParserRuleContext* ctx, const PositionMap& positions) {
  for (; ctx != nullptr; ctx = dynamic_cast<antlr4::ParserRuleContext*>(ctx->parent)) {
    size_t rule = ctx->getRuleIndex();
    std::string what;
    switch (rule) {
    case PythonParser::RuleFuncdef:
      what = "function definition";
      break;
    case PythonParser::RuleClassdef:
      what = "class definition";
      break;
    case PythonParser::RuleIf_stmt:
    case PythonParser::RuleElif_clause:
    case PythonParser::RuleElse_clause:
    case PythonParser::RuleWhile_stmt:
    case PythonParser::RuleFor_stmt:
    case PythonParser::RuleTry_stmt:
    case PythonParser::RuleExcept_clause:
    case PythonParser::RuleFinally_clause:
    case PythonParser::RuleWith_stmt:
    case PythonParser::RuleCase_block:
    case PythonParser::RuleMatch_stmt:
      what = quoted(ctx->getStart()->getText()) + " statement";
      break;
    default:
      continue;
    }
    SourceLoc at = positions.map(ctx->getStart()->getLine(), 0);
    return what + " on line " + std::to_string(at.line);
  }
  return "a statement";
}

} // namespace

void PythonErrorStrategy::reportNoViableAlternative(antlr4::Parser* recognizer,
                                                    const antlr4::NoViableAltException& e) {
  report(recognizer, e.getOffendingToken(), e.getExpectedTokens());
}

void PythonErrorStrategy::reportInputMismatch(antlr4::Parser* recognizer,
                                              const antlr4::InputMismatchException& e) {
  report(recognizer, e.getOffendingToken(), e.getExpectedTokens());
}

void PythonErrorStrategy::reportFailedPredicate(antlr4::Parser* recognizer,
                                                const antlr4::FailedPredicateException& e) {
  report(recognizer, e.getOffendingToken(), e.getExpectedTokens());
}

void PythonErrorStrategy::reportUnwantedToken(antlr4::Parser* recognizer) {
  if (inErrorRecoveryMode(recognizer))
    return;
  beginErrorCondition(recognizer);
  report(recognizer, recognizer->getCurrentToken(), getExpectedTokens(recognizer));
}

void PythonErrorStrategy::reportMissingToken(antlr4::Parser* recognizer) {
  if (inErrorRecoveryMode(recognizer))
    return;
  beginErrorCondition(recognizer);
  report(recognizer, recognizer->getCurrentToken(), getExpectedTokens(recognizer));
}

void PythonErrorStrategy::report(antlr4::Parser* recognizer, antlr4::Token* offending,
                                 const antlr4::misc::IntervalSet& expected) {
  if (offending == nullptr)
    offending = recognizer->getCurrentToken();
  SourceRange range = tokenRange(offending, positions_);
  // One error per line, and after the first error none at an indent, a dedent or the end of
  // the file: those are echoes of the first error from the parser's recovery.
  const size_t offendingType = offending->getType();
  if (cutoff_.valid() && !(range.begin < cutoff_))
    return;
  if (range.begin.line == lastLine_ || (errors_ > 0 && (offendingType == PythonLexer::INDENT ||
                                                        offendingType == PythonLexer::DEDENT ||
                                                        offendingType == antlr4::Token::EOF)))
    return;
  lastLine_ = range.begin.line;
  ++errors_;

  const antlr4::dfa::Vocabulary& vocabulary = recognizer->getVocabulary();
  const size_t type = offending->getType();
  const std::string found = describeFound(offending, inFString_);
  antlr4::TokenStream* tokens = recognizer->getTokenStream();
  antlr4::Token* previous = nullptr;
  for (ssize_t i = static_cast<ssize_t>(offending->getTokenIndex()) - 1; i >= 0; --i) {
    antlr4::Token* t = tokens->get(static_cast<size_t>(i));
    if (t->getChannel() == antlr4::Token::DEFAULT_CHANNEL) {
      previous = t;
      break;
    }
  }
  const DiagKind kind = inFString_ ? DiagKind::InvalidFString : DiagKind::SyntaxError;

  if (type == PythonLexer::INDENT) {
    diags_.report(DiagKind::UnexpectedIndent, range);
    return;
  }
  if (expected.contains(static_cast<size_t>(PythonLexer::INDENT))) {
    diags_.report(DiagKind::ExpectedIndent, range,
                  {describeBlockOwner(recognizer->getContext(), positions_)});
    return;
  }
  if (previous != nullptr && previous->getType() == PythonLexer::NAME &&
      previous->getText() == "print" &&
      (type == PythonLexer::STRING || type == PythonLexer::NAME || type == PythonLexer::NUMBER)) {
    diags_.report(kind, tokenRange(previous, positions_),
                  {"missing parentheses in call to `print`; did you mean `print(...)`?"});
    return;
  }
  if (type == PythonLexer::EQUAL &&
      (expected.contains(static_cast<size_t>(PythonLexer::COLON)) ||
       expected.contains(static_cast<size_t>(PythonLexer::EQEQUAL)))) {
    diags_.report(kind, range, {"`=` is assignment; did you mean `==` or `:=`?"});
    return;
  }
  if (type == PythonLexer::IF && previous != nullptr && previous->getType() == PythonLexer::ELSE) {
    diags_.report(kind, range, {"expected `:` after `else`; did you mean `elif`?"});
    return;
  }
  std::string wanted = describeExpected(expected, vocabulary);
  if (!wanted.empty()) {
    if (inFString_)
      diags_.report(DiagKind::InvalidFString, range, {"expected " + wanted + ", found " + found});
    else
      diags_.report(DiagKind::ExpectedToken, range, {wanted, found});
    return;
  }
  diags_.report(kind, range, {"unexpected " + found});
}

} // namespace pyk::syntax
