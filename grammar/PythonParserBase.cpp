// PythonParserBase: bounds the parser's recursion, so no input can overflow the stack.
#include "PythonParserBase.h"

namespace pyk::grammar {

namespace {
void checkDepth(antlr4::Parser& parser, antlr4::ParserRuleContext* ctx) {
  // depth() walks the parent chain; rule contexts are only ever created one level at a time, so
  // the walk stops as soon as the limit is passed.
  size_t depth = 0;
  for (antlr4::RuleContext* c = ctx; c != nullptr; c = static_cast<antlr4::RuleContext*>(c->parent))
    if (++depth > PythonParserBase::kMaxRuleDepth) {
      antlr4::Token* at = parser.getCurrentToken();
      throw NestingTooDeep(at->getLine(), at->getCharPositionInLine());
    }
}
} // namespace

void PythonParserBase::enterRule(antlr4::ParserRuleContext* localctx, size_t state,
                                 size_t ruleIndex) {
  checkDepth(*this, localctx);
  antlr4::Parser::enterRule(localctx, state, ruleIndex);
}

void PythonParserBase::enterRecursionRule(antlr4::ParserRuleContext* localctx, size_t state,
                                          size_t ruleIndex, int precedence) {
  checkDepth(*this, localctx);
  antlr4::Parser::enterRecursionRule(localctx, state, ruleIndex, precedence);
}

} // namespace pyk::grammar
