// LocalVersions: numba's SSA form of a function's variables, over the AST. Every assignment to a
// variable (a local, or a parameter) makes a new version of it; where control flow joins and
// different versions of a variable arrive, a phi version stands for them; every read of a
// variable reads exactly one version. numba types each version on its own (after its SSA pass, a
// name re-assigned in straight-line code may take a new type) and unifies the incoming types at a
// phi, so typing works per version; code generation stores versions of one variable and one type
// in one C++ variable, and copies a value where a phi joins versions stored apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

#include "sema/resolve/PhiEdge.h"
#include "syntax/Ast.h"

namespace pyk::sema {

struct FunctionScope;

struct PhiInput {
  size_t version = kNoVersion;
  PhiEdge edge = PhiEdge::IfThen;
  const ast::Node* at = nullptr;
};

struct LocalVersion {
  enum class Kind : uint8_t {
    Entry, // a parameter's value on entry
    Def,   // an assignment (a Name stored to, `for` targets and `+=` included)
    Phi,   // a join of control flow
    // What a read no assignment reaches on any path sees (numba's UndefVar: numba compiles the
    // read as an undefined value of the type the variable's other versions unify to; pyk's is
    // that type's zero). One per such variable, defined on entry.
    Undefined,
  };
  Kind kind = Kind::Def;
  VariableId variable = 0;
  const ast::Name* name = nullptr;  // Def: the Name stored to
  const ast::Expr* value = nullptr; // Def by `name = value` (or `name: T = value`): the value
  const ast::Node* join = nullptr;  // Phi: the If, For or While it joins at
  std::vector<PhiInput> inputs;     // Phi: every version that flows in (none is kNoVersion)
  std::vector<size_t> usedByPhis;   // the live phis this version flows into
  // Phi: something reads it (directly, or through other phis). numba makes a phi only where a
  // read needs one; a dead phi (a loop variable assigned before any read in the loop) is not
  // typed, so the types flowing into it need not unify.
  bool live = true;
  uint32_t reads = 0; // how many reads (loads, and the read of a `+=`) see it
};

struct LocalVersions {
  std::vector<LocalVersion> versions;
  // The version each Name of a variable reads (loads) or makes (stores).
  std::unordered_map<const ast::Name*, size_t> ofName;
  // The version an augmented assignment `x op= v` reads (its target Name maps to what it makes).
  std::unordered_map<const ast::AugAssign*, size_t> augmentedRead;
  // The live phis at an If's join or a loop's exit (after the statement), and at a loop's head
  // (before its body, each pass), in the order they were made.
  std::unordered_map<const ast::Node*, std::vector<size_t>> joinPhis;
  std::unordered_map<const ast::Node*, std::vector<size_t>> headPhis;
  // Reads that no assignment reaches on any path: each reads the variable's Undefined version
  // (a warning says so, where Python would raise UnboundLocalError).
  std::vector<const ast::Name*> unassignedReads;

  size_t ofNameOr(const ast::Name* n, size_t otherwise = kNoVersion) const {
    auto it = ofName.find(n);
    return it == ofName.end() ? otherwise : it->second;
  }
};

// The SSA versions of `body`'s variables, as resolved in `scope` (names bound).
LocalVersions buildLocalVersions(const std::vector<ast::Stmt*>& body, const FunctionScope& scope);

} // namespace pyk::sema
