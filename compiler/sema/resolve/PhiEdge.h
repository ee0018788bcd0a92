// PhiEdge: the vocabulary of SSA versions that needs no syntax tree (variable ids, the absent
// version, the control-flow edges that carry values into phis), shared by LocalVersions and the
// typed IR.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace pyk::sema {

// A variable of a function: a parameter (index < params.size()) or a local (params.size() + its
// index in FunctionScope::locals).
using VariableId = size_t;

// No version: a variable read where no assignment reaches it.
inline constexpr size_t kNoVersion = std::numeric_limits<size_t>::max();

// Where a value flows into a phi.
enum class PhiEdge : uint8_t {
  IfThen,    // the end of an `if`'s body (at: the If)
  IfElse,    // the end of its `else` (at: the If; also when it has none)
  LoopEntry, // into a loop, from before it (at: the For or While)
  LoopBack,  // the end of a loop's body, back to its head (at: the loop)
  Continue,  // a `continue` (at: the Continue)
  Break,     // a `break`, to the loop's exit (at: the Break)
  LoopExit,  // a loop's normal end (its test false, its sequence done), after its `else` (at: the
             // loop)
};

// The edge's name in the IR's text: "then", "else", "entry", "back", "continue", "break", "exit".
const char* nameOf(PhiEdge edge);

} // namespace pyk::sema
