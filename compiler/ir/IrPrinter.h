// IrPrinter: the IR in a stable text form (`pykc emit --emit=ir`, the IR lit tests), generated
// from IrNodes.def: each node is its kind in snake case, its data fields, its child values in
// parentheses and its type after a colon; statements one a line with their source position, their
// bodies indented below them; each function headed by its variables and their SSA versions.
#pragma once

#include <ostream>
#include <string>

#include "ir/Ir.h"

namespace pyk::ir {

void print(std::ostream& out, const Module& module);
void print(std::ostream& out, const Function& function);
// One node, in the text its function's print gives it (expressions, targets and iterations on
// one line; a statement with its bodies, indented by `indent` levels).
std::string toText(const Function& function, const Node* node, int indent = 0);

} // namespace pyk::ir
