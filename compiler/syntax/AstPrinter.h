// AstPrinter: a readable, indented dump of the AST (`pykc emit --emit=ast`).
#pragma once

#include <ostream>

#include "syntax/Ast.h"

namespace pyk::ast {

// One line per node: `field: Kind attributes @line:col-line:col`, children indented below.
void printAst(const Node* node, std::ostream& out);

} // namespace pyk::ast
