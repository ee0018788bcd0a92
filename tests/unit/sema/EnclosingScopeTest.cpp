// EnclosingScope: the names a kernel factory binds, as its nested kernels see them: constants
// folded in order (with the module's), parameters and names assigned twice as host values with
// the reason, nested decorated functions compiled under Python's qualified names.
#include <gtest/gtest.h>

#include "SemaTestSupport.h"

namespace pyk::test {
namespace {

TEST(EnclosingScope, FactoryNamesAsTheNestedKernelSeesThem) {
  Resolved r(R"PY(from numba import cuda
N = 4

def make(p):
    TPB = N * 4
    shape = (TPB, 2)
    twice = 0
    twice = 1
    if p:
        inner_only = 3

    @cuda.jit(device=True)
    def helper(x):
        return x

    @cuda.jit
    def k(a):
        pass
)PY");
  EXPECT_TRUE(r.ok()) << r.errors();
  ASSERT_EQ(r.module.functions.size(), 2u);
  const sema::CompiledFunction& k = *r.module.function("k");
  EXPECT_EQ(k.qualifiedName, "make.<locals>.k");
  const sema::ModuleSymbolTable& symbols = r.module.symbols;
  auto hidden = [&](const std::string& name) -> const sema::ModuleSymbol* {
    auto it = k.enclosingNames.find(name);
    return it == k.enclosingNames.end() ? nullptr : symbols.find(it->second);
  };
  ASSERT_NE(hidden("TPB"), nullptr);
  ASSERT_EQ(hidden("TPB")->kind, sema::ModuleSymbolKind::Constant);
  EXPECT_EQ(symbols.constants()[hidden("TPB")->index].value.repr(), "16");
  ASSERT_EQ(hidden("shape")->kind, sema::ModuleSymbolKind::Constant);
  EXPECT_EQ(symbols.constants()[hidden("shape")->index].value.repr(), "(16, 2)");
  ASSERT_EQ(hidden("helper")->kind, sema::ModuleSymbolKind::CompiledFunction);
  EXPECT_EQ(r.module.functions[hidden("helper")->index].qualifiedName, "make.<locals>.helper");
  for (const char* notConstant : {"p", "twice", "inner_only"}) {
    ASSERT_NE(hidden(notConstant), nullptr) << notConstant;
    EXPECT_EQ(hidden(notConstant)->kind, sema::ModuleSymbolKind::HostValue) << notConstant;
  }
  EXPECT_NE(symbols.hostValues()[hidden("p")->index].reason.find("a parameter of `make`"),
            std::string::npos);
  EXPECT_NE(symbols.hostValues()[hidden("twice")->index].reason.find("more than once"),
            std::string::npos);
  // The factory's names are not module names.
  EXPECT_EQ(symbols.find("TPB"), nullptr);
}

} // namespace
} // namespace pyk::test
