// ParseTestSupport: parse a source string in a test and look at the AST or the diagnostics.
#pragma once

#include <sstream>
#include <string>

#include "diag/DiagnosticEngine.h"
#include "syntax/AstPrinter.h"
#include "syntax/Parser.h"

namespace pyk::test {

struct Parsed {
  SourceFile file;
  DiagnosticEngine diags;
  ParseResult result;

  explicit Parsed(const std::string& source)
      : file("t.pyk", source), diags(&file), result(parseModule(file, diags)) {}
  Parsed(const Parsed&) = delete;

  bool ok() const { return result.module != nullptr && !diags.hasErrors(); }
  std::string ast() const {
    std::ostringstream out;
    if (result.module != nullptr)
      ast::printAst(result.module, out);
    return out.str();
  }
  std::string errors() const {
    std::ostringstream out;
    diags.render(out, false);
    return out.str();
  }
  // The first diagnostic's "line:col: message", or "" when there is none.
  std::string first() const {
    if (diags.diagnostics().empty())
      return "";
    const Diagnostic& d = diags.diagnostics().front();
    return std::to_string(d.range.begin.line) + ":" + std::to_string(d.range.begin.column) + ": " +
           d.message;
  }
};

} // namespace pyk::test
