// LoweredKernel: a kernel written as .pyk source in a test, typed for one signature (TypedKernel)
// and lowered to the typed IR, with the IR's text and a search for its nodes.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "../codegen/TypedKernel.h"
#include "ir/IrPrinter.h"
#include "ir/IrVerifier.h"
#include "lower/Lowering.h"

namespace pyk::test {

class LoweredKernel {
public:
  LoweredKernel(const std::string& source, const std::string& kernel, const std::string& signature)
      : typed_(source, kernel, signature) {
    if (!typed_.ok())
      return;
    lower::LoweredModule lowered =
        lower::lowerSpecialization(typed_.module(), resolvedFile(), typed_.spec(), diags_);
    problems_ = std::move(lowered.internalProblems);
    module_ = std::move(lowered.module);
  }

  // Typed, lowered, and nothing reported.
  bool ok() const { return module_ != nullptr && problems_.empty() && !diags_.hasErrors(); }
  std::string errors() const {
    std::ostringstream out;
    out << typed_.errors();
    diags_.render(out, false);
    for (const std::string& p : problems_)
      out << p << "\n";
    return out.str();
  }
  const DiagnosticEngine& diagnostics() const { return diags_; }
  const ir::Module& module() const { return *module_; }
  const ir::Function& entry() const { return module_->entry(); }
  std::string text() const {
    std::ostringstream out;
    ir::print(out, *module_);
    return out.str();
  }

  // Every node of the entry function of kind T, in execution order, parents first.
  template <class T>
  std::vector<const T*> all() const {
    std::vector<const T*> out;
    for (const ir::Stmt* s : entry().body)
      ir::forEachNode(s, [&](const ir::Node* n) {
        if (const auto* t = n->as<T>())
          out.push_back(t);
      });
    return out;
  }
  template <class T>
  const T* first() const {
    std::vector<const T*> nodes = all<T>();
    if (nodes.empty()) {
      ADD_FAILURE() << "no " << ir::nodeKindName(T::kKind) << " in\n" << text();
      return nullptr;
    }
    return nodes.front();
  }

private:
  const SourceFile& resolvedFile() const { return typed_.file(); }

  TypedKernel typed_;
  DiagnosticEngine diags_;
  std::unique_ptr<ir::Module> module_;
  std::vector<std::string> problems_;
};

} // namespace pyk::test
