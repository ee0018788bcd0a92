// PythonParserBase: bounds the parser's recursion, so no input can overflow the stack.
#pragma once

#include <antlr4-runtime.h>

#include <stdexcept>

namespace pyk::grammar {

// Thrown out of the parser when rules nest deeper than the limit; carries the token it was at.
class NestingTooDeep : public std::runtime_error {
public:
  NestingTooDeep(size_t line, size_t column)
      : std::runtime_error("nesting too deep"), line(line), column(column) {}
  size_t line;
  size_t column;
};

class PythonParserBase : public antlr4::Parser {
public:
  // Rule invocations a parse may nest. An expression costs about 20 per level of brackets, so
  // CPython's 200 brackets need ~4000; the parser runs on a thread with a large stack.
  static constexpr size_t kMaxRuleDepth = 6000;

  explicit PythonParserBase(antlr4::TokenStream* input) : antlr4::Parser(input) {}

  void enterRule(antlr4::ParserRuleContext* localctx, size_t state, size_t ruleIndex) override;
  void enterRecursionRule(antlr4::ParserRuleContext* localctx, size_t state, size_t ruleIndex,
                          int precedence) override;
};

} // namespace pyk::grammar
