// AstBuilderDisplays: AstBuilder's displays and comprehensions: list, tuple, set and dict
// displays, list / set / dict comprehensions and generator expressions.
#include "syntax/AstBuilder.h"

namespace pyk::syntax {

using namespace pyk::ast;
using antlr4::tree::ParseTree;

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

} // namespace pyk::syntax
