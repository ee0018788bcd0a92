// AstTraversal: forEachChild, the one place that knows which fields of each node are children.
#pragma once

// Included at the end of Ast.h.

namespace pyk::ast {

namespace detail {
template <class Fn, class T>
void each(Fn& fn, T* node) {
  if (node != nullptr)
    fn(static_cast<Node*>(node));
}
template <class Fn, class T>
void each(Fn& fn, const std::vector<T*>& nodes) {
  for (T* node : nodes)
    each(fn, node);
}
template <class Fn>
void eachArg(Fn& fn, const Arg& arg) {
  each(fn, arg.annotation);
}
template <class Fn>
void eachArguments(Fn& fn, const Arguments& a) {
  for (const Arg& arg : a.posonlyargs)
    eachArg(fn, arg);
  for (const Arg& arg : a.args)
    eachArg(fn, arg);
  if (a.vararg)
    eachArg(fn, *a.vararg);
  for (const Arg& arg : a.kwonlyargs)
    eachArg(fn, arg);
  if (a.kwarg)
    eachArg(fn, *a.kwarg);
  each(fn, a.defaults);
  each(fn, a.kwDefaults);
}
template <class Fn>
void eachComprehensions(Fn& fn, const std::vector<Comprehension>& generators) {
  for (const Comprehension& c : generators) {
    each(fn, c.target);
    each(fn, c.iter);
    each(fn, c.ifs);
  }
}
template <class Fn>
void eachKeywords(Fn& fn, const std::vector<Keyword>& keywords) {
  for (const Keyword& k : keywords)
    each(fn, k.value);
}
} // namespace detail

template <class Fn>
void forEachChild(Node* node, Fn&& fn) {
  using namespace detail;
  switch (node->kind) {
  case NodeKind::Module:
    each(fn, static_cast<Module*>(node)->body);
    break;
  case NodeKind::FunctionDef: {
    auto* n = static_cast<FunctionDef*>(node);
    each(fn, n->decorators);
    eachArguments(fn, n->args);
    each(fn, n->returns);
    each(fn, n->body);
    break;
  }
  case NodeKind::ClassDef: {
    auto* n = static_cast<ClassDef*>(node);
    each(fn, n->decorators);
    each(fn, n->bases);
    eachKeywords(fn, n->keywords);
    each(fn, n->body);
    break;
  }
  case NodeKind::Return:
    each(fn, static_cast<Return*>(node)->value);
    break;
  case NodeKind::Delete:
    each(fn, static_cast<Delete*>(node)->targets);
    break;
  case NodeKind::Assign:
    each(fn, static_cast<Assign*>(node)->targets);
    each(fn, static_cast<Assign*>(node)->value);
    break;
  case NodeKind::AugAssign:
    each(fn, static_cast<AugAssign*>(node)->target);
    each(fn, static_cast<AugAssign*>(node)->value);
    break;
  case NodeKind::AnnAssign: {
    auto* n = static_cast<AnnAssign*>(node);
    each(fn, n->target);
    each(fn, n->annotation);
    each(fn, n->value);
    break;
  }
  case NodeKind::For: {
    auto* n = static_cast<For*>(node);
    each(fn, n->target);
    each(fn, n->iter);
    each(fn, n->body);
    each(fn, n->orelse);
    break;
  }
  case NodeKind::While: {
    auto* n = static_cast<While*>(node);
    each(fn, n->test);
    each(fn, n->body);
    each(fn, n->orelse);
    break;
  }
  case NodeKind::If: {
    auto* n = static_cast<If*>(node);
    each(fn, n->test);
    each(fn, n->body);
    each(fn, n->orelse);
    break;
  }
  case NodeKind::With: {
    auto* n = static_cast<With*>(node);
    for (const WithItem& item : n->items) {
      each(fn, item.contextExpr);
      each(fn, item.optionalVars);
    }
    each(fn, n->body);
    break;
  }
  case NodeKind::Match: {
    auto* n = static_cast<Match*>(node);
    each(fn, n->subject);
    for (const MatchCase& c : n->cases) {
      each(fn, c.pattern);
      each(fn, c.guard);
      each(fn, c.body);
    }
    break;
  }
  case NodeKind::Raise:
    each(fn, static_cast<Raise*>(node)->exc);
    each(fn, static_cast<Raise*>(node)->cause);
    break;
  case NodeKind::Try: {
    auto* n = static_cast<Try*>(node);
    each(fn, n->body);
    for (const ExceptHandler& h : n->handlers) {
      each(fn, h.type);
      each(fn, h.body);
    }
    each(fn, n->orelse);
    each(fn, n->finalbody);
    break;
  }
  case NodeKind::Assert:
    each(fn, static_cast<Assert*>(node)->test);
    each(fn, static_cast<Assert*>(node)->msg);
    break;
  case NodeKind::ExprStmt:
    each(fn, static_cast<ExprStmt*>(node)->value);
    break;
  case NodeKind::Import:
  case NodeKind::ImportFrom:
  case NodeKind::Global:
  case NodeKind::Nonlocal:
  case NodeKind::Pass:
  case NodeKind::Break:
  case NodeKind::Continue:
    break;
  case NodeKind::BoolOp:
    each(fn, static_cast<BoolOp*>(node)->values);
    break;
  case NodeKind::NamedExpr:
    each(fn, static_cast<NamedExpr*>(node)->target);
    each(fn, static_cast<NamedExpr*>(node)->value);
    break;
  case NodeKind::BinOp:
    each(fn, static_cast<BinOp*>(node)->left);
    each(fn, static_cast<BinOp*>(node)->right);
    break;
  case NodeKind::UnaryOp:
    each(fn, static_cast<UnaryOp*>(node)->operand);
    break;
  case NodeKind::Lambda:
    eachArguments(fn, static_cast<Lambda*>(node)->args);
    each(fn, static_cast<Lambda*>(node)->body);
    break;
  case NodeKind::IfExp: {
    auto* n = static_cast<IfExp*>(node);
    each(fn, n->test);
    each(fn, n->body);
    each(fn, n->orelse);
    break;
  }
  case NodeKind::Dict: {
    auto* n = static_cast<Dict*>(node);
    for (size_t i = 0; i < n->values.size(); ++i) {
      each(fn, n->keys[i]);
      each(fn, n->values[i]);
    }
    break;
  }
  case NodeKind::Set:
    each(fn, static_cast<Set*>(node)->elts);
    break;
  case NodeKind::ListComp:
    each(fn, static_cast<ListComp*>(node)->elt);
    eachComprehensions(fn, static_cast<ListComp*>(node)->generators);
    break;
  case NodeKind::SetComp:
    each(fn, static_cast<SetComp*>(node)->elt);
    eachComprehensions(fn, static_cast<SetComp*>(node)->generators);
    break;
  case NodeKind::GeneratorExp:
    each(fn, static_cast<GeneratorExp*>(node)->elt);
    eachComprehensions(fn, static_cast<GeneratorExp*>(node)->generators);
    break;
  case NodeKind::DictComp:
    each(fn, static_cast<DictComp*>(node)->key);
    each(fn, static_cast<DictComp*>(node)->value);
    eachComprehensions(fn, static_cast<DictComp*>(node)->generators);
    break;
  case NodeKind::Await:
    each(fn, static_cast<Await*>(node)->value);
    break;
  case NodeKind::Yield:
    each(fn, static_cast<Yield*>(node)->value);
    break;
  case NodeKind::YieldFrom:
    each(fn, static_cast<YieldFrom*>(node)->value);
    break;
  case NodeKind::Compare:
    each(fn, static_cast<Compare*>(node)->left);
    each(fn, static_cast<Compare*>(node)->comparators);
    break;
  case NodeKind::Call:
    each(fn, static_cast<Call*>(node)->func);
    each(fn, static_cast<Call*>(node)->args);
    eachKeywords(fn, static_cast<Call*>(node)->keywords);
    break;
  case NodeKind::FormattedValue:
    each(fn, static_cast<FormattedValue*>(node)->value);
    each(fn, static_cast<FormattedValue*>(node)->formatSpec);
    break;
  case NodeKind::JoinedStr:
    each(fn, static_cast<JoinedStr*>(node)->values);
    break;
  case NodeKind::Constant:
  case NodeKind::Name:
    break;
  case NodeKind::Attribute:
    each(fn, static_cast<Attribute*>(node)->value);
    break;
  case NodeKind::Subscript:
    each(fn, static_cast<Subscript*>(node)->value);
    each(fn, static_cast<Subscript*>(node)->slice);
    break;
  case NodeKind::Starred:
    each(fn, static_cast<Starred*>(node)->value);
    break;
  case NodeKind::List:
    each(fn, static_cast<List*>(node)->elts);
    break;
  case NodeKind::Tuple:
    each(fn, static_cast<Tuple*>(node)->elts);
    break;
  case NodeKind::Slice: {
    auto* n = static_cast<Slice*>(node);
    each(fn, n->lower);
    each(fn, n->upper);
    each(fn, n->step);
    break;
  }
  case NodeKind::MatchValue:
    each(fn, static_cast<MatchValue*>(node)->value);
    break;
  case NodeKind::MatchSingleton:
    each(fn, static_cast<MatchSingleton*>(node)->value);
    break;
  case NodeKind::MatchSequence:
    each(fn, static_cast<MatchSequence*>(node)->patterns);
    break;
  case NodeKind::MatchMapping:
    each(fn, static_cast<MatchMapping*>(node)->keys);
    each(fn, static_cast<MatchMapping*>(node)->patterns);
    break;
  case NodeKind::MatchClass:
    each(fn, static_cast<MatchClass*>(node)->cls);
    each(fn, static_cast<MatchClass*>(node)->patterns);
    each(fn, static_cast<MatchClass*>(node)->kwdPatterns);
    break;
  case NodeKind::MatchStar:
    break;
  case NodeKind::MatchAs:
    each(fn, static_cast<MatchAs*>(node)->pattern);
    break;
  case NodeKind::MatchOr:
    each(fn, static_cast<MatchOr*>(node)->patterns);
    break;
  }
}

// Calls fn(node) for `root` and every node below it, parents before children.
template <class Fn>
void forEachNode(const Node* root, Fn&& fn) {
  fn(root);
  forEachChild(const_cast<Node*>(root), [&](Node* child) {
    if (child != nullptr)
      forEachNode(child, fn);
  });
}

} // namespace pyk::ast
