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
      : typed_(source, kernel, signature) {}

  // Typed, lowered, and nothing reported.
  bool ok() const { return typed_.ok() && typed_.loweredModule().internalProblems.empty(); }
  std::string errors() const {
    std::string out = typed_.errors();
    for (const std::string& p : typed_.loweredModule().internalProblems)
      out += p + "\n";
    return out;
  }
  const DiagnosticEngine& diagnostics() const { return typed_.diagnostics(); }
  const ir::Module& module() const { return *typed_.loweredModule().module; }
  const ir::Function& entry() const { return module().entry(); }
  std::string text() const {
    std::ostringstream out;
    ir::print(out, module());
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
  TypedKernel typed_;
};

} // namespace pyk::test
