// IrPrinter: the IR as text, each node printed from its fields as IrNodes.def declares them.
#include "ir/IrPrinter.h"

#include <cctype>
#include <sstream>

namespace pyk::ir {

namespace {

// `IntrinsicCall` as `intrinsic_call`.
std::string snakeCase(const char* camel) {
  std::string out;
  for (const char* c = camel; *c != '\0'; ++c) {
    if (std::isupper(static_cast<unsigned char>(*c)) && c != camel)
      out += '_';
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
  }
  return out;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string location(SourceRange r) {
  if (!r.valid())
    return "";
  return "  @" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
}

// What one node's fields print as: its data after its kind, its child values in parentheses, its
// statement bodies as blocks below it.
class Printer {
public:
  explicit Printer(const Function& f) : f_(f) {}

  std::string value(const Node* n) { // an Expr, Target or Iter on one line
    NodeText text = fieldsOf(n);
    std::string out = text.head;
    if (text.hasOperands) {
      out += "(";
      for (size_t i = 0; i < text.operands.size(); ++i)
        out += (i ? ", " : "") + text.operands[i];
      out += ")";
    }
    const types::NumbaType* type = typeOf(n);
    if (type != nullptr && !type->isVoid())
      out += " : " + type->str();
    return out;
  }

  void statement(std::ostringstream& out, const Stmt* s, int indent) {
    NodeText text = fieldsOf(s);
    std::string line = std::string(static_cast<size_t>(indent) * 2, ' ') + text.head;
    for (size_t i = 0; i < text.operands.size(); ++i)
      line += (i ? ", " : " ") + text.operands[i];
    out << line << location(s->range) << "\n";
    for (const auto& [name, body] : text.blocks) {
      if (body->empty())
        continue;
      out << std::string(static_cast<size_t>(indent + 1) * 2, ' ') << name << ":\n";
      for (const Stmt* child : *body)
        statement(out, child, indent + 2);
    }
  }

private:
  struct NodeText {
    std::string head;
    bool hasOperands = false;
    std::vector<std::string> operands;
    std::vector<std::pair<std::string, const std::vector<Stmt*>*>> blocks;

    // Data fields: after the kind.
    void data(const char* name, bool v) {
      if (v)
        head += std::string(" ") + name;
    }
    void data(const char*, const std::string& v) {
      if (!v.empty())
        head += " " + quoted(v);
    }
    void data(const char* name, int v) {
      head += std::string(" ") + name + "=" + std::to_string(v);
    }
    void data(const char* name, int64_t v) {
      head += std::string(" ") + name + "=" + std::to_string(v);
    }
    template <class T>
    void data(const char*, const T& v) {
      head += " " + printer->text(v);
    }
    // Child fields: values inline, statement lists as blocks.
    void child(const char*, const Node* n) {
      hasOperands = true;
      operands.push_back(n == nullptr ? "_" : printer->value(n));
    }
    template <class T>
    void children(const char* name, const std::vector<T*>& nodes) {
      if constexpr (std::is_same_v<T, Stmt>) {
        blocks.emplace_back(name, &nodes);
      } else {
        hasOperands = true;
        for (const Node* n : nodes)
          operands.push_back(printer->value(n));
      }
    }
    Printer* printer = nullptr;
  };

  NodeText fieldsOf(const Node* n) {
    NodeText text;
    text.printer = this;
    text.head = snakeCase(nodeKindName(n->kind));
    switch (n->kind) {
#define CHILD(Family, name) text.child(#name, self->name);
#define OPTIONAL(Family, name) text.child(#name, self->name);
#define CHILDREN(Family, name) text.children(#name, self->name);
#define DATA(Type, name) text.data(#name, self->name);
#define IR_NODE(Name, Family, Fields)                                                              \
  case NodeKind::Name: {                                                                           \
    [[maybe_unused]] const auto* self = static_cast<const Name*>(n);                               \
    Fields break;                                                                                  \
  }
#include "ir/IrNodes.def"
#undef CHILD
#undef OPTIONAL
#undef CHILDREN
#undef DATA
    }
    return text;
  }

  static const types::NumbaType* typeOf(const Node* n) {
    if (const auto* e = n->as<Expr>())
      return &e->type;
    if (const auto* t = n->as<Target>())
      return &t->type;
    if (const auto* i = n->as<Iter>())
      return &i->type;
    return nullptr;
  }

  // ---- data values ----
  std::string text(const sema::ConstantValue& v) {
    if (v.kind == sema::ConstantValue::Kind::Array && v.array != nullptr)
      return "array" + text(v.array->shape);
    return v.repr();
  }
  std::string text(const types::NumbaType& t) {
    return t.str();
  }
  std::string text(sema::Intrinsic id) {
    return std::string(sema::intrinsicInfo(id).shortName());
  }
  std::string text(sema::ValueMember m) {
    return std::string(sema::valueMemberInfo(m).name);
  }
  std::string text(BinaryOp op) {
    return nameOf(op);
  }
  std::string text(UnaryOp op) {
    return nameOf(op);
  }
  std::string text(CompareOp op) {
    return nameOf(op);
  }
  std::string text(LogicalOp op) {
    return nameOf(op);
  }
  std::string text(DatetimeOp op) {
    return nameOf(op);
  }
  std::string text(const VersionRef& v) {
    return f_.versionName(v.version);
  }
  std::string text(const Function* callee) {
    return callee->description;
  }
  std::string text(const std::vector<int64_t>& shape) {
    std::string out = "(";
    for (size_t i = 0; i < shape.size(); ++i)
      out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + (shape.size() == 1 ? ",)" : ")");
  }
  std::string text(const Bindings& bindings) {
    std::string out = "[";
    for (size_t i = 0; i < bindings.size(); ++i)
      out += (i ? ", " : "") + std::string("$") + std::to_string(bindings[i]);
    return out + "]";
  }
  std::string text(const Characters& characters) {
    std::string out = "[";
    for (size_t i = 0; i < characters.size(); ++i)
      out += (i ? ", " : "") + std::to_string(characters[i]);
    return out + "]";
  }
  std::string text(const PrintPieces& pieces) {
    std::string format;
    for (const PrintPiece& p : pieces)
      format += p.isValue ? "{}" : p.text;
    return quoted(format);
  }

  const Function& f_;
};

std::string typeText(const std::optional<types::NumbaType>& t) {
  return t ? t->str() : "untyped";
}

} // namespace

std::string toText(const Function& function, const Node* node, int indent) {
  Printer p(function);
  if (const auto* s = node->as<Stmt>()) {
    std::ostringstream out;
    p.statement(out, s, indent);
    return out.str();
  }
  return p.value(node);
}

void print(std::ostream& out, const Function& f) {
  std::ostringstream text;
  text << nameOf(f.kind) << " " << f.description << location(f.nameRange) << "\n";
  if (!f.launchBounds.empty()) {
    text << "  launch_bounds:";
    for (int64_t b : f.launchBounds)
      text << " " << b;
    text << "\n";
  }
  if (f.maxRegisters)
    text << "  max_registers: " << *f.maxRegisters << "\n";
  text << "  variables:\n";
  for (size_t v = 0; v < f.variables.size(); ++v)
    text << "    " << f.variables[v].name << (f.variables[v].parameter ? " (parameter)" : "")
         << " : " << typeText(f.variables[v].type) << "\n";
  text << "  versions:\n";
  for (size_t v = 0; v < f.versions.size(); ++v) {
    const Version& version = f.versions[v];
    text << "    " << f.versionName(v) << " = ";
    switch (version.kind) {
    case Version::Kind::Entry:
      text << "entry";
      break;
    case Version::Kind::Def:
      text << "def";
      break;
    case Version::Kind::Undefined:
      text << "undefined";
      break;
    case Version::Kind::Phi: {
      text << (version.live ? "phi(" : "dead phi(");
      for (size_t i = 0; i < version.inputs.size(); ++i) {
        const PhiInput& in = version.inputs[i];
        text << (i ? ", " : "") << f.versionName(in.version) << " " << nameOf(in.edge);
        if (in.at != nullptr && in.at->range.valid())
          text << " @" << in.at->range.begin.line << ":" << in.at->range.begin.column;
      }
      text << ")";
      if (version.join != nullptr)
        text << (version.loopHead ? " at the head of " : " after ")
             << snakeCase(nodeKindName(version.join->kind)) << location(version.join->range);
      break;
    }
    }
    text << " : " << typeText(version.type);
    if (version.reads != 0)
      text << ", " << version.reads << (version.reads == 1 ? " read" : " reads");
    text << "\n";
  }
  text << "  body:\n";
  Printer p(f);
  for (const Stmt* s : f.body)
    p.statement(text, s, 2);
  out << text.str();
}

void print(std::ostream& out, const Module& module) {
  for (size_t i = 0; i < module.functions().size(); ++i) {
    if (i != 0)
      out << "\n";
    print(out, *module.functions()[i]);
  }
}

} // namespace pyk::ir
