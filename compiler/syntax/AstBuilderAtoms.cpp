// AstBuilderAtoms: AstBuilder's atoms: parenthesised forms, names, numbers, `None` / `True` /
// `False` / `...`, and string literals (concatenated, escapes decoded, f-strings split into their
// fields).
#include "syntax/AstBuilder.h"

#include "syntax/LiteralParser.h"
#include "syntax/ParseRunner.h"

namespace pyk::syntax {

using namespace pyk::ast;
using antlr4::tree::TerminalNode;

// ---- atoms --------------------------------------------------------------------------------------

Expr* AstBuilder::atom(P::AtomContext* e) {
  SourceRange r = range(e);
  if (auto* paren = dynamic_cast<P::ParenAtomContext*>(e)) {
    if (paren->yield_expr())
      return yieldExpr(paren->yield_expr());
    if (paren->testlist_comp() == nullptr) {
      auto* tuple = make<Tuple>(r);
      tuple->parenthesized = true;
      return tuple;
    }
    Expr* inner = testlistComp(paren->testlist_comp(), false, r);
    if (auto* tuple = inner->as<Tuple>()) {
      tuple->parenthesized = true;
      tuple->range = r; // as in CPython, a parenthesised tuple includes its parentheses
    }
    return inner;
  }
  if (auto* list = dynamic_cast<P::ListAtomContext*>(e)) {
    if (list->testlist_comp() == nullptr)
      return make<List>(r);
    return testlistComp(list->testlist_comp(), true, r);
  }
  if (auto* brace = dynamic_cast<P::BraceAtomContext*>(e)) {
    if (brace->dictorsetmaker() == nullptr)
      return make<Dict>(r);
    return dictOrSet(brace->dictorsetmaker(), r);
  }
  if (auto* name = dynamic_cast<P::NameAtomContext*>(e)) {
    auto* node = make<Name>(r);
    node->id = nameText(name->name());
    return node;
  }
  if (auto* num = dynamic_cast<P::NumberAtomContext*>(e))
    return number(num->NUMBER());
  if (auto* str = dynamic_cast<P::StringAtomContext*>(e))
    return strings(str->STRING(), r);
  auto* c = make<Constant>(r);
  if (dynamic_cast<P::EllipsisAtomContext*>(e)) {
    c->valueKind = ConstantKind::Ellipsis;
  } else if (dynamic_cast<P::NoneAtomContext*>(e)) {
    c->valueKind = ConstantKind::None;
  } else {
    c->valueKind = ConstantKind::Bool;
    c->boolValue = dynamic_cast<P::TrueAtomContext*>(e) != nullptr;
  }
  return c;
}

Expr* AstBuilder::number(TerminalNode* token) {
  auto* c = make<Constant>(range(token));
  std::string text = token->getText();
  c->spelling = text;
  char last = static_cast<char>(text.back() | 0x20);
  bool hex = text.size() > 1 && (text[1] == 'x' || text[1] == 'X');
  if (last == 'j') {
    c->valueKind = ConstantKind::Complex;
    c->floatValue = parseFloatLiteral(text);
  } else if (!hex && text.find_first_of(".eE") != std::string::npos) {
    c->valueKind = ConstantKind::Float;
    c->floatValue = parseFloatLiteral(text);
  } else {
    c->valueKind = ConstantKind::Int;
    IntegerValue v = parseIntegerLiteral(text);
    c->intValue = v.value;
    c->intTooLarge = v.tooLarge;
  }
  return c;
}

// ---- strings and f-strings ----------------------------------------------------------------------

SourceLoc AstBuilder::locationInToken(const antlr4::Token* token, size_t byteOffset) const {
  std::string text = token->getText();
  size_t line = token->getLine();
  size_t column = token->getCharPositionInLine();
  for (size_t i = 0; i < byteOffset && i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      column = 0;
    } else if ((c & 0xC0) != 0x80) {
      ++column;
    }
  }
  return positions_.map(line, column);
}

Expr* AstBuilder::strings(const std::vector<TerminalNode*>& tokens, SourceRange r) {
  bool anyBytes = false, anyText = false, anyFormatted = false;
  std::vector<Expr*> pieces; // Constant strings and FormattedValues, in order
  std::string bytesValue;
  for (TerminalNode* node : tokens) {
    const antlr4::Token* token = node->getSymbol();
    std::string text = token->getText();
    StringLiteralParts parts = splitStringLiteral(text);
    (parts.bytes ? anyBytes : anyText) = true;
    if (anyBytes && anyText) {
      diags_.report(DiagKind::MixedBytesAndStr, r);
      break;
    }
    if (parts.formatted) {
      anyFormatted = true;
      std::vector<FStringPart> fparts;
      std::vector<LiteralError> errors;
      if (!parseFString(parts.body, parts.raw, fparts, errors)) {
        for (const LiteralError& e : errors) {
          SourceLoc at = locationInToken(token, parts.bodyOffset + e.offset);
          diags_.report(DiagKind::InvalidFString,
                        SourceRange(at, {at.line, static_cast<uint32_t>(at.column + e.length)}),
                        {e.message});
        }
        continue;
      }
      fstringParts(fparts, text, parts.bodyOffset, token, pieces);
      continue;
    }
    std::vector<LiteralError> errors;
    std::string value =
        parts.raw ? std::string(parts.body) : decodeEscapes(parts.body, parts.bytes, errors);
    for (const LiteralError& e : errors) {
      SourceLoc at = locationInToken(token, parts.bodyOffset + e.offset);
      diags_.report(DiagKind::InvalidStringEscape,
                    SourceRange(at, {at.line, static_cast<uint32_t>(at.column + e.length)}),
                    {e.message});
    }
    if (parts.bytes) {
      bytesValue += value;
      continue;
    }
    auto* c = make<Constant>(range(token));
    c->valueKind = ConstantKind::Str;
    c->strValue = std::move(value);
    pieces.push_back(c);
  }
  if (anyBytes && !anyText) {
    auto* c = make<Constant>(r);
    c->valueKind = ConstantKind::Bytes;
    c->strValue = std::move(bytesValue);
    return c;
  }
  // Merge neighbouring constant strings.
  std::vector<Expr*> merged;
  for (Expr* piece : pieces) {
    auto* c = piece->as<Constant>();
    if (c != nullptr && !merged.empty() && merged.back()->is<Constant>()) {
      auto* previous = merged.back()->as<Constant>();
      previous->strValue += c->strValue;
      previous->range = SourceRange::cover(previous->range, c->range);
      continue;
    }
    merged.push_back(piece);
  }
  if (!anyFormatted) {
    if (merged.empty()) {
      auto* c = make<Constant>(r);
      c->valueKind = ConstantKind::Str;
      return c;
    }
    merged[0]->range = r;
    return merged[0];
  }
  auto* joined = make<JoinedStr>(r);
  for (Expr* piece : merged)
    if (!(piece->is<Constant>() && piece->as<Constant>()->strValue.empty()))
      joined->values.push_back(piece);
  return joined;
}

void AstBuilder::fstringParts(const std::vector<FStringPart>& parts, std::string_view token,
                              size_t bodyOffset, const antlr4::Token* at, std::vector<Expr*>& out) {
  for (const FStringPart& part : parts) {
    SourceLoc where = locationInToken(at, bodyOffset + part.offset);
    SourceRange partRange(where, locationInToken(at, bodyOffset + part.endOffset));
    if (!part.isField) {
      auto* c = make<Constant>(partRange);
      c->valueKind = ConstantKind::Str;
      c->strValue = part.literal;
      out.push_back(c);
      continue;
    }
    if (!part.selfDocumenting.empty()) {
      auto* c = make<Constant>(partRange);
      c->valueKind = ConstantKind::Str;
      c->strValue = std::string(part.selfDocumenting);
      out.push_back(c);
    }
    SourceLoc exprAt = locationInToken(at, bodyOffset + part.expressionOffset);
    // The field is parsed as "(" + expression + ")", so its first character is one column left.
    PositionMap map;
    map.line = exprAt.line;
    map.column = exprAt.column - 1;
    Expr* value = parseFStringField("(" + std::string(part.expression) + ")", map, ctx_, diags_);
    if (value == nullptr)
      continue;
    auto* fv = make<FormattedValue>(partRange);
    fv->value = value;
    fv->conversion = part.conversion;
    if (part.hasFormatSpec) {
      SourceRange specRange(partRange.end);
      if (!part.formatSpec.empty())
        specRange = {locationInToken(at, bodyOffset + part.formatSpec.front().offset),
                     locationInToken(at, bodyOffset + part.formatSpec.back().endOffset)};
      auto* spec = make<JoinedStr>(specRange);
      fstringParts(part.formatSpec, token, bodyOffset, at, spec->values);
      fv->formatSpec = spec;
    }
    out.push_back(fv);
  }
}

// An f-string field's expression, parsed on its own (see fstringParts).
Expr* AstBuilder::buildFStringExpression(P::Fstring_exprContext* tree) {
  Expr* e =
      tree->yield_expr() ? yieldExpr(tree->yield_expr()) : testListStar(tree->testlist_star_expr());
  return e;
}

} // namespace pyk::syntax
