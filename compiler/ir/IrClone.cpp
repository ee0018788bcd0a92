// IrClone: the copy and the replacement, one case per node kind from IrNodes.def.
#include "ir/IrClone.h"

namespace pyk::ir {

namespace {

// The `type` every family but statements carries.
template <class T>
void copyType(const T* from, T* to) {
  if constexpr (requires { to->type; })
    to->type = from->type;
}

} // namespace

Node* cloneTree(Module& into, const Node* node, CloneOptions& options) {
  if (node == nullptr)
    return nullptr;
  if (options.share && options.share(node)) {
    Node* same = const_cast<Node*>(node); // shared, never changed through the copy
    options.copies[node] = same;
    return same;
  }
  auto copyOf = [&](auto* child) {
    using Child = std::remove_const_t<std::remove_pointer_t<decltype(child)>>;
    return static_cast<Child*>(cloneTree(into, child, options));
  };
  Node* made = nullptr;
  switch (node->kind) {
#define CHILD(Family, name) to->name = copyOf(from->name);
#define OPTIONAL(Family, name) to->name = from->name == nullptr ? nullptr : copyOf(from->name);
#define CHILDREN(Family, name)                                                                     \
  for (const auto* child : from->name)                                                             \
    to->name.push_back(copyOf(child));
#define DATA(Type, name) to->name = from->name;
#define IR_NODE(Name, Family, Fields)                                                              \
  case NodeKind::Name: {                                                                           \
    const auto* from = static_cast<const Name*>(node);                                             \
    auto* to = into.make<Name>(node->range);                                                       \
    copyType(from, to);                                                                            \
    Fields made = to;                                                                              \
    break;                                                                                         \
  }
#include "ir/IrNodes.def"
#undef CHILD
#undef OPTIONAL
#undef CHILDREN
#undef DATA
  }
  options.copies[node] = made;
  if (options.adjust)
    options.adjust(node, made);
  return made;
}

bool replaceChild(Node* parent, const Node* child, Node* replacement) {
  bool replaced = false;
  switch (parent->kind) {
#define CHILD(Family, name)                                                                        \
  if (self->name == child) {                                                                       \
    self->name = static_cast<Family*>(replacement);                                                \
    replaced = true;                                                                               \
  }
#define OPTIONAL(Family, name) CHILD(Family, name)
#define CHILDREN(Family, name)                                                                     \
  for (auto*& item : self->name)                                                                   \
    if (item == child) {                                                                           \
      item = static_cast<Family*>(replacement);                                                    \
      replaced = true;                                                                             \
    }
#define DATA(Type, name)
#define IR_NODE(Name, Family, Fields)                                                              \
  case NodeKind::Name: {                                                                           \
    [[maybe_unused]] auto* self = static_cast<Name*>(parent);                                      \
    Fields break;                                                                                  \
  }
#include "ir/IrNodes.def"
#undef CHILD
#undef OPTIONAL
#undef CHILDREN
#undef DATA
  }
  return replaced;
}

} // namespace pyk::ir
