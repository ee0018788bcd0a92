// AstPrinter: a readable, indented dump of the AST (`pykc emit --emit=ast`), each node printed from
// its fields as AstNodes.def declares them, each helper struct by its own function here.
#include "syntax/AstPrinter.h"

#include "syntax/LiteralParser.h"

#include <cctype>
#include <cstdio>
#include <sstream>

namespace pyk::ast {

namespace {

// ---- data on a node's line: how a DATA field is shown (AstNodes.def names these) ----

namespace show {
struct Hidden {};
struct Word {
  const char* word;
};
struct Ident {
  const char* ifEmpty = nullptr;
};
struct Key {
  const char* key;
};
struct Plain {};
struct RelativeModule {};
struct ConstantValue {};
} // namespace show

std::string formatDouble(double d) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", d);
  return buffer;
}

template <class T>
void showData(std::ostream&, const T&, show::Hidden) {}
void showData(std::ostream& s, bool v, show::Word w) {
  if (v)
    s << ' ' << w.word;
}
void showData(std::ostream& s, const std::string& v, show::Ident i) {
  s << " `" << (v.empty() && i.ifEmpty != nullptr ? i.ifEmpty : v) << '`';
}
void showData(std::ostream& s, const std::vector<std::string>& names, show::Ident i) {
  for (const std::string& name : names)
    showData(s, name, i);
}
void showData(std::ostream& s, const std::vector<Alias>& aliases, show::Ident) {
  for (const Alias& a : aliases)
    s << " `" << a.name << '`' << (a.asname.empty() ? "" : " as `" + a.asname + "`");
}
void showData(std::ostream& s, BoolOpKind op, show::Key k) {
  s << ' ' << k.key << '=' << nameOf(op);
}
void showData(std::ostream& s, BinOpKind op, show::Key k) {
  s << ' ' << k.key << '=' << nameOf(op);
}
void showData(std::ostream& s, UnaryOpKind op, show::Key k) {
  s << ' ' << k.key << '=' << nameOf(op);
}
void showData(std::ostream& s, const std::vector<CmpOpKind>& ops, show::Key k) {
  s << ' ' << k.key << '=';
  for (size_t i = 0; i < ops.size(); ++i)
    s << (i ? "," : "") << nameOf(ops[i]);
}
void showData(std::ostream& s, char c, show::Key k) {
  if (c != 0)
    s << ' ' << k.key << '=' << c;
}
void showData(std::ostream& s, const std::string& v, show::Key k) {
  if (!v.empty())
    s << ' ' << k.key << "=`" << v << '`';
}
void showData(std::ostream& s, const std::vector<std::string>& values, show::Key k) {
  for (const std::string& v : values)
    s << ' ' << k.key << "=`" << v << '`';
}
void showData(std::ostream& s, ExprContext ctx, show::Plain) {
  s << ' ' << toString(ctx);
}

// The ones that read other fields of their node; the others do not.
template <class N, class T, class Show>
void showData(std::ostream& s, const N&, const T& v, Show how) {
  showData(s, v, how);
}
void showData(std::ostream& s, const ImportFrom& i, const std::string& module,
              show::RelativeModule) {
  s << " module=`" << std::string(static_cast<size_t>(i.level), '.') << module << "`";
}
void showData(std::ostream& s, const Constant& c, ConstantKind kind, show::ConstantValue) {
  switch (kind) {
  case ConstantKind::None:
    s << " None";
    break;
  case ConstantKind::Bool:
    s << (c.boolValue ? " True" : " False");
    break;
  case ConstantKind::Int:
    s << " int "
      << (c.intTooLarge ? c.spelling + " (too large)" : syntax::formatIntegerLiteral(c.intValue));
    break;
  case ConstantKind::Float:
    s << " float " << formatDouble(c.floatValue);
    break;
  case ConstantKind::Complex:
    s << " complex " << formatDouble(c.floatValue) << 'j';
    break;
  case ConstantKind::Str:
    s << " str \"" << syntax::escapeForDisplay(c.strValue, '"', false) << '"';
    break;
  case ConstantKind::Bytes:
    s << " bytes \"" << syntax::escapeForDisplay(c.strValue, '"', true) << '"';
    break;
  case ConstantKind::Ellipsis:
    s << " Ellipsis";
    break;
  }
}

// ---- labels: a field's name in snake_case; a list item's without its plural s ----

std::string fieldLabel(const char* name) {
  std::string out;
  for (const char* c = name; *c != '\0'; ++c) {
    if (std::isupper(static_cast<unsigned char>(*c)) && c != name)
      out += '_';
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
  }
  return out;
}

std::string itemLabel(const char* name) {
  std::string label = fieldLabel(name);
  if (!label.empty() && label.back() == 's')
    label.pop_back();
  return label;
}

std::string indexed(const std::string& label, size_t i) {
  return label + "[" + std::to_string(i) + "]";
}

class Printer {
public:
  explicit Printer(std::ostream& out) : out_(out) {}

  void node(const std::string& field, const Node* n, int depth) {
    if (n == nullptr)
      return;
    line(depth, field) << nodeKindName(n->kind) << data(n) << ' ' << rangeText(n->range) << '\n';
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
  void list(const std::string& label, const std::vector<T*>& nodes, int depth) {
    for (size_t i = 0; i < nodes.size(); ++i)
      node(indexed(label, i), nodes[i], depth);
  }

  // A Dict's items: `key[i]` (`**` for `**mapping`), then `value[i]`.
  void pairs(const std::string& keyLabel, const std::vector<Expr*>& keys,
             const std::string& valueLabel, const std::vector<Expr*>& values, int depth) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (keys[i] == nullptr)
        line(depth, indexed(keyLabel, i)) << "**\n";
      else
        node(indexed(keyLabel, i), keys[i], depth);
      node(indexed(valueLabel, i), values[i], depth);
    }
  }

  // ---- the helper structs (HELPER and HELPERS fields) ----

  void helper(const std::string& label, const Arg& a, int depth) {
    line(depth, label) << "arg `" << a.name << "` " << rangeText(a.range) << '\n';
    node("annotation", a.annotation, depth + 1);
  }

  // No line of its own: its parameters at the node's depth, each keyword-only one's default below
  // it, then the other defaults.
  void helper(const std::string&, const Arguments& a, int depth) {
    for (size_t i = 0; i < a.posonlyargs.size(); ++i)
      helper(indexed("posonlyarg", i), a.posonlyargs[i], depth);
    for (size_t i = 0; i < a.args.size(); ++i)
      helper(indexed("arg", i), a.args[i], depth);
    if (a.vararg)
      helper("vararg", *a.vararg, depth);
    for (size_t i = 0; i < a.kwonlyargs.size(); ++i) {
      helper(indexed("kwonlyarg", i), a.kwonlyargs[i], depth);
      node("default", a.kwDefaults[i], depth + 1);
    }
    if (a.kwarg)
      helper("kwarg", *a.kwarg, depth);
    list("default", a.defaults, depth);
  }

  void helper(const std::string& label, const Keyword& k, int depth) {
    line(depth, label) << "keyword " << (k.arg.empty() ? "**" : "`" + k.arg + "`") << ' '
                       << rangeText(k.range) << '\n';
    node("value", k.value, depth + 1);
  }

  void helper(const std::string& label, const WithItem& item, int depth) {
    line(depth, label) << "withitem\n";
    node("context", item.contextExpr, depth + 1);
    node("vars", item.optionalVars, depth + 1);
  }

  void helper(const std::string& label, const ExceptHandler& h, int depth) {
    line(depth, label) << "except_handler" << (h.name.empty() ? "" : " `" + h.name + "`") << ' '
                       << rangeText(h.range) << '\n';
    node("type", h.type, depth + 1);
    list("body", h.body, depth + 1);
  }

  void helper(const std::string& label, const Comprehension& c, int depth) {
    line(depth, label) << "comprehension" << (c.isAsync ? " async" : "") << '\n';
    node("target", c.target, depth + 1);
    node("iter", c.iter, depth + 1);
    list("if", c.ifs, depth + 1);
  }

  void helper(const std::string& label, const MatchCase& c, int depth) {
    line(depth, label) << "match_case " << rangeText(c.range) << '\n';
    node("pattern", c.pattern, depth + 1);
    node("guard", c.guard, depth + 1);
    list("body", c.body, depth + 1);
  }

  template <class Helper>
  void helpers(const std::string& label, const std::vector<Helper>& items, int depth) {
    for (size_t i = 0; i < items.size(); ++i)
      helper(indexed(label, i), items[i], depth);
  }

  // ---- a node's fields, as AstNodes.def declares them ----

  // Its DATA fields, shown after its kind.
  static std::string data(const Node* n) {
    std::ostringstream s;
    switch (n->kind) {
#define CHILD(Type, name)
#define OPTIONAL(Type, name)
#define CHILDREN(Type, name)
#define DICT_ITEMS(keys, values)
#define HELPER(Type, name)
#define HELPERS(Type, name)
#define DATA(Type, name, Default, Show) showData(s, *self, self->name, show::Show);
#define AST_NODE(Name, Base, Fields)                                                               \
  case NodeKind::Name: {                                                                           \
    [[maybe_unused]] const auto* self = static_cast<const Name*>(n);                               \
    Fields break;                                                                                  \
  }
#include "syntax/AstNodes.def"
#undef CHILD
#undef OPTIONAL
#undef CHILDREN
#undef DICT_ITEMS
#undef HELPER
#undef HELPERS
#undef DATA
    }
    return s.str();
  }

  // Its other fields, each child node on lines of its own below it.
  void children(const Node* n, int depth) {
    switch (n->kind) {
#define CHILD(Type, name) node(fieldLabel(#name), self->name, depth);
#define OPTIONAL(Type, name) node(fieldLabel(#name), self->name, depth);
#define CHILDREN(Type, name) list(itemLabel(#name), self->name, depth);
#define DICT_ITEMS(keys, values)                                                                   \
  pairs(itemLabel(#keys), self->keys, itemLabel(#values), self->values, depth);
#define HELPER(Type, name) helper(fieldLabel(#name), self->name, depth);
#define HELPERS(Type, name) helpers(itemLabel(#name), self->name, depth);
#define DATA(Type, name, Default, Show)
#define AST_NODE(Name, Base, Fields)                                                               \
  case NodeKind::Name: {                                                                           \
    [[maybe_unused]] const auto* self = static_cast<const Name*>(n);                               \
    Fields break;                                                                                  \
  }
#include "syntax/AstNodes.def"
#undef CHILD
#undef OPTIONAL
#undef CHILDREN
#undef DICT_ITEMS
#undef HELPER
#undef HELPERS
#undef DATA
    }
  }

  std::ostream& out_;
};

} // namespace

void printAst(const Node* node, std::ostream& out) {
  Printer(out).node("", node, 0);
}

} // namespace pyk::ast
