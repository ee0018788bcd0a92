// IrNode: the names of the IR's node kinds, families, operators, function kinds and phi edges.
#include "ir/Ir.h"

#include <type_traits>

namespace pyk::ir {

const char* nodeKindName(NodeKind kind) {
  switch (kind) {
#define IR_NODE(Name, Family, Fields)                                                              \
  case NodeKind::Name:                                                                             \
    return #Name;
#include "ir/IrNodes.def"
  }
  return "?";
}

Family familyOf(NodeKind kind) {
  switch (kind) {
#define IR_NODE(Name, Family_, Fields)                                                             \
  case NodeKind::Name:                                                                             \
    return Family::Family_;
#include "ir/IrNodes.def"
  }
  return Family::Expr;
}

const char* nameOf(BinaryOp op) {
  static const char* const kNames[] = {
      "add",    "sub",    "mult",   "div",     "floordiv",      "mod",       "bitand",     "bitor",
      "bitxor", "lshift", "rshift", "pow_int", "pow_float_int", "pow_float", "pow_complex"};
  return kNames[static_cast<size_t>(op)];
}

const char* spellingOf(BinaryOp op) {
  static const char* const kSpellings[] = {"+", "-",  "*",  "/",  "//", "%",  "&", "|",
                                           "^", "<<", ">>", "**", "**", "**", "**"};
  return kSpellings[static_cast<size_t>(op)];
}

const char* nameOf(UnaryOp op) {
  static const char* const kNames[] = {"negate", "plus", "invert"};
  return kNames[static_cast<size_t>(op)];
}

const char* nameOf(CompareOp op) {
  static const char* const kNames[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return kNames[static_cast<size_t>(op)];
}

const char* spellingOf(CompareOp op) {
  static const char* const kSpellings[] = {"==", "!=", "<", "<=", ">", ">="};
  return kSpellings[static_cast<size_t>(op)];
}

const char* nameOf(DatetimeOp op) {
  return types::functionName(op);
}

const char* nameOf(LogicalOp op) {
  return op == LogicalOp::And ? "and" : "or";
}

namespace {

// The children of `node` in field order, as the generated switch finds them.
template <class NodePtr, class Fn>
void eachChild(NodePtr node, const Fn& fn) {
  constexpr bool isConst = std::is_const_v<std::remove_pointer_t<NodePtr>>;
  switch (node->kind) {
#define CHILD(Family, name) fn(self->name);
#define OPTIONAL(Family, name)                                                                     \
  if (self->name != nullptr)                                                                       \
    fn(self->name);
#define CHILDREN(Family, name)                                                                     \
  for (auto* child : self->name)                                                                   \
    fn(child);
#define DATA(Type, name)
#define IR_NODE(Name, Family, Fields)                                                              \
  case NodeKind::Name: {                                                                           \
    [[maybe_unused]] auto* self =                                                                  \
        static_cast<std::conditional_t<isConst, const Name*, Name*>>(node);                        \
    Fields break;                                                                                  \
  }
#include "ir/IrNodes.def"
#undef CHILD
#undef OPTIONAL
#undef CHILDREN
#undef DATA
  }
}

} // namespace

void forEachChild(Node* node, const std::function<void(Node*)>& fn) {
  eachChild(node, fn);
}

void forEachChild(const Node* node, const std::function<void(const Node*)>& fn) {
  eachChild(node, fn);
}

std::string Function::versionName(size_t version) const {
  if (version >= versions.size())
    return "?." + std::to_string(version);
  return variables[versions[version].variable].name + "." + std::to_string(version);
}

} // namespace pyk::ir
