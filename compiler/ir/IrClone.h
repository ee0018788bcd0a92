// IrClone: deep copies of IR nodes and the replacement of one child, generated from IrNodes.def
// (every field copied, every child copied in turn), for passes that rewrite a function's IR
// without touching the module lowering made (the CPU backend's inlining of device functions
// that wait at barriers).
#pragma once

#include <functional>
#include <unordered_map>

#include "ir/Ir.h"

namespace pyk::ir {

// How a copy is made, and what it made.
struct CloneOptions {
  // A node for which this is true is not copied: the copy refers to the original (a shared
  // array's allocation, whose offset in the block's shared memory is keyed by its node).
  std::function<bool(const Node*)> share;
  // Called on each copy once its fields and children are copied, with the original: it may
  // rewrite the copy's data (a Read's or LocalTarget's version, for another function).
  std::function<void(const Node* original, Node* copy)> adjust;
  // Every original copied (or shared) so far, and its copy.
  std::unordered_map<const Node*, Node*> copies;
};

// A copy of `node` and everything below it, its nodes owned by `into`.
Node* cloneTree(Module& into, const Node* node, CloneOptions& options);
template <class T>
T* cloneTree(Module& into, const T* node, CloneOptions& options) {
  return static_cast<T*>(cloneTree(into, static_cast<const Node*>(node), options));
}

// Makes `parent` refer to `replacement` wherever it referred to `child` (a direct child, of the
// same family); false when `child` is no child of `parent`.
bool replaceChild(Node* parent, const Node* child, Node* replacement);

} // namespace pyk::ir
