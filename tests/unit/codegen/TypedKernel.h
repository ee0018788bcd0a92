// TypedKernel: a kernel written as .pyk source in a test, parsed, resolved and typed for one
// signature, with what the tests of the CPU pipeline's passes ask of it: the specializations it
// reaches, its locals by name, and a split plan's steps as text.
#pragma once

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "../sema/SemaTestSupport.h"
#include "codegen/cpu/CpuExecutionPlan.h"
#include "lower/Lowering.h"
#include "sema/resolve/SignatureParser.h"
#include "sema/typing/TypeInference.h"

namespace pyk::test {

class TypedKernel {
public:
  // `source` defines `kernel` (and any device functions it calls); typed for `signature`.
  TypedKernel(const std::string& source, const std::string& kernel, const std::string& signature)
      : resolved_(source) {
    if (!resolved_.ok())
      return;
    std::optional<types::FunctionSignature> sig = sema::parseSignature(
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
  // The kernel's typed IR (null where typing or lowering failed); what they reported.
  const lower::LoweredModule& loweredModule() const { return lowered_; }
  const DiagnosticEngine& diagnostics() const { return resolved_.diags; }
  const ir::Module& irModule() const { return *lowered_.module; }
  const ir::Function& irEntry() const { return lowered_.module->entry(); }
  // The kernel's IR node of `kind` lowered from `n`: the first, in the IR's order, at `n`'s place
  // in the source (a value's conversion comes before the value). Null, a test failure, if none.
  template <class T>
  const T* lowered(const ast::Node* n) const {
    const T* found = nullptr;
    ir::forEachNode(irEntry().body, [&](const ir::Node* x) {
      if (found == nullptr && x->range.begin == n->range.begin && x->range.end == n->range.end)
        found = x->as<T>();
    });
    if (found == nullptr)
      ADD_FAILURE() << "no IR node lowered from `" << sourceOf(n) << "`";
    return found;
  }
  // The IR at the first expression of the kernel whose source text is `text`.
  const ir::Expr* irExpression(const std::string& text) const {
    return lowered<ir::Expr>(expression(text));
  }

  // The IR's variable of local `name` (a test failure, and a past-the-end index, when there is
  // none).
  sema::VariableId local(const std::string& name) const {
    const std::vector<ir::Variable>& variables = irEntry().variables;
    for (size_t v = 0; v < variables.size(); ++v)
      if (!variables[v].parameter && variables[v].name == name)
        return v;
    ADD_FAILURE() << "no local `" << name << "`";
    return variables.size();
  }
  sema::VariableId variable(const std::string& name) const { return local(name); }
  // The names of a set of variables.
  std::set<std::string> names(const codegen::LocalSet& variables) const {
    std::set<std::string> out;
    for (sema::VariableId v : variables)
      out.insert(irEntry().variableName(v));
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
  template <class N>
  std::string sourceOf(const N* n) const {
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
      case codegen::SplitStep::Kind::Reduction:
        out += indent + "reduction: " + std::string(lineOf(s.control)) + "\n";
        break;
      case codegen::SplitStep::Kind::For:
      case codegen::SplitStep::Kind::While:
        out += indent + std::string(lineOf(s.control)) +
               (s.strideAxis >= 0 ? std::string(" <lockstep ") + "xyz"[s.strideAxis] + ">" : "") +
               "\n" + stepsText(s.body, indent + "  ");
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
               " " + ir::spellingOf(bound.op) + " " + sourceOf(bound.bound);
      }
    }
    return out;
  }

  // The first line of a statement's source, without its indentation.
  template <class N>
  std::string_view lineOf(const N* n) const {
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
