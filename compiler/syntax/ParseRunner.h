// ParseRunner: runs the generated lexer and parser over a text (the file, or an f-string field).
// Internal to syntax/.
#pragma once

#include <string>

#include "diag/DiagnosticEngine.h"
#include "syntax/Ast.h"
#include "syntax/SyntaxErrorReporter.h"

namespace pyk::syntax {

// Parses `text`, the expression of an f-string replacement field whose first character is at
// `positions` in the file, and builds its AST into `context`. Returns null after reporting
// errors.
ast::Expr* parseFStringField(const std::string& text, PositionMap positions,
                             ast::AstContext& context, DiagnosticEngine& diags);

} // namespace pyk::syntax
