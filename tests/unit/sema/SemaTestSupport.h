// SemaTestSupport: parse and resolve a source string in a test, and read the diagnostics back.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "diag/DiagnosticEngine.h"
#include "sema/resolve/ModuleResolver.h"
#include "sema/resolve/ResolvedModulePrinter.h"
#include "syntax/Parser.h"

namespace pyk::test {

struct Resolved {
  SourceFile file;
  DiagnosticEngine diags;
  ParseResult parsed;
  sema::ResolvedModule module;

  explicit Resolved(const std::string& source)
      : file("t.pyk", source), diags(&file, 100), parsed(parseModule(file, diags)) {
    if (parsed.module != nullptr)
      module = sema::resolveModule(*parsed.module, diags);
  }
  Resolved(const Resolved&) = delete;

  bool parsedOk() const { return parsed.module != nullptr; }
  bool ok() const { return parsedOk() && !diags.hasErrors(); }

  // Every diagnostic as "line:col: message", notes as "  note: line:col: message".
  std::vector<std::string> messages() const {
    std::vector<std::string> out;
    for (const Diagnostic& d : diags.diagnostics()) {
      out.push_back(location(d) + d.message);
      for (const Diagnostic& n : d.notes)
        out.push_back("  note: " + location(n) + n.message);
    }
    return out;
  }
  std::string errors() const {
    std::string out;
    for (const std::string& m : messages())
      out += m + "\n";
    return out;
  }
  bool hasMessage(const std::string& text) const {
    for (const std::string& m : messages())
      if (m == text)
        return true;
    return false;
  }
  bool mentions(const std::string& text) const { return errors().find(text) != std::string::npos; }

  std::string symbols() const {
    std::ostringstream out;
    sema::printResolvedModule(module, out);
    return out.str();
  }

  const sema::ConstantValue* constant(const std::string& name) const {
    const sema::ModuleConstant* c = module.constant(name);
    return c != nullptr ? &c->value : nullptr;
  }
  // "repr : type" of a constant, or "<not constant>".
  std::string constantText(const std::string& name) const {
    const sema::ConstantValue* v = constant(name);
    return v != nullptr ? v->repr() + " : " + v->typeDescription() : "<not constant>";
  }

private:
  static std::string location(const Diagnostic& d) {
    if (!d.range.valid())
      return "";
    return std::to_string(d.range.begin.line) + ":" + std::to_string(d.range.begin.column) + ": ";
  }
};

} // namespace pyk::test
