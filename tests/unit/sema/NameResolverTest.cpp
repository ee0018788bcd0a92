// NameResolverTest: names in kernel, device function and ufunc bodies, and the constructs
// numba.cuda cannot compile there.
#include <set>

#include <gtest/gtest.h>

#include "SemaTestSupport.h"

namespace pyk::test {
namespace {

using sema::NameBinding;

// The kinds of binding the named function's body gives `id` (one per Name node).
std::vector<std::string> bindingsOf(const Resolved& r, const std::string& function,
                                    const std::string& id) {
  std::vector<std::string> out;
  const sema::CompiledFunction* f = r.module.function(function);
  if (f == nullptr)
    return out;
  for (const auto& [name, binding] : f->scope.names)
    if (name->id == id)
      out.push_back(std::string(sema::nameOf(binding.kind)) +
                    (binding.qualifiedName.empty() ? "" : " " + binding.qualifiedName));
  return out;
}

TEST(NameResolver, ResolvesEveryKindOfName) {
  Resolved r(R"PY(
import math
import numpy as np
from numba import cuda, float32
from math import sqrt
TPB = 16

@cuda.jit(device=True)
def helper(x):
    return sqrt(x) + math.pi

@cuda.jit
def kernel(a, n):
    sm = cuda.shared.array(TPB, dtype=float32)
    i, j = cuda.grid(2)
    for k in range(n):
        t = helper(a[k]) * np.float32(2)
    if (m := i + 1) > 0:
        print("value", m, cuda.threadIdx.x)
    total = 0
    total += len(a)
)PY");
  ASSERT_TRUE(r.ok()) << r.errors();
  const sema::CompiledFunction* k = r.module.function("kernel");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->scope.params, (std::vector<std::string>{"a", "n"}));
  EXPECT_EQ(k->scope.locals, (std::vector<std::string>{"sm", "i", "j", "k", "t", "m", "total"}));
  EXPECT_EQ(bindingsOf(r, "kernel", "TPB"), std::vector<std::string>{"constant"});
  EXPECT_EQ(bindingsOf(r, "kernel", "helper"), std::vector<std::string>{"device function"});
  EXPECT_EQ(bindingsOf(r, "kernel", "range"), std::vector<std::string>{"builtin range"});
  EXPECT_EQ(bindingsOf(r, "kernel", "float32"), std::vector<std::string>{"api numba.float32"});
  EXPECT_EQ(bindingsOf(r, "helper", "sqrt"), std::vector<std::string>{"api math.sqrt"});
  EXPECT_EQ(bindingsOf(r, "kernel", "n"), std::vector<std::string>{"parameter"});
  std::set<std::string> api;
  for (const auto& [attribute, qualified] : k->scope.apiAttributes)
    api.insert(qualified);
  EXPECT_TRUE(api.count("numba.cuda.shared.array"));
  EXPECT_TRUE(api.count("numba.cuda.grid"));
  EXPECT_TRUE(api.count("numba.cuda.threadIdx.x"));
  EXPECT_TRUE(api.count("numpy.float32"));
}

TEST(NameResolver, UnknownNamesAndMembers) {
  Resolved r(R"PY(
import math
import numpy as np
from numba import cuda

@cuda.jit
def kernel(a, count):
    i = cuda.gird(1)
    a[i] = cont + math.sqr(2.0) + math.gcd(4, 2)
    cuda.syncthread()
    x = cuda.threadIdx.w
    y = np.zeros(3)
    z = np.foo(1)
    cuda.to_device(a)
    s = sorted(a)
)PY");
  EXPECT_TRUE(r.hasMessage("8:9: `cuda.gird` is not part of numba.cuda")) << r.errors();
  EXPECT_TRUE(r.hasMessage("  note: 8:9: did you mean `cuda.grid`?")) << r.errors();
  EXPECT_TRUE(r.hasMessage("9:12: unknown name `cont`")) << r.errors();
  EXPECT_TRUE(r.hasMessage("  note: 9:12: did you mean `count`?")) << r.errors();
  EXPECT_TRUE(r.hasMessage("9:19: `math.sqr` is not part of math")) << r.errors();
  EXPECT_TRUE(r.hasMessage("  note: 9:19: did you mean `math.sqrt`?")) << r.errors();
  EXPECT_TRUE(r.hasMessage("9:35: `math.gcd` is not supported in kernels")) << r.errors();
  EXPECT_TRUE(r.hasMessage("10:5: `cuda.syncthread` is not part of numba.cuda")) << r.errors();
  EXPECT_TRUE(r.hasMessage("  note: 10:5: did you mean `cuda.syncthreads`?")) << r.errors();
  EXPECT_TRUE(r.hasMessage("11:9: `cuda.threadIdx.w` is not part of numba.cuda.threadIdx"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("12:9: `np.zeros` runs on the host; it cannot be used in kernels"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("13:9: `np.foo` is not supported in kernels")) << r.errors();
  EXPECT_TRUE(r.hasMessage("14:5: `cuda.to_device` runs on the host; it cannot be used in kernels"))
      << r.errors();
  EXPECT_TRUE(r.hasMessage("15:9: the Python builtin `sorted` is not supported in kernels"))
      << r.errors();
}

TEST(NameResolver, ModuleNamesDeviceCodeCannotUse) {
  Resolved r(R"PY(
import numpy as np
import matplotlib.pyplot as plt
from numba import cuda
rng = np.random.default_rng(0)
A = rng.random(10)

def helper(x):
    return x

class Point:
    pass

@cuda.jit
def other(a):
    pass

@cuda.jit
def kernel(a):
    a[0] = A[0] + helper(1)
    other(a)
    p = Point()
    plt.plot(a)
    kernel(a)
)PY");
  EXPECT_TRUE(r.hasMessage("20:12: `A` is a host value computed at run time; kernels can only use "
                           "module-level constants"))
      << r.errors();
  EXPECT_TRUE(r.mentions("note: 6:1: `A` is assigned here:")) << r.errors();
  EXPECT_TRUE(r.hasMessage(
      "20:19: `helper` is not a device function; decorate it with `@cuda.jit(device=True)`"))
      << r.errors();
  // numba-cuda compiles a kernel that device code calls (`other(a)`, `kernel(a)`) as a device
  // function there: no error.
  EXPECT_FALSE(r.mentions("cannot be called from kernels")) << r.errors();
  EXPECT_TRUE(r.hasMessage("22:9: `Point` names a class, which kernels cannot use")) << r.errors();
  EXPECT_TRUE(
      r.hasMessage("23:5: `plt` names the module `matplotlib.pyplot`, which kernels cannot use"))
      << r.errors();
}

TEST(NameResolver, UnsupportedConstructs) {
  Resolved r(R"PY(
from numba import cuda

@cuda.jit
def kernel(a, **kw):
    class Local:
        pass
    xs = [1, 2]
    d = {1: 2}
    s = {1}
    c = [i for i in range(3)]
    g = sum(i for i in range(3))
    f = lambda v: v
    try:
        pass
    except Exception:
        pass
    with open("f") as fh:
        pass
    global G
    import math
    def inner():
        pass
    del xs
    m = "text"
    t = f"{m}"
    print("ok", m)
    assert m, "message"
    h = cuda.local.array(3, "float32")
    return 1
)PY");
  std::vector<std::string> expected = {
      "5:17: `**kwargs` parameters are not supported in kernels",
      "6:5: class definitions are not supported in kernels",
      "8:10: list literals are not supported in kernels",
      "9:9: dict literals are not supported in kernels",
      "10:9: set literals are not supported in kernels",
      "11:9: list comprehensions are not supported in kernels",
      "12:13: generator expressions are not supported in kernels",
      "13:9: lambda expressions are not supported in kernels",
      "14:5: `try` statements are not supported in kernels",
      "18:5: `with` statements are not supported in kernels",
      "18:15: strings are not supported in kernels except as `print` and `assert` arguments",
      "20:5: `global` declarations are not supported in kernels",
      "21:5: `import` statements are not supported in kernels",
      "24:5: `del` statements are not supported in kernels",
      "25:9: strings are not supported in kernels except as `print` and `assert` arguments",
      "26:9: f-strings are not supported in kernels",
  };
  for (const std::string& message : expected)
    EXPECT_TRUE(r.hasMessage(message)) << message << "\n" << r.errors();
  // A function defined at the kernel's top level is an inner function (InnerFunctions.h).
  EXPECT_FALSE(r.mentions("22:")) << r.errors();
  // Strings as print/assert arguments and dtype names are fine.
  EXPECT_FALSE(r.mentions("27:")) << r.errors();
  EXPECT_FALSE(r.mentions("28:")) << r.errors();
  EXPECT_FALSE(r.mentions("29:")) << r.errors();
}

TEST(NameResolver, DeviceFunctionsMayReturnValues) {
  Resolved r(R"PY(
from numba import cuda

@cuda.jit(device=True)
def add(a, b):
    """Adds."""
    return a + b

@cuda.jit
def kernel(out):
    out[0] = add(1, 2)
    return
)PY");
  EXPECT_TRUE(r.ok()) << r.errors();
}

} // namespace
} // namespace pyk::test
