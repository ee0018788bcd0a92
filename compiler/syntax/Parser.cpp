// Parser: the front end's entry point, source text → AST (lexing, parsing, AST building).
#include "syntax/Parser.h"

#include <cstdio>
#include <functional>

#include "PythonLexer.h"
#include "PythonParser.h"
#include "base/LargeStack.h"
#include "syntax/AstBuilder.h"
#include "syntax/ParseRunner.h"
#include "syntax/SyntaxErrorReporter.h"

namespace pyk {

namespace {

using grammar::LexicalProblem;
using syntax::PositionMap;

} // namespace

namespace {

// The byte offset of the first byte that is not part of valid UTF-8, or npos.
size_t findInvalidUtf8(const std::string& text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t n = text.size();
  for (size_t i = 0; i < n;) {
    unsigned char c = s[i];
    size_t len;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return i;
    }
    if (i + len > n)
      return i;
    for (size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80)
        return i;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
      return i;
    i += len;
  }
  return std::string::npos;
}

std::string hexByte(unsigned char c) {
  char buffer[3];
  std::snprintf(buffer, sizeof buffer, "%02X", c);
  return buffer;
}

std::string describeCharacter(const std::string& text, std::string& codePoint) {
  // Decode the (valid UTF-8) character for its code point.
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  uint32_t cp = s[0];
  if (s[0] >= 0xF0 && text.size() >= 4)
    cp = ((s[0] & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
  else if (s[0] >= 0xE0 && text.size() >= 3)
    cp = ((s[0] & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
  else if (s[0] >= 0xC0 && text.size() >= 2)
    cp = ((s[0] & 0x1Fu) << 6) | (s[1] & 0x3Fu);
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04X", cp);
  codePoint = buffer;
  if (cp < 0x20 || cp == 0x7F)
    return "\\x" + hexByte(static_cast<unsigned char>(cp));
  return text;
}

void reportLexicalProblems(const std::vector<LexicalProblem>& problems,
                           const PositionMap& positions, DiagnosticEngine& diags) {
  for (const LexicalProblem& p : problems) {
    SourceRange r(positions.map(p.line, p.column), positions.map(p.endLine, p.endColumn));
    switch (p.kind) {
    case LexicalProblem::Kind::InvalidCharacter: {
      std::string codePoint;
      std::string shown = describeCharacter(p.text, codePoint);
      diags.report(DiagKind::InvalidCharacter, r, {shown, codePoint});
      break;
    }
    case LexicalProblem::Kind::UnterminatedString:
      diags.report(DiagKind::UnterminatedString, SourceRange(r.begin));
      break;
    case LexicalProblem::Kind::UnterminatedTripleString:
      diags.report(DiagKind::UnterminatedTripleString, SourceRange(r.begin));
      break;
    case LexicalProblem::Kind::BadLineContinuation:
      diags.report(DiagKind::BadLineContinuation, r);
      break;
    case LexicalProblem::Kind::LeadingZeroNumber:
      diags.report(DiagKind::LeadingZeros, r);
      break;
    case LexicalProblem::Kind::InconsistentDedent:
      diags.report(DiagKind::InconsistentDedent, SourceRange(r.begin));
      break;
    case LexicalProblem::Kind::TabSpaceMix:
      diags.report(DiagKind::TabSpaceMix, SourceRange(r.begin));
      break;
    case LexicalProblem::Kind::TooDeepIndentation:
      diags.report(DiagKind::TooDeepIndentation, SourceRange(r.begin),
                   {std::to_string(grammar::PythonLexerBase::kMaxIndentLevels)});
      break;
    case LexicalProblem::Kind::TooManyBrackets:
      diags.report(DiagKind::TooManyBrackets, r,
                   {std::to_string(grammar::PythonLexerBase::kMaxBracketDepth)});
      break;
    case LexicalProblem::Kind::UnmatchedClosingBracket:
      diags.report(DiagKind::UnmatchedClosingBracket, r, {p.text});
      break;
    case LexicalProblem::Kind::MismatchedBracket:
      diags.report(DiagKind::MismatchedBracket, r, {p.text, p.otherText});
      diags.note(DiagKind::NoteOpenedHere,
                 SourceRange(positions.map(p.otherLine, p.otherColumn),
                             positions.map(p.otherLine, p.otherColumn + 1)),
                 {p.otherText});
      break;
    case LexicalProblem::Kind::UnclosedBracket:
      diags.report(DiagKind::UnclosedBracket, r, {p.text});
      break;
    }
  }
}

// Lexes and parses `text` with the rule `entry`, then hands the tree to `build` while the parser
// (which owns the tree) is alive. Returns false when any error was reported.
template <class Tree, class Entry, class Build>
bool parseText(const std::string& text, const PositionMap& positions, bool inFString,
               DiagnosticEngine& diags, Entry entry, Build build) {
  antlr4::ANTLRInputStream input(text);
  grammar::PythonLexer lexer(&input);
  lexer.removeErrorListeners(); // the catch-all ERROR_CHAR rule means it never reports
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();
  grammar::PythonParser parser(&tokens);
  parser.removeErrorListeners();

  if (!lexer.problems().empty()) {
    // Syntax errors before the first lexical error are as real as it is: parse for them, then
    // report both. Nothing past the lexical error is trusted.
    SourceLoc first;
    for (const LexicalProblem& p : lexer.problems()) {
      SourceLoc at = positions.map(p.line, p.column);
      if (!first.valid() || at < first)
        first = at;
    }
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::LL);
    parser.setErrorHandler(
        std::make_shared<syntax::PythonErrorStrategy>(diags, positions, inFString, first));
    try {
      (parser.*entry)();
    } catch (const grammar::NestingTooDeep&) {
      // the lexical error below is reported; the nesting is past it or beside the point
    }
    reportLexicalProblems(lexer.problems(), positions, diags);
    return false;
  }

  Tree* tree = nullptr;
  try {
    // Fast path: SLL prediction, bailing out at the first error ...
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::SLL);
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
    try {
      tree = (parser.*entry)();
    } catch (antlr4::ParseCancellationException&) {
      // ... then full LL with error recovery and reporting, only for inputs that need it.
      tokens.seek(0);
      parser.reset();
      parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
          antlr4::atn::PredictionMode::LL);
      auto strategy = std::make_shared<syntax::PythonErrorStrategy>(diags, positions, inFString);
      parser.setErrorHandler(strategy);
      tree = (parser.*entry)();
      if (strategy->errorCount() > 0)
        return false;
    }
  } catch (const grammar::NestingTooDeep& e) {
    diags.report(DiagKind::NestingTooDeep, SourceRange(positions.map(e.line, e.column)),
                 {std::to_string(grammar::PythonParserBase::kMaxRuleDepth)});
    return false;
  }
  unsigned errorsBefore = diags.errorCount();
  build(tree, tokens);
  return diags.errorCount() == errorsBefore;
}

} // namespace

namespace syntax {
ast::Expr* parseFStringField(const std::string& text, PositionMap positions,
                             ast::AstContext& context, DiagnosticEngine& diags) {
  ast::Expr* result = nullptr;
  parseText<grammar::PythonParser::Fstring_exprContext>(
      text, positions, true, diags, &grammar::PythonParser::fstring_expr,
      [&](grammar::PythonParser::Fstring_exprContext* tree, antlr4::TokenStream& tokens) {
        AstBuilder builder(context, diags, &tokens, positions);
        result = builder.buildFStringExpression(tree);
      });
  return result;
}
} // namespace syntax

ParseResult parseModule(const SourceFile& file, DiagnosticEngine& diags) {
  ParseResult result;
  const unsigned errorsBefore = diags.errorCount();
  result.context = std::make_unique<ast::AstContext>();
  const std::string& text = file.text();

  if (size_t bad = findInvalidUtf8(text); bad != std::string::npos) {
    diags.report(DiagKind::InvalidUtf8, SourceRange(file.locationOfOffset(bad)),
                 {hexByte(static_cast<unsigned char>(text[bad]))});
    return result;
  }
  if (size_t nul = text.find('\0'); nul != std::string::npos) {
    diags.report(DiagKind::NulByte, SourceRange(file.locationOfOffset(nul)));
    return result;
  }

  PositionMap positions;
  std::string body = text;
  if (body.rfind("\xEF\xBB\xBF", 0) == 0) {
    body.erase(0, 3); // a UTF-8 byte-order mark: invisible, but it is column 1 of line 1
    positions.column = 2;
  }

  base::runWithLargeStack([&] {
    try {
      parseText<grammar::PythonParser::File_inputContext>(
          body, positions, false, diags, &grammar::PythonParser::file_input,
          [&](grammar::PythonParser::File_inputContext* tree, antlr4::TokenStream& tokens) {
            syntax::AstBuilder builder(*result.context, diags, &tokens, positions);
            result.module = builder.buildModule(tree);
          });
    } catch (const std::exception& e) {
      diags.report(DiagKind::InternalError, SourceRange(), {e.what()});
    }
  });
  if (diags.errorCount() != errorsBefore)
    result.module = nullptr;
  return result;
}

} // namespace pyk
