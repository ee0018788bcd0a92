// SyntaxErrorReporter: turns ANTLR's parse errors into pyk diagnostics with Python-like messages.
// Internal to syntax/: only Parser.cpp and AstBuilder.cpp include it.
#pragma once

#include <antlr4-runtime.h>

#include <functional>
#include <string>

#include "diag/DiagnosticEngine.h"

namespace pyk::syntax {

// Maps a token position of the text being parsed to a file position (f-string fields are parsed
// from a substring of the file).
struct PositionMap {
  uint32_t line = 1;   // file line of the parsed text's line 1
  uint32_t column = 1; // file column (1-based) of the parsed text's first character
  // The file location of an ANTLR position (1-based line, 0-based column).
  SourceLoc map(size_t antlrLine, size_t antlrColumn) const {
    if (antlrLine <= 1)
      return {line, static_cast<uint32_t>(column + antlrColumn)};
    return {static_cast<uint32_t>(line + antlrLine - 1), static_cast<uint32_t>(antlrColumn + 1)};
  }
};

// An error strategy that recovers like ANTLR's default one but reports through pyk's
// diagnostics: one error per source line, with targeted messages for common mistakes.
class PythonErrorStrategy : public antlr4::DefaultErrorStrategy {
public:
  // Errors at or after `cutoff` (when valid) are dropped: they follow a lexical error that is
  // reported instead.
  PythonErrorStrategy(DiagnosticEngine& diags, PositionMap positions, bool inFString,
                      SourceLoc cutoff = {})
      : diags_(diags), positions_(positions), inFString_(inFString), cutoff_(cutoff) {}

  unsigned errorCount() const { return errors_; }

protected:
  void reportNoViableAlternative(antlr4::Parser* recognizer,
                                 const antlr4::NoViableAltException& e) override;
  void reportInputMismatch(antlr4::Parser* recognizer,
                           const antlr4::InputMismatchException& e) override;
  void reportFailedPredicate(antlr4::Parser* recognizer,
                             const antlr4::FailedPredicateException& e) override;
  void reportUnwantedToken(antlr4::Parser* recognizer) override;
  void reportMissingToken(antlr4::Parser* recognizer) override;

private:
  void report(antlr4::Parser* recognizer, antlr4::Token* offending,
              const antlr4::misc::IntervalSet& expected);

  DiagnosticEngine& diags_;
  PositionMap positions_;
  bool inFString_;
  SourceLoc cutoff_;
  unsigned errors_ = 0;
  size_t lastLine_ = 0;
};

// The range a token covers in the file.
SourceRange tokenRange(const antlr4::Token* token, const PositionMap& positions);

} // namespace pyk::syntax
