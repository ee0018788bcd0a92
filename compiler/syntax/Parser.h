// Parser: the front end's entry point, source text → AST (lexing, parsing, AST building).
#pragma once

#include <memory>

#include "diag/DiagnosticEngine.h"
#include "diag/SourceFile.h"
#include "syntax/Ast.h"

namespace pyk {

struct ParseResult {
  std::unique_ptr<ast::AstContext> context; // owns every node
  ast::Module* module = nullptr;            // null when the file had syntax errors
};

// Parses a whole file as Python 3.11. Every problem is reported to `diags`; the module is
// returned only when there was none. Never throws for bad input and never overflows the stack:
// nesting beyond the limits (200 brackets, 100 indentation levels, a bounded rule depth) is
// reported as an error.
ParseResult parseModule(const SourceFile& file, DiagnosticEngine& diags);

} // namespace pyk
