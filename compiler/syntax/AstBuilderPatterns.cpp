// AstBuilderPatterns: AstBuilder's match-statement patterns (literal, capture, value, group,
// sequence, mapping, class, `|` and `as` patterns).
#include "syntax/AstBuilder.h"

namespace pyk::syntax {

using namespace pyk::ast;

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
