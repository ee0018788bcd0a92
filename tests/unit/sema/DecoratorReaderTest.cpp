// DecoratorReaderTest: finding kernels, device functions and ufuncs through any import alias, and
// checking the decorators' arguments.
#include <gtest/gtest.h>

#include "SemaTestSupport.h"

namespace pyk::test {
namespace {

using types::CompiledFunctionKind;

const char* kindOf(const Resolved& r, const std::string& name) {
  const sema::CompiledFunction* f = r.module.function(name);
  return f != nullptr ? types::nameOf(f->kind) : "<not compiled>";
}

TEST(DecoratorReader, Classification) {
  Resolved r(R"PY(
from numba import cuda, vectorize, guvectorize, float32, void
import numba

@cuda.jit
def k1(a):
    pass

@cuda.jit()
def k2(a):
    pass

@cuda.jit("void(float32[:])")
def k3(a):
    pass

@cuda.jit(device=True)
def d1(x):
    return x

@numba.cuda.jit(["float32(float32)", "float64(float64)"], device=True, inline=True)
def d2(x):
    return x

@vectorize(["float32(float32, float32)"], target="cuda")
def v(x, y):
    return x + y

@guvectorize(["void(float32[:], float32[:])"], "(n)->(n)", target="cuda")
def g(a, out):
    pass

@numba.njit
def cpu(x):
    return x

def host():
    pass
)PY");
  EXPECT_TRUE(r.ok()) << r.errors();
  EXPECT_STREQ(kindOf(r, "k1"), "kernel");
  EXPECT_STREQ(kindOf(r, "k2"), "kernel");
  EXPECT_STREQ(kindOf(r, "k3"), "kernel");
  EXPECT_STREQ(kindOf(r, "d1"), "device function");
  EXPECT_STREQ(kindOf(r, "d2"), "device function");
  EXPECT_STREQ(kindOf(r, "v"), "vectorize");
  EXPECT_STREQ(kindOf(r, "g"), "guvectorize");
  // An @njit function is a device function where GPU code calls it (numba compiles it so).
  EXPECT_STREQ(kindOf(r, "cpu"), "device function");
  EXPECT_TRUE(r.module.function("cpu")->cpuJit);
  EXPECT_STREQ(kindOf(r, "host"), "<not compiled>");
  ASSERT_EQ(r.module.functions.size(), 8u);
  EXPECT_TRUE(r.module.function("k1")->lazy);
  EXPECT_TRUE(r.module.function("k2")->lazy);
  ASSERT_EQ(r.module.function("k3")->signatures.size(), 1u);
  EXPECT_EQ(r.module.function("k3")->signatures[0].spelling(), "void(float32[:])");
  EXPECT_EQ(r.module.function("d2")->signatures.size(), 2u);
  EXPECT_EQ(r.module.function("d2")->options.inlineMode, "always");
  EXPECT_EQ(r.module.function("v")->options.target, "cuda");
  EXPECT_EQ(r.module.function("g")->layout->spelling(), "(n)->(n)");
}

TEST(DecoratorReader, ImportAliases) {
  Resolved r(R"PY(
import numba.cuda as cu
from numba import cuda as gpu
from numba.cuda import jit
import numba as nb

@cu.jit
def a(x):
    pass

@gpu.jit
def b(x):
    pass

@jit
def c(x):
    pass

@nb.cuda.jit(device=True)
def d(x):
    return x

@nb.vectorize(["int32(int32)"], target="cuda")
def e(x):
    return x
)PY");
  EXPECT_TRUE(r.ok()) << r.errors();
  EXPECT_STREQ(kindOf(r, "a"), "kernel");
  EXPECT_STREQ(kindOf(r, "b"), "kernel");
  EXPECT_STREQ(kindOf(r, "c"), "kernel");
  EXPECT_STREQ(kindOf(r, "d"), "device function");
  EXPECT_STREQ(kindOf(r, "e"), "vectorize");
  EXPECT_EQ(r.module.function("d")->decoratorName, "nb.cuda.jit");
}

TEST(DecoratorReader, SignaturesAsTypeExpressions) {
  Resolved r(R"PY(
from numba import cuda, void, float32, int32, types
SIG = "void(int64[::1])"

@cuda.jit(void(float32[:, ::1], int32))
def a(x, n):
    pass

@cuda.jit(float32(float32, float32), device=True)
def b(x, y):
    return x

@cuda.jit(SIG)
def c(x):
    pass

@cuda.jit((types.UniTuple(int32, 2),))
def e(t):
    pass
)PY");
  EXPECT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(r.module.function("a")->signatures.at(0).spelling(), "void(float32[:, ::1], int32)");
  EXPECT_EQ(r.module.function("b")->signatures.at(0).spelling(), "float32(float32, float32)");
  EXPECT_EQ(r.module.function("c")->signatures.at(0).spelling(), "void(int64[::1])");
  EXPECT_EQ(r.module.function("e")->signatures.at(0).spelling(), "(UniTuple(int32, 2),)");
}

TEST(DecoratorReader, Options) {
  Resolved r(R"PY(
from numba import cuda
DEBUG = False

@cuda.jit("void(float32[:])", fastmath=True, debug=DEBUG, lineinfo=True, cache=True,
          max_registers=32, opt=False, launch_bounds=(128, 2))
def k(a):
    pass

@cuda.jit(fastmath={"nsz", "arcp"}, inline="never", device=True)
def d(a):
    return a
)PY");
  EXPECT_TRUE(r.ok()) << r.errors();
  const sema::DecoratorOptions& o = r.module.function("k")->options;
  EXPECT_EQ(o.fastmath, true);
  EXPECT_EQ(o.debug, false);
  EXPECT_EQ(o.lineinfo, true);
  EXPECT_EQ(o.cache, true);
  EXPECT_EQ(o.maxRegisters, 32);
  EXPECT_EQ(o.opt, false);
  // link= is read and its files found then (lit: run/ffi_declare_device, run/ffi_errors).
  EXPECT_EQ(o.launchBounds, (std::vector<int64_t>{128, 2}));
  const sema::DecoratorOptions& d = r.module.function("d")->options;
  EXPECT_EQ(d.fastmathFlags.size(), 2u);
  EXPECT_EQ(d.inlineMode, "never");
}

TEST(DecoratorReader, KeywordErrors) {
  Resolved r(R"PY(
from numba import cuda, vectorize

@cuda.jit(devic=True)
def a(x):
    pass

@cuda.jit(debug=1)
def b(x):
    pass

@cuda.jit(target="cuda")
def c(x):
    pass

@vectorize(["float32(float32)"], target="gpu")
def d(x):
    return x

@cuda.jit(fastmath={"nsz", "fsat"})
def e(x):
    pass

@cuda.jit(max_registers=N)
def f(x):
    pass
)PY");
  EXPECT_TRUE(r.hasMessage("4:11: `cuda.jit` got an unknown keyword argument `devic`"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("  note: 4:11: did you mean `device`?")) << r.errors();
  EXPECT_TRUE(r.mentions("allowed keyword arguments: `device`, `inline`")) << r.errors();
  EXPECT_TRUE(r.hasMessage("8:17: `debug` of `cuda.jit` must be `True`, `False` or `None`"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("12:11: `cuda.jit` takes no `target`; it always compiles for the GPU"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("16:41: unknown target `gpu`; expected `cuda`, `cpu` or `parallel`"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("20:28: unknown fastmath flag `fsat`")) << r.errors();
  EXPECT_TRUE(r.hasMessage("24:25: `max_registers` of `cuda.jit` must be a compile-time constant "
                           "(`N` is not defined before this point)"))
      << r.errors();
}

TEST(DecoratorReader, SignatureErrors) {
  Resolved r(R"PY(
from numba import cuda, vectorize, guvectorize

@cuda.jit("float32(float32)")
def k(x):
    pass

@cuda.jit("void(flaot32[:])")
def k2(x):
    pass

@cuda.jit("void(int32, int32)")
def k3(x):
    pass

@vectorize(["(float32,)", "float32(float32[:])"], target="cuda")
def v(x):
    return x

@guvectorize(["void(float32[:], float32[:])"], "(n),(n)->(n)", target="cuda")
def g(a, out):
    pass

@guvectorize(["void(float32[:, :], float32[:])"], "(n)->(n)", target="cuda")
def g2(a, out):
    pass

@guvectorize(["void(float32[:], float32[:])"], target="cuda")
def g3(a, out):
    pass

@guvectorize(["void(float32[:], float32[:])"], "(n->(n)", target="cuda")
def g4(a, out):
    pass

@cuda.jit(42)
def k4(x):
    pass
)PY");
  EXPECT_TRUE(r.hasMessage("4:11: kernels cannot return a value; use `void(...)`")) << r.errors();
  EXPECT_TRUE(r.hasMessage("8:17: unknown type `flaot32` in signature")) << r.errors();
  EXPECT_TRUE(
      r.hasMessage("12:11: signature `void(int32, int32)` has 2 arguments but `k3` takes 1"))
      << r.errors();
  EXPECT_TRUE(
      r.hasMessage("16:13: a `vectorize` signature needs a return type, as in `float32(float32)`"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("16:27: `vectorize` signatures take scalars, not `float32[:]`"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("20:15: `guvectorize` layout `(n),(n)->(n)` has 3 operands but the "
                           "signature has 2 arguments"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("24:15: argument 1 is `float32[:, :]` but the layout gives it 1 "
                           "dimensions"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("28:2: `guvectorize` needs a layout string such as `\"(n)->(n)\"`"))
      << r.errors();
  EXPECT_TRUE(r.mentions("invalid `guvectorize` layout `(n->(n)`: expected `,` or `)`"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("36:11: the signature of `cuda.jit` must be a string or a list of "
                           "strings"))
      << r.errors();
}

TEST(DecoratorReader, NestedDecoratedFunctions) {
  Resolved r(R"PY(
from numba import cuda

def make():
    @cuda.jit
    def inner(a):
        pass
    return inner

class Holder:
    @cuda.jit(device=True)
    def method(self):
        pass
)PY");
  // A kernel factory's kernel is compiled (its qualified name is Python's); a method is not.
  EXPECT_TRUE(r.hasMessage(
      "12:9: `method` is a method of class `Holder`; pyk compiles only module-level functions"))
      << r.errors();
  ASSERT_EQ(r.module.functions.size(), 1u);
  EXPECT_EQ(r.module.functions[0].qualifiedName, "make.<locals>.inner");
  EXPECT_EQ(r.module.function("inner"), &r.module.functions[0]);
}

} // namespace
} // namespace pyk::test
