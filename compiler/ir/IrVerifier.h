// IrVerifier: checks a module of the typed IR is well formed: every node's type agrees with its
// operands' (operators, conversions, tuples, arrays, calls, stores, loops), every Read reads a
// version of its variable that is defined where it is read (an entry, an earlier store on the
// way, a phi of an enclosing join), Break and Continue sit in loops, and Bound values in their
// SpreadCall. Lowering runs it in debug builds and the tests run it everywhere: a pass's bug
// shows as a located internal error at the pass, not as a wrong kernel later.
#pragma once

#include <string>
#include <vector>

#include "ir/Ir.h"

namespace pyk::ir {

// The problems found, each `function: node text: what is wrong`; empty when well formed.
std::vector<std::string> verify(const Module& module);
std::vector<std::string> verify(const Module& module, const Function& function);

} // namespace pyk::ir
