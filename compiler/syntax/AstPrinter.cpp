// AstPrinter: a readable, indented dump of the AST (`pykc emit --emit=ast`).
#include "syntax/AstPrinter.h"

#include "syntax/LiteralParser.h"

#include <cstdio>
#include <sstream>

namespace pyk::ast {

namespace {

std::string formatDouble(double d) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", d);
  return buffer;
}

class Printer {
public:
  explicit Printer(std::ostream& out) : out_(out) {}

  void node(const std::string& field, const Node* n, int depth) {
    if (n == nullptr)
      return;
    line(depth, field) << nodeKindName(n->kind) << attributes(n) << ' ' << rangeText(n->range)
                       << '\n';
    children(n, depth + 1);
  }

private:
  std::ostream& line(int depth, const std::string& field) {
    for (int i = 0; i < depth; ++i)
      out_ << "  ";
    if (!field.empty())
      out_ << field << ": ";
    return out_;
  }

  static std::string rangeText(const SourceRange& r) {
    std::ostringstream s;
    s << '@' << r.begin.line << ':' << r.begin.column << '-' << r.end.line << ':' << r.end.column;
    return s.str();
  }

  template <class T>
  void list(const std::string& field, const std::vector<T*>& nodes, int depth) {
    for (size_t i = 0; i < nodes.size(); ++i)
      node(field + "[" + std::to_string(i) + "]", nodes[i], depth);
  }

  void body(const std::string& field, const std::vector<Stmt*>& stmts, int depth) {
    list(field, stmts, depth);
  }

  void arg(const std::string& field, const Arg& a, int depth) {
    line(depth, field) << "arg `" << a.name << "` " << rangeText(a.range) << '\n';
    node("annotation", a.annotation, depth + 1);
  }

  void arguments(const Arguments& a, int depth) {
    for (size_t i = 0; i < a.posonlyargs.size(); ++i)
      arg("posonlyarg[" + std::to_string(i) + "]", a.posonlyargs[i], depth);
    for (size_t i = 0; i < a.args.size(); ++i)
      arg("arg[" + std::to_string(i) + "]", a.args[i], depth);
    if (a.vararg)
      arg("vararg", *a.vararg, depth);
    for (size_t i = 0; i < a.kwonlyargs.size(); ++i) {
      arg("kwonlyarg[" + std::to_string(i) + "]", a.kwonlyargs[i], depth);
      node("default", a.kwDefaults[i], depth + 1);
    }
    if (a.kwarg)
      arg("kwarg", *a.kwarg, depth);
    list("default", a.defaults, depth);
  }

  void keywords(const std::vector<Keyword>& kws, int depth) {
    for (size_t i = 0; i < kws.size(); ++i) {
      line(depth, "keyword[" + std::to_string(i) + "]")
          << "keyword " << (kws[i].arg.empty() ? "**" : "`" + kws[i].arg + "`") << ' '
          << rangeText(kws[i].range) << '\n';
      node("value", kws[i].value, depth + 1);
    }
  }

  void generators(const std::vector<Comprehension>& gens, int depth) {
    for (size_t i = 0; i < gens.size(); ++i) {
      line(depth, "generator[" + std::to_string(i) + "]")
          << "comprehension" << (gens[i].isAsync ? " async" : "") << '\n';
      node("target", gens[i].target, depth + 1);
      node("iter", gens[i].iter, depth + 1);
      list("if", gens[i].ifs, depth + 1);
    }
  }

  static std::string attributes(const Node* n) {
    std::ostringstream s;
    switch (n->kind) {
    case NodeKind::FunctionDef: {
      auto* f = n->as<FunctionDef>();
      s << (f->isAsync ? " async" : "") << " `" << f->name << '`';
      break;
    }
    case NodeKind::ClassDef:
      s << " `" << n->as<ClassDef>()->name << '`';
      break;
    case NodeKind::AugAssign:
      s << " op=" << nameOf(n->as<AugAssign>()->op);
      break;
    case NodeKind::AnnAssign:
      s << (n->as<AnnAssign>()->simple ? " simple" : "");
      break;
    case NodeKind::For:
      s << (n->as<For>()->isAsync ? " async" : "");
      break;
    case NodeKind::With:
      s << (n->as<With>()->isAsync ? " async" : "");
      break;
    case NodeKind::Try:
      s << (n->as<Try>()->isStar ? " star" : "");
      break;
    case NodeKind::Import:
      for (const Alias& a : n->as<Import>()->names)
        s << " `" << a.name << '`' << (a.asname.empty() ? "" : " as `" + a.asname + "`");
      break;
    case NodeKind::ImportFrom: {
      auto* i = n->as<ImportFrom>();
      s << " module=`" << std::string(static_cast<size_t>(i->level), '.') << i->module << "`";
      for (const Alias& a : i->names)
        s << " `" << a.name << '`' << (a.asname.empty() ? "" : " as `" + a.asname + "`");
      break;
    }
    case NodeKind::Global:
      for (const std::string& name : n->as<Global>()->names)
        s << " `" << name << '`';
      break;
    case NodeKind::Nonlocal:
      for (const std::string& name : n->as<Nonlocal>()->names)
        s << " `" << name << '`';
      break;
    case NodeKind::BoolOp:
      s << " op=" << nameOf(n->as<BoolOp>()->op);
      break;
    case NodeKind::BinOp:
      s << " op=" << nameOf(n->as<BinOp>()->op);
      break;
    case NodeKind::UnaryOp:
      s << " op=" << nameOf(n->as<UnaryOp>()->op);
      break;
    case NodeKind::Compare:
      s << " ops=";
      for (size_t i = 0; i < n->as<Compare>()->ops.size(); ++i)
        s << (i ? "," : "") << nameOf(n->as<Compare>()->ops[i]);
      break;
    case NodeKind::FormattedValue:
      if (char c = n->as<FormattedValue>()->conversion)
        s << " conversion=" << c;
      break;
    case NodeKind::Constant: {
      auto* c = n->as<Constant>();
      switch (c->valueKind) {
      case ConstantKind::None:
        s << " None";
        break;
      case ConstantKind::Bool:
        s << (c->boolValue ? " True" : " False");
        break;
      case ConstantKind::Int:
        s << " int "
          << (c->intTooLarge ? c->spelling + " (too large)"
                             : syntax::formatIntegerLiteral(c->intValue));
        break;
      case ConstantKind::Float:
        s << " float " << formatDouble(c->floatValue);
        break;
      case ConstantKind::Complex:
        s << " complex " << formatDouble(c->floatValue) << 'j';
        break;
      case ConstantKind::Str:
        s << " str \"" << syntax::escapeForDisplay(c->strValue, '"', false) << '"';
        break;
      case ConstantKind::Bytes:
        s << " bytes \"" << syntax::escapeForDisplay(c->strValue, '"', true) << '"';
        break;
      case ConstantKind::Ellipsis:
        s << " Ellipsis";
        break;
      }
      break;
    }
    case NodeKind::Attribute:
      s << " `" << n->as<Attribute>()->attr << "` " << toString(n->as<Attribute>()->ctx);
      break;
    case NodeKind::Subscript:
      s << ' ' << toString(n->as<Subscript>()->ctx);
      break;
    case NodeKind::Starred:
      s << ' ' << toString(n->as<Starred>()->ctx);
      break;
    case NodeKind::Name:
      s << " `" << n->as<Name>()->id << "` " << toString(n->as<Name>()->ctx);
      break;
    case NodeKind::List:
      s << ' ' << toString(n->as<List>()->ctx);
      break;
    case NodeKind::Tuple:
      s << ' ' << toString(n->as<Tuple>()->ctx);
      break;
    case NodeKind::MatchMapping:
      if (!n->as<MatchMapping>()->rest.empty())
        s << " rest=`" << n->as<MatchMapping>()->rest << '`';
      break;
    case NodeKind::MatchClass:
      for (const std::string& k : n->as<MatchClass>()->kwdAttrs)
        s << " kwd=`" << k << '`';
      break;
    case NodeKind::MatchStar:
      s << " `" << (n->as<MatchStar>()->name.empty() ? "_" : n->as<MatchStar>()->name) << '`';
      break;
    case NodeKind::MatchAs:
      s << " `" << (n->as<MatchAs>()->name.empty() ? "_" : n->as<MatchAs>()->name) << '`';
      break;
    default:
      break;
    }
    return s.str();
  }

  void children(const Node* n, int d) {
    switch (n->kind) {
    case NodeKind::Module:
      body("body", n->as<Module>()->body, d);
      break;
    case NodeKind::FunctionDef: {
      auto* f = n->as<FunctionDef>();
      list("decorator", f->decorators, d);
      arguments(f->args, d);
      node("returns", f->returns, d);
      body("body", f->body, d);
      break;
    }
    case NodeKind::ClassDef: {
      auto* c = n->as<ClassDef>();
      list("decorator", c->decorators, d);
      list("base", c->bases, d);
      keywords(c->keywords, d);
      body("body", c->body, d);
      break;
    }
    case NodeKind::Return:
      node("value", n->as<Return>()->value, d);
      break;
    case NodeKind::Delete:
      list("target", n->as<Delete>()->targets, d);
      break;
    case NodeKind::Assign:
      list("target", n->as<Assign>()->targets, d);
      node("value", n->as<Assign>()->value, d);
      break;
    case NodeKind::AugAssign:
      node("target", n->as<AugAssign>()->target, d);
      node("value", n->as<AugAssign>()->value, d);
      break;
    case NodeKind::AnnAssign:
      node("target", n->as<AnnAssign>()->target, d);
      node("annotation", n->as<AnnAssign>()->annotation, d);
      node("value", n->as<AnnAssign>()->value, d);
      break;
    case NodeKind::For:
      node("target", n->as<For>()->target, d);
      node("iter", n->as<For>()->iter, d);
      body("body", n->as<For>()->body, d);
      body("orelse", n->as<For>()->orelse, d);
      break;
    case NodeKind::While:
      node("test", n->as<While>()->test, d);
      body("body", n->as<While>()->body, d);
      body("orelse", n->as<While>()->orelse, d);
      break;
    case NodeKind::If:
      node("test", n->as<If>()->test, d);
      body("body", n->as<If>()->body, d);
      body("orelse", n->as<If>()->orelse, d);
      break;
    case NodeKind::With: {
      auto* w = n->as<With>();
      for (size_t i = 0; i < w->items.size(); ++i) {
        line(d, "item[" + std::to_string(i) + "]") << "withitem\n";
        node("context", w->items[i].contextExpr, d + 1);
        node("vars", w->items[i].optionalVars, d + 1);
      }
      body("body", w->body, d);
      break;
    }
    case NodeKind::Match: {
      auto* m = n->as<Match>();
      node("subject", m->subject, d);
      for (size_t i = 0; i < m->cases.size(); ++i) {
        line(d, "case[" + std::to_string(i) + "]")
            << "match_case " << rangeText(m->cases[i].range) << '\n';
        node("pattern", m->cases[i].pattern, d + 1);
        node("guard", m->cases[i].guard, d + 1);
        body("body", m->cases[i].body, d + 1);
      }
      break;
    }
    case NodeKind::Raise:
      node("exc", n->as<Raise>()->exc, d);
      node("cause", n->as<Raise>()->cause, d);
      break;
    case NodeKind::Try: {
      auto* t = n->as<Try>();
      body("body", t->body, d);
      for (size_t i = 0; i < t->handlers.size(); ++i) {
        const ExceptHandler& h = t->handlers[i];
        line(d, "handler[" + std::to_string(i) + "]")
            << "except_handler" << (h.name.empty() ? "" : " `" + h.name + "`") << ' '
            << rangeText(h.range) << '\n';
        node("type", h.type, d + 1);
        body("body", h.body, d + 1);
      }
      body("orelse", t->orelse, d);
      body("finalbody", t->finalbody, d);
      break;
    }
    case NodeKind::Assert:
      node("test", n->as<Assert>()->test, d);
      node("msg", n->as<Assert>()->msg, d);
      break;
    case NodeKind::ExprStmt:
      node("value", n->as<ExprStmt>()->value, d);
      break;
    case NodeKind::BoolOp:
      list("value", n->as<BoolOp>()->values, d);
      break;
    case NodeKind::NamedExpr:
      node("target", n->as<NamedExpr>()->target, d);
      node("value", n->as<NamedExpr>()->value, d);
      break;
    case NodeKind::BinOp:
      node("left", n->as<BinOp>()->left, d);
      node("right", n->as<BinOp>()->right, d);
      break;
    case NodeKind::UnaryOp:
      node("operand", n->as<UnaryOp>()->operand, d);
      break;
    case NodeKind::Lambda:
      arguments(n->as<Lambda>()->args, d);
      node("body", n->as<Lambda>()->body, d);
      break;
    case NodeKind::IfExp:
      node("test", n->as<IfExp>()->test, d);
      node("body", n->as<IfExp>()->body, d);
      node("orelse", n->as<IfExp>()->orelse, d);
      break;
    case NodeKind::Dict: {
      auto* dict = n->as<Dict>();
      for (size_t i = 0; i < dict->values.size(); ++i) {
        if (dict->keys[i] == nullptr)
          line(d, "key[" + std::to_string(i) + "]") << "**\n";
        else
          node("key[" + std::to_string(i) + "]", dict->keys[i], d);
        node("value[" + std::to_string(i) + "]", dict->values[i], d);
      }
      break;
    }
    case NodeKind::Set:
      list("elt", n->as<Set>()->elts, d);
      break;
    case NodeKind::ListComp:
      node("elt", n->as<ListComp>()->elt, d);
      generators(n->as<ListComp>()->generators, d);
      break;
    case NodeKind::SetComp:
      node("elt", n->as<SetComp>()->elt, d);
      generators(n->as<SetComp>()->generators, d);
      break;
    case NodeKind::GeneratorExp:
      node("elt", n->as<GeneratorExp>()->elt, d);
      generators(n->as<GeneratorExp>()->generators, d);
      break;
    case NodeKind::DictComp:
      node("key", n->as<DictComp>()->key, d);
      node("value", n->as<DictComp>()->value, d);
      generators(n->as<DictComp>()->generators, d);
      break;
    case NodeKind::Await:
      node("value", n->as<Await>()->value, d);
      break;
    case NodeKind::Yield:
      node("value", n->as<Yield>()->value, d);
      break;
    case NodeKind::YieldFrom:
      node("value", n->as<YieldFrom>()->value, d);
      break;
    case NodeKind::Compare:
      node("left", n->as<Compare>()->left, d);
      list("comparator", n->as<Compare>()->comparators, d);
      break;
    case NodeKind::Call:
      node("func", n->as<Call>()->func, d);
      list("arg", n->as<Call>()->args, d);
      keywords(n->as<Call>()->keywords, d);
      break;
    case NodeKind::FormattedValue:
      node("value", n->as<FormattedValue>()->value, d);
      node("format_spec", n->as<FormattedValue>()->formatSpec, d);
      break;
    case NodeKind::JoinedStr:
      list("value", n->as<JoinedStr>()->values, d);
      break;
    case NodeKind::Attribute:
      node("value", n->as<Attribute>()->value, d);
      break;
    case NodeKind::Subscript:
      node("value", n->as<Subscript>()->value, d);
      node("slice", n->as<Subscript>()->slice, d);
      break;
    case NodeKind::Starred:
      node("value", n->as<Starred>()->value, d);
      break;
    case NodeKind::List:
      list("elt", n->as<List>()->elts, d);
      break;
    case NodeKind::Tuple:
      list("elt", n->as<Tuple>()->elts, d);
      break;
    case NodeKind::Slice:
      node("lower", n->as<Slice>()->lower, d);
      node("upper", n->as<Slice>()->upper, d);
      node("step", n->as<Slice>()->step, d);
      break;
    case NodeKind::MatchValue:
      node("value", n->as<MatchValue>()->value, d);
      break;
    case NodeKind::MatchSingleton:
      node("value", n->as<MatchSingleton>()->value, d);
      break;
    case NodeKind::MatchSequence:
      list("pattern", n->as<MatchSequence>()->patterns, d);
      break;
    case NodeKind::MatchMapping:
      list("key", n->as<MatchMapping>()->keys, d);
      list("pattern", n->as<MatchMapping>()->patterns, d);
      break;
    case NodeKind::MatchClass:
      node("cls", n->as<MatchClass>()->cls, d);
      list("pattern", n->as<MatchClass>()->patterns, d);
      list("kwd_pattern", n->as<MatchClass>()->kwdPatterns, d);
      break;
    case NodeKind::MatchAs:
      node("pattern", n->as<MatchAs>()->pattern, d);
      break;
    case NodeKind::MatchOr:
      list("pattern", n->as<MatchOr>()->patterns, d);
      break;
    default:
      break;
    }
  }

  std::ostream& out_;
};

} // namespace

void printAst(const Node* node, std::ostream& out) {
  Printer(out).node("", node, 0);
}

} // namespace pyk::ast
