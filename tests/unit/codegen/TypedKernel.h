// TypedKernel: a kernel written as .pyk source in a test, parsed, resolved and typed for one
// signature, with what the tests of the CPU pipeline's passes ask of it: the specializations it
// reaches, its locals by name, and a split plan's steps as text.
#pragma once

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "../sema/SemaTestSupport.h"
#include "codegen/CpuExecutionPlan.h"
#include "lower/Lowering.h"
#include "sema/SignatureParser.h"
#include "sema/TypeInference.h"

namespace pyk::test {

class TypedKernel {
public:
  // `source` defines `kernel` (and any device functions it calls); typed for `signature`.
  TypedKernel(const std::string& source, const std::string& kernel, const std::string& signature)
      : resolved_(source) {
    if (!resolved_.ok())
      return;
    std::optional<sema::FunctionSignature> sig = sema::parseSignature(
        signature, sema::StringLiteralLocation(SourceRange(), signature, nullptr), resolved_.diags);
    for (const sema::CompiledFunction& f : resolved_.module.functions)
      if (f.name == kernel && sig)
        spec_ = sema::specialize(resolved_.module, f, sig->params, set_, resolved_.diags,
                                 sig->returnType);
    if (spec_ != nullptr && !resolved_.diags.hasErrors())
      lowered_ =
          lower::lowerSpecialization(resolved_.module, resolved_.file, *spec_, resolved_.diags);
  }
  TypedKernel(const TypedKernel&) = delete;

  bool ok() const {
    return spec_ != nullptr && lowered_.module != nullptr && !resolved_.diags.hasErrors();
  }
  std::string errors() const { return resolved_.errors(); }
  const sema::Specialization& spec() const { return *spec_; }
  const sema::ResolvedModule& module() const { return resolved_.module; }
  const SourceFile& file() const { return resolved_.file; }
  std::vector<const sema::Specialization*> reached() const { return lower::reachedFrom(*spec_); }
  // The kernel's typed IR (null where typing or lowering failed), and what a node of its syntax
  // tree was lowered to; what they reported.
  const lower::LoweredModule& loweredModule() const { return lowered_; }
  const DiagnosticEngine& diagnostics() const { return resolved_.diags; }
  const ir::Function& irEntry() const { return lowered_.module->entry(); }
  template <class T>
  const T* lowered(const ast::Node* n) const {
    auto it = lowered_.fromAst.find(n);
    return it == lowered_.fromAst.end() ? nullptr : it->second->as<T>();
  }
  // The IR's variable of local `name` (a test failure when there is none).
  sema::VariableId variable(const std::string& name) const {
    return spec_->function->scope.params.size() + local(name);
  }

  // The index of local `name` (a test failure, and a past-the-end index, when there is none).
  size_t local(const std::string& name) const {
    const std::vector<std::string>& locals = spec_->function->scope.locals;
    for (size_t i = 0; i < locals.size(); ++i)
      if (locals[i] == name)
        return i;
    ADD_FAILURE() << "no local `" << name << "`";
    return locals.size();
  }
  // The names of a set of locals.
  std::set<std::string> names(const codegen::LocalSet& locals) const {
    std::set<std::string> out;
    for (size_t i : locals)
      out.insert(spec_->function->scope.locals[i]);
    return out;
  }

  // The first expression of the kernel whose source text is `text`.
  const ast::Expr* expression(const std::string& text) const {
    const ast::Expr* found = nullptr;
    ast::forEachNode(spec_->function->def, [&](const ast::Node* n) {
      const auto* e = n->as<ast::Expr>();
      if (found == nullptr && e != nullptr && sourceOf(e) == text)
        found = e;
    });
    if (found == nullptr)
      ADD_FAILURE() << "no expression `" << text << "`";
    return found;
  }

  // The source text of a node (on one line).
  std::string sourceOf(const ast::Node* n) const {
    if (n->range.begin.line != n->range.end.line)
      return std::string(lineOf(n));
    return std::string(
        resolved_.file.line(n->range.begin.line)
            .substr(n->range.begin.column - 1, n->range.end.column - n->range.begin.column));
  }

  // A plan's steps, one a line, nested steps indented: `region: S; S`, `uniform: S`, and the
  // first line of each block-level statement; a statement distributed out of an `if` reads
  // `[if P] S`; a narrowed region ends with its box, ` <box: tx < s | ...>`.
  std::string stepsText(const std::vector<codegen::SplitStep>& steps,
                        const std::string& indent = "") const {
    std::string out;
    for (const codegen::SplitStep& s : steps) {
      switch (s.kind) {
      case codegen::SplitStep::Kind::Region:
      case codegen::SplitStep::Kind::Uniform: {
        out += indent + (s.kind == codegen::SplitStep::Kind::Region ? "region:" : "uniform:");
        const char* separator = " ";
        for (const codegen::RegionStatement& st : s.statements) {
          out += separator;
          if (st.guard != nullptr)
            out += "[" + std::string(lineOf(st.guard)) + "] ";
          out += lineOf(st.statement);
          separator = "; ";
        }
        if (!s.narrowing.empty())
          out += " <box: " + boxText(s.narrowing) + ">";
        out += "\n";
        break;
      }
      case codegen::SplitStep::Kind::For:
      case codegen::SplitStep::Kind::While:
        out += indent + std::string(lineOf(s.control)) + "\n" + stepsText(s.body, indent + "  ");
        break;
      case codegen::SplitStep::Kind::If:
        out += indent + std::string(lineOf(s.control)) + "\n" + stepsText(s.body, indent + "  ");
        if (!s.orelse.empty())
          out += indent + "else:\n" + stepsText(s.orelse, indent + "  ");
        break;
      }
    }
    return out;
  }

  // Alternatives of bounds as `tx < s & ty == 0 | ...`: the axis (`tx`, `ty`, `tz`; `gx`...
  // for a bound of the grid index), the operator, the bound's source.
  std::string boxText(const std::vector<std::vector<codegen::ThreadBound>>& alternatives) const {
    std::string out;
    for (size_t a = 0; a < alternatives.size(); ++a) {
      out += a == 0 ? "" : " | ";
      for (size_t b = 0; b < alternatives[a].size(); ++b) {
        const codegen::ThreadBound& bound = alternatives[a][b];
        out += (b == 0 ? "" : " & ") + std::string(bound.global ? "g" : "t") + "xyz"[bound.axis] +
               " " + ast::toString(bound.op) + " " + sourceOf(bound.bound);
      }
    }
    return out;
  }

  // The first line of a statement's source, without its indentation.
  std::string_view lineOf(const ast::Node* n) const {
    std::string_view line = resolved_.file.line(n->range.begin.line);
    return line.substr(line.find_first_not_of(' '));
  }

private:
  Resolved resolved_;
  sema::SpecializationSet set_;
  const sema::Specialization* spec_ = nullptr;
  lower::LoweredModule lowered_;
};

} // namespace pyk::test
