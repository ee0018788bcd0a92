// AstBuilder: turns an ANTLR parse tree into pyk's AST in one pass (Kuzu's Transformer).
// This file: expressions, literals, f-strings, call arguments and match patterns.
#include "syntax/AstBuilder.h"

#include "syntax/LiteralParser.h"
#include "syntax/ParseRunner.h"

namespace pyk::syntax {

using namespace pyk::ast;
using antlr4::tree::ParseTree;
using antlr4::tree::TerminalNode;
using grammar::PythonLexer;

namespace {
TerminalNode* asTerminal(ParseTree* t) {
  return dynamic_cast<TerminalNode*>(t);
}
size_t tokenType(ParseTree* t) {
  TerminalNode* term = asTerminal(t);
  return term != nullptr ? term->getSymbol()->getType() : 0;
}
} // namespace

Expr* AstBuilder::buildFStringExpression(P::Fstring_exprContext* tree) {
  Expr* e =
      tree->yield_expr() ? yieldExpr(tree->yield_expr()) : testListStar(tree->testlist_star_expr());
  return e;
}

// ---- sequences ----------------------------------------------------------------------------------

Expr* AstBuilder::element(antlr4::ParserRuleContext* e) {
  if (auto* x = dynamic_cast<P::TestContext*>(e))
    return test(x);
  if (auto* x = dynamic_cast<P::Star_exprContext*>(e))
    return starExpr(x);
  if (auto* x = dynamic_cast<P::Namedexpr_testContext*>(e))
    return namedTest(x);
  if (auto* x = dynamic_cast<P::ExprContext*>(e))
    return expr(x);
  return nullptr;
}

Expr* AstBuilder::tupleOrSingle(antlr4::ParserRuleContext* e, bool parenthesized) {
  std::vector<Expr*> elts;
  bool comma = false;
  for (ParseTree* child : e->children) {
    if (tokenType(child) == PythonLexer::COMMA)
      comma = true;
    else if (auto* rule = dynamic_cast<antlr4::ParserRuleContext*>(child))
      if (Expr* x = element(rule))
        elts.push_back(x);
  }
  if (elts.size() == 1 && !comma)
    return elts[0];
  auto* tuple = make<Tuple>(range(e));
  tuple->elts = std::move(elts);
  tuple->parenthesized = parenthesized;
  return tuple;
}

Expr* AstBuilder::testListStar(P::Testlist_star_exprContext* e) {
  return tupleOrSingle(e);
}
Expr* AstBuilder::exprList(P::ExprlistContext* e) {
  return tupleOrSingle(e);
}

// ---- operators ----------------------------------------------------------------------------------

Expr* AstBuilder::namedTest(P::Namedexpr_testContext* e) {
  std::vector<P::TestContext*> tests = e->test();
  Expr* first = test(tests[0]);
  if (tests.size() == 1)
    return first;
  auto* node = make<NamedExpr>(range(e));
  node->target = first;
  node->value = test(tests[1]);
  if (auto* name = first->as<Name>())
    name->ctx = ExprContext::Store;
  else
    diags_.report(DiagKind::InvalidTarget, first->range,
                  {"use assignment expressions with", describe(first)});
  return node;
}

Expr* AstBuilder::test(P::TestContext* e) {
  if (P::LambdefContext* l = e->lambdef())
    return lambda(l->varargslist(), l, test(l->test()));
  std::vector<P::Or_testContext*> ors = e->or_test();
  Expr* body = orTest(ors[0]);
  if (ors.size() == 1)
    return body;
  auto* node = make<IfExp>(range(e));
  node->body = body;
  node->test = orTest(ors[1]);
  node->orelse = test(e->test());
  return node;
}

Expr* AstBuilder::testNoCond(P::Test_nocondContext* e) {
  if (P::Lambdef_nocondContext* l = e->lambdef_nocond())
    return lambda(l->varargslist(), l, testNoCond(l->test_nocond()));
  return orTest(e->or_test());
}

Expr* AstBuilder::lambda(P::VarargslistContext* args, antlr4::ParserRuleContext* whole,
                         Expr* body) {
  auto* node = make<Lambda>(range(whole));
  if (args != nullptr)
    lambdaArguments(args, node->args);
  node->body = body;
  return node;
}

Expr* AstBuilder::orTest(P::Or_testContext* e) {
  std::vector<P::And_testContext*> items = e->and_test();
  if (items.size() == 1)
    return andTest(items[0]);
  auto* node = make<BoolOp>(range(e));
  node->op = BoolOpKind::Or;
  for (auto* item : items)
    node->values.push_back(andTest(item));
  return node;
}

Expr* AstBuilder::andTest(P::And_testContext* e) {
  std::vector<P::Not_testContext*> items = e->not_test();
  if (items.size() == 1)
    return notTest(items[0]);
  auto* node = make<BoolOp>(range(e));
  node->op = BoolOpKind::And;
  for (auto* item : items)
    node->values.push_back(notTest(item));
  return node;
}

Expr* AstBuilder::notTest(P::Not_testContext* e) {
  if (e->comparison())
    return comparison(e->comparison());
  auto* node = make<UnaryOp>(range(e));
  node->op = UnaryOpKind::Not;
  node->operand = notTest(e->not_test());
  return node;
}

Expr* AstBuilder::comparison(P::ComparisonContext* e) {
  std::vector<P::ExprContext*> operands = e->expr();
  Expr* left = expr(operands[0]);
  if (operands.size() == 1)
    return left;
  auto* node = make<Compare>(range(e));
  node->left = left;
  std::vector<P::Comp_opContext*> ops = e->comp_op();
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string op = ops[i]->getText(); // "notin" and "isnot" for the two-word operators
    CmpOpKind kind = op == "<"       ? CmpOpKind::Lt
                     : op == ">"     ? CmpOpKind::Gt
                     : op == "=="    ? CmpOpKind::Eq
                     : op == ">="    ? CmpOpKind::GtE
                     : op == "<="    ? CmpOpKind::LtE
                     : op == "!="    ? CmpOpKind::NotEq
                     : op == "in"    ? CmpOpKind::In
                     : op == "notin" ? CmpOpKind::NotIn
                     : op == "is"    ? CmpOpKind::Is
                                     : CmpOpKind::IsNot;
    node->ops.push_back(kind);
    node->comparators.push_back(expr(operands[i + 1]));
  }
  return node;
}

Expr* AstBuilder::starExpr(P::Star_exprContext* e) {
  auto* node = make<Starred>(range(e));
  node->value = expr(e->expr());
  return node;
}

Expr* AstBuilder::expr(P::ExprContext* e) {
  return binaryChain(e);
}

// expr, xor_expr, and_expr, shift_expr, arith_expr and term: operands and operators alternate;
// fold them to the left.
Expr* AstBuilder::binaryChain(antlr4::ParserRuleContext* e) {
  auto operand = [&](ParseTree* t) -> Expr* {
    if (auto* f = dynamic_cast<P::FactorContext*>(t))
      return factor(f);
    return binaryChain(static_cast<antlr4::ParserRuleContext*>(t));
  };
  if (e->children.size() == 1)
    return operand(e->children[0]);
  Expr* left = operand(e->children[0]);
  // As in CPython, a binary operation starts where its first operand's text does, a
  // parenthesis included: `(x + y) / 2` starts at `(`.
  const SourceLoc start = begin(e->getStart());
  for (size_t i = 1; i + 1 < e->children.size(); i += 2) {
    std::string op = e->children[i]->getText();
    auto* node = make<BinOp>(SourceRange(start, left->range.end));
    node->left = left;
    node->op = op == "|"    ? BinOpKind::BitOr
               : op == "^"  ? BinOpKind::BitXor
               : op == "&"  ? BinOpKind::BitAnd
               : op == "<<" ? BinOpKind::LShift
               : op == ">>" ? BinOpKind::RShift
               : op == "+"  ? BinOpKind::Add
               : op == "-"  ? BinOpKind::Sub
               : op == "*"  ? BinOpKind::Mult
               : op == "@"  ? BinOpKind::MatMult
               : op == "/"  ? BinOpKind::Div
               : op == "%"  ? BinOpKind::Mod
                            : BinOpKind::FloorDiv;
    node->right = operand(e->children[i + 1]);
    node->range.end = end(static_cast<antlr4::ParserRuleContext*>(e->children[i + 1])->getStop());
    left = node;
  }
  return left;
}

Expr* AstBuilder::factor(P::FactorContext* e) {
  if (e->power())
    return power(e->power());
  auto* node = make<UnaryOp>(range(e));
  std::string op = e->children[0]->getText();
  node->op = op == "+" ? UnaryOpKind::UAdd : op == "-" ? UnaryOpKind::USub : UnaryOpKind::Invert;
  node->operand = factor(e->factor());
  return node;
}

Expr* AstBuilder::power(P::PowerContext* e) {
  Expr* base = atomExpr(e->atom_expr());
  if (e->factor() == nullptr)
    return base;
  auto* node = make<BinOp>(range(e));
  node->left = base;
  node->op = BinOpKind::Pow;
  node->right = factor(e->factor());
  return node;
}

Expr* AstBuilder::atomExpr(P::Atom_exprContext* e) {
  Expr* result = atom(e->atom());
  SourceLoc start = begin(e->atom()->getStart()); // `(a).b` starts at `(`, as in CPython
  for (P::TrailerContext* t : e->trailer()) {
    SourceRange r(start, end(t->getStop()));
    if (auto* call = dynamic_cast<P::CallTrailerContext*>(t)) {
      auto* node = make<Call>(r);
      node->func = result;
      if (call->arglist())
        callArguments(call->arglist(), node->args, node->keywords);
      result = node;
    } else if (auto* sub = dynamic_cast<P::SubscriptTrailerContext*>(t)) {
      auto* node = make<Subscript>(r);
      node->value = result;
      node->slice = subscriptList(sub->subscriptlist());
      result = node;
    } else if (auto* attr = dynamic_cast<P::AttributeTrailerContext*>(t)) {
      auto* node = make<Attribute>(r);
      node->value = result;
      node->attr = nameText(attr->name());
      node->attrRange = range(attr->name());
      result = node;
    }
  }
  if (e->AWAIT()) {
    auto* node = make<Await>(range(e));
    node->value = result;
    if (functionDepth_ == 0)
      diags_.report(DiagKind::SyntaxError, node->range, {"`await` outside function"});
    return node;
  }
  return result;
}

Expr* AstBuilder::subscriptList(P::SubscriptlistContext* e) {
  std::vector<P::SubscriptContext*> items = e->subscript();
  if (items.size() == 1 && e->COMMA().empty())
    return subscript(items[0]);
  auto* tuple = make<Tuple>(range(e));
  for (auto* item : items)
    tuple->elts.push_back(subscript(item));
  return tuple;
}

Expr* AstBuilder::subscript(P::SubscriptContext* e) {
  if (auto* index = dynamic_cast<P::IndexSubscriptContext*>(e))
    return namedTest(index->namedexpr_test());
  if (auto* star = dynamic_cast<P::StarSubscriptContext*>(e))
    return starExpr(star->star_expr());
  auto* slice = static_cast<P::SliceSubscriptContext*>(e);
  auto* node = make<Slice>(range(slice));
  bool afterColon = false;
  for (ParseTree* child : slice->children) {
    if (tokenType(child) == PythonLexer::COLON)
      afterColon = true;
    else if (auto* t = dynamic_cast<P::TestContext*>(child))
      (afterColon ? node->upper : node->lower) = test(t);
    else if (auto* step = dynamic_cast<P::SliceopContext*>(child))
      if (step->test())
        node->step = test(step->test());
  }
  return node;
}

Expr* AstBuilder::yieldExpr(P::Yield_exprContext* e) {
  if (functionDepth_ == 0)
    diags_.report(DiagKind::SyntaxError, range(e), {"`yield` outside function"});
  if (e->FROM()) {
    auto* node = make<YieldFrom>(range(e));
    node->value = test(e->test());
    return node;
  }
  auto* node = make<Yield>(range(e));
  if (e->testlist_star_expr())
    node->value = testListStar(e->testlist_star_expr());
  return node;
}

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

Expr* AstBuilder::testlistComp(P::Testlist_compContext* e, bool list, SourceRange r) {
  if (P::Comp_forContext* cf = e->comp_for()) {
    Expr* elt = element(dynamic_cast<antlr4::ParserRuleContext*>(e->children[0]));
    if (elt->is<Starred>())
      diags_.report(DiagKind::SyntaxError, elt->range,
                    {list ? "iterable unpacking cannot be used in comprehension"
                          : "iterable unpacking cannot be used in generator expression"});
    if (list) {
      auto* node = make<ListComp>(r);
      node->elt = elt;
      node->generators = comprehensions(cf);
      return node;
    }
    auto* node = make<GeneratorExp>(r);
    node->elt = elt;
    node->generators = comprehensions(cf);
    return node;
  }
  if (!list)
    return tupleOrSingle(e, true);
  auto* node = make<List>(r);
  for (ParseTree* child : e->children)
    if (auto* rule = dynamic_cast<antlr4::ParserRuleContext*>(child))
      node->elts.push_back(element(rule));
  return node;
}

Expr* AstBuilder::dictOrSet(P::DictorsetmakerContext* e, SourceRange r) {
  if (auto* dict = dynamic_cast<P::DictMakerContext*>(e)) {
    std::vector<P::Dict_itemContext*> items = dict->dict_item();
    if (P::Comp_forContext* cf = dict->comp_for()) {
      auto* node = make<DictComp>(r);
      if (items[0]->expr() != nullptr) {
        diags_.report(DiagKind::SyntaxError, range(items[0]),
                      {"dict unpacking cannot be used in dict comprehension"});
        node->key = expr(items[0]->expr());
        node->value = node->key;
      } else {
        node->key = test(items[0]->test(0));
        node->value = test(items[0]->test(1));
      }
      node->generators = comprehensions(cf);
      return node;
    }
    auto* node = make<Dict>(r);
    for (auto* item : items) {
      if (item->expr() != nullptr) {
        node->keys.push_back(nullptr);
        node->values.push_back(expr(item->expr()));
      } else {
        node->keys.push_back(test(item->test(0)));
        node->values.push_back(test(item->test(1)));
      }
    }
    return node;
  }
  auto* set = static_cast<P::SetMakerContext*>(e);
  std::vector<Expr*> elts;
  for (ParseTree* child : set->children)
    if (auto* rule = dynamic_cast<antlr4::ParserRuleContext*>(child))
      if (!dynamic_cast<P::Comp_forContext*>(rule))
        elts.push_back(element(rule));
  if (P::Comp_forContext* cf = set->comp_for()) {
    auto* node = make<SetComp>(r);
    node->elt = elts[0];
    node->generators = comprehensions(cf);
    return node;
  }
  auto* node = make<Set>(r);
  node->elts = std::move(elts);
  return node;
}

std::vector<Comprehension> AstBuilder::comprehensions(P::Comp_forContext* e) {
  std::vector<Comprehension> out;
  while (e != nullptr) {
    Comprehension c;
    c.isAsync = e->ASYNC() != nullptr;
    c.target = exprList(e->exprlist());
    setContext(c.target, ExprContext::Store, "assign to");
    c.iter = orTest(e->or_test());
    P::Comp_iterContext* iter = e->comp_iter();
    e = nullptr;
    while (iter != nullptr) {
      if (P::Comp_forContext* next = iter->comp_for()) {
        e = next;
        break;
      }
      P::Comp_ifContext* cond = iter->comp_if();
      c.ifs.push_back(testNoCond(cond->test_nocond()));
      iter = cond->comp_iter();
    }
    out.push_back(std::move(c));
  }
  return out;
}

// ---- call arguments -----------------------------------------------------------------------------

void AstBuilder::callArguments(P::ArglistContext* list, std::vector<Expr*>& args,
                               std::vector<Keyword>& keywords) {
  bool seenKeyword = false, seenDoubleStar = false;
  std::vector<P::ArgumentContext*> items = list->argument();
  auto error = [&](SourceRange r, const char* message) {
    diags_.report(DiagKind::InvalidArguments, r, {message});
  };
  for (P::ArgumentContext* a : items) {
    SourceRange r = range(a);
    if (auto* gen = dynamic_cast<P::GeneratorArgumentContext*>(a)) {
      if (items.size() > 1 || !list->COMMA().empty())
        error(r, "generator expression must be parenthesized");
      auto* node = make<GeneratorExp>(r);
      node->elt = test(gen->test());
      node->generators = comprehensions(gen->comp_for());
      args.push_back(node);
    } else if (auto* named = dynamic_cast<P::NamedArgumentContext*>(a)) {
      auto* node = make<NamedExpr>(r);
      node->target = test(named->test(0));
      node->value = test(named->test(1));
      if (auto* n = node->target->as<Name>())
        n->ctx = ExprContext::Store;
      else
        diags_.report(DiagKind::InvalidTarget, node->target->range,
                      {"use assignment expressions with", describe(node->target)});
      if (seenKeyword || seenDoubleStar)
        error(r, "positional argument follows keyword argument");
      args.push_back(node);
    } else if (auto* kw = dynamic_cast<P::KeywordArgumentContext*>(a)) {
      Expr* key = test(kw->test(0));
      Keyword k;
      k.value = test(kw->test(1));
      k.range = r;
      if (auto* n = key->as<Name>()) {
        k.arg = n->id;
        for (const Keyword& other : keywords)
          if (other.arg == k.arg)
            diags_.report(DiagKind::InvalidArguments, r,
                          {"keyword argument repeated: `" + k.arg + "`"});
      } else {
        error(key->range, "expression cannot contain assignment; did you mean `==`?");
      }
      seenKeyword = true;
      keywords.push_back(k);
    } else if (auto* dstar = dynamic_cast<P::DoubleStarArgumentContext*>(a)) {
      Keyword k;
      k.value = test(dstar->test());
      k.range = r;
      seenDoubleStar = true;
      keywords.push_back(k);
    } else if (auto* star = dynamic_cast<P::StarArgumentContext*>(a)) {
      if (seenDoubleStar)
        error(r, "iterable argument unpacking follows keyword argument unpacking");
      auto* node = make<Starred>(r);
      node->value = test(star->test());
      args.push_back(node);
    } else if (auto* pos = dynamic_cast<P::PositionalArgumentContext*>(a)) {
      if (seenDoubleStar)
        error(r, "positional argument follows keyword argument unpacking");
      else if (seenKeyword)
        error(r, "positional argument follows keyword argument");
      args.push_back(test(pos->test()));
    }
  }
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

// ---- patterns -----------------------------------------------------------------------------------

Pattern* AstBuilder::patterns(P::PatternsContext* p) {
  if (P::PatternContext* single = p->pattern())
    return pattern(single);
  P::Open_sequence_patternContext* open = p->open_sequence_pattern();
  std::vector<P::Maybe_star_patternContext*> items{open->maybe_star_pattern()};
  if (open->maybe_sequence_pattern())
    for (auto* item : open->maybe_sequence_pattern()->maybe_star_pattern())
      items.push_back(item);
  return sequence(items, range(p));
}

Pattern* AstBuilder::pattern(P::PatternContext* p) {
  Pattern* inner = orPattern(p->or_pattern());
  if (p->name() == nullptr)
    return inner;
  auto* node = make<MatchAs>(range(p));
  node->pattern = inner;
  node->name = nameText(p->name());
  if (node->name == "_")
    diags_.report(DiagKind::InvalidPattern, range(p->name()), {"cannot use `_` as a target"});
  return node;
}

Pattern* AstBuilder::orPattern(P::Or_patternContext* p) {
  std::vector<P::Closed_patternContext*> items = p->closed_pattern();
  if (items.size() == 1)
    return closedPattern(items[0]);
  auto* node = make<MatchOr>(range(p));
  for (auto* item : items)
    node->patterns.push_back(closedPattern(item));
  return node;
}

Pattern* AstBuilder::sequence(const std::vector<P::Maybe_star_patternContext*>& items,
                              SourceRange r) {
  auto* node = make<MatchSequence>(r);
  bool seenStar = false;
  for (auto* item : items) {
    if (P::Star_patternContext* star = item->star_pattern()) {
      auto* s = make<MatchStar>(range(star));
      std::string name = nameText(star->name());
      s->name = name == "_" ? "" : name;
      if (seenStar)
        diags_.report(DiagKind::InvalidPattern, s->range,
                      {"multiple starred names in sequence pattern"});
      seenStar = true;
      node->patterns.push_back(s);
    } else {
      node->patterns.push_back(pattern(item->pattern()));
    }
  }
  return node;
}

Expr* AstBuilder::signedNumber(P::Signed_numberContext* n) {
  Expr* value = number(n->NUMBER());
  if (n->MINUS() == nullptr)
    return value;
  auto* neg = make<UnaryOp>(range(n));
  neg->op = UnaryOpKind::USub;
  neg->operand = value;
  return neg;
}

Expr* AstBuilder::dottedName(const std::vector<P::NameContext*>& names) {
  auto* base = make<Name>(range(names[0]));
  base->id = nameText(names[0]);
  Expr* result = base;
  for (size_t i = 1; i < names.size(); ++i) {
    auto* attr = make<Attribute>(SourceRange(result->range.begin, end(names[i]->getStop())));
    attr->value = result;
    attr->attr = nameText(names[i]);
    attr->attrRange = range(names[i]);
    result = attr;
  }
  return result;
}

Pattern* AstBuilder::literalPattern(P::Literal_patternContext* p) {
  SourceRange r = range(p);
  if (p->NONE() || p->TRUE() || p->FALSE()) {
    auto* node = make<MatchSingleton>(r);
    auto* c = make<Constant>(r);
    c->valueKind = p->NONE() ? ConstantKind::None : ConstantKind::Bool;
    c->boolValue = p->TRUE() != nullptr;
    node->value = c;
    return node;
  }
  auto* node = make<MatchValue>(r);
  if (P::Signed_numberContext* n = p->signed_number()) {
    node->value = signedNumber(n);
  } else if (P::Complex_numberContext* cn = p->complex_number()) {
    auto* sum = make<BinOp>(range(cn));
    sum->left = signedNumber(cn->signed_number());
    sum->op = cn->PLUS() ? BinOpKind::Add : BinOpKind::Sub;
    sum->right = number(cn->NUMBER());
    node->value = sum;
  } else {
    node->value = strings(p->STRING(), r);
  }
  return node;
}

Pattern* AstBuilder::closedPattern(P::Closed_patternContext* p) {
  SourceRange r = range(p);
  if (auto* lit = p->literal_pattern())
    return literalPattern(lit);
  if (auto* cap = p->capture_pattern()) {
    auto* node = make<MatchAs>(r);
    std::string name = nameText(cap->name());
    node->name = name == "_" ? "" : name;
    return node;
  }
  if (auto* value = p->value_pattern()) {
    auto* node = make<MatchValue>(r);
    node->value = dottedName(value->name());
    return node;
  }
  if (auto* group = p->group_pattern())
    return pattern(group->pattern());
  if (auto* seq = p->sequence_pattern()) {
    std::vector<P::Maybe_star_patternContext*> items;
    if (auto* maybe = seq->maybe_sequence_pattern())
      items = maybe->maybe_star_pattern();
    if (auto* open = seq->open_sequence_pattern()) {
      items.push_back(open->maybe_star_pattern());
      if (open->maybe_sequence_pattern())
        for (auto* item : open->maybe_sequence_pattern()->maybe_star_pattern())
          items.push_back(item);
    }
    return sequence(items, r);
  }
  if (auto* mapping = p->mapping_pattern()) {
    auto* node = make<MatchMapping>(r);
    for (P::Mapping_itemContext* item : mapping->mapping_item()) {
      if (item->DOUBLESTAR()) {
        node->rest = nameText(item->name());
        continue;
      }
      if (!node->rest.empty())
        diags_.report(DiagKind::InvalidPattern, range(item),
                      {"`**` pattern must be the last item of a mapping pattern"});
      Pattern* key = item->literal_pattern() ? literalPattern(item->literal_pattern()) : nullptr;
      if (key != nullptr)
        node->keys.push_back(key->is<MatchValue>() ? key->as<MatchValue>()->value
                                                   : key->as<MatchSingleton>()->value);
      else
        node->keys.push_back(dottedName(item->value_pattern()->name()));
      node->patterns.push_back(pattern(item->pattern()));
    }
    return node;
  }
  P::Class_patternContext* cls = p->class_pattern();
  auto* node = make<MatchClass>(r);
  node->cls = dottedName(cls->dotted_name()->name());
  for (P::Pattern_argumentContext* arg : cls->pattern_argument()) {
    if (arg->name() != nullptr) {
      node->kwdAttrs.push_back(nameText(arg->name()));
      node->kwdPatterns.push_back(pattern(arg->pattern()));
    } else {
      if (!node->kwdAttrs.empty())
        diags_.report(DiagKind::InvalidPattern, range(arg),
                      {"positional patterns follow keyword patterns"});
      node->patterns.push_back(pattern(arg->pattern()));
    }
  }
  return node;
}

} // namespace pyk::syntax
