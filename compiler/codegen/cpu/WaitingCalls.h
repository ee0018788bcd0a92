// WaitingCalls: where, in a statement, a call that waits at a barrier (a device function's, or a
// barrier with a value) sits, as BarrierInlining needs it to take the call out: the part of the
// statement holding it, in Python's order of evaluation, whether an operand Python may skip
// holds it, and whether anything evaluated before it reads memory or has an effect (which
// evaluating the call first would reorder).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/Ir.h"

namespace pyk::codegen {

struct WaitingCall {
  ir::Call* call = nullptr;               // a call of a device function that waits at a barrier
  ir::IntrinsicCall* reduction = nullptr; // or a barrier with a value (`syncthreads_count`)
  ir::Node* parent = nullptr;             // the statement itself when the call is a whole part
  std::string skipped;       // non-empty: an operand Python may skip holds it ("`and`")
  bool afterEffects = false; // something evaluated before it reads memory or has an effect
};

// A barrier with a value (syncthreads_count/and/or: the table's BlockReduction).
bool isBlockReduction(const ir::Node* n);

class WaitingCallFinder {
public:
  // `waiting`: the functions that wait at a barrier; `done`: statements `v = syncthreads_count(p)`
  // whose barrier stays where it is.
  WaitingCallFinder(const std::set<const ir::Function*>& waiting,
                    const std::set<const ir::Node*>& done)
      : waiting_(waiting), done_(done) {}

  // The first waiting call `s` evaluates before running (not in its bodies; one made with
  // `f(*args)` is found with neither `call` nor `reduction`), or nullopt; `eachTrip`: `s`
  // evaluates it at each trip of a loop (a `while` test).
  std::optional<WaitingCall> find(ir::Stmt* s, bool& eachTrip);

private:
  void visit(ir::Node* n, ir::Node* parent, const std::string& skipped);

  const std::set<const ir::Function*>& waiting_;
  const std::set<const ir::Node*>& done_;
  std::optional<WaitingCall> found_;
  std::vector<const ir::Node*> before_; // what is evaluated before the call, whole subtrees
};

} // namespace pyk::codegen
