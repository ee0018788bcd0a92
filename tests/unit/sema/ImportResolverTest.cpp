// ImportResolverTest: what each import form binds, as the resolved module records it.
#include <gtest/gtest.h>

#include "SemaTestSupport.h"

namespace pyk::test {
namespace {

std::string importOf(const Resolved& r, const std::string& name) {
  const sema::ImportBinding* binding = r.module.symbols.importNamed(name);
  return binding != nullptr ? binding->qualifiedName : "<not an import>";
}

TEST(ImportResolver, Forms) {
  Resolved r(R"PY(
import numba
import numba.cuda
import numba.cuda as cu
import numpy as np, math, cmath
from numba import cuda, float32, int32 as i32, vectorize, guvectorize, jit, njit, void, types
from numba.cuda import jit as cjit
from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32
from numba.types import float64
from numba.core import types as core_types
from math import sqrt, pi
from numpy import float32 as f32
import matplotlib.pyplot as plt
from . import sibling
)PY");
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(importOf(r, "numba"), "numba");
  EXPECT_EQ(importOf(r, "cu"), "numba.cuda");
  EXPECT_EQ(importOf(r, "np"), "numpy");
  EXPECT_EQ(importOf(r, "math"), "math");
  EXPECT_EQ(importOf(r, "cuda"), "numba.cuda");
  EXPECT_EQ(importOf(r, "float32"), "numba.float32");
  EXPECT_EQ(importOf(r, "i32"), "numba.int32");
  EXPECT_EQ(importOf(r, "vectorize"), "numba.vectorize");
  EXPECT_EQ(importOf(r, "void"), "numba.void");
  EXPECT_EQ(importOf(r, "types"), "numba.types");
  EXPECT_EQ(importOf(r, "cjit"), "numba.cuda.jit");
  EXPECT_EQ(importOf(r, "create_xoroshiro128p_states"),
            "numba.cuda.random.create_xoroshiro128p_states");
  EXPECT_EQ(importOf(r, "float64"), "numba.float64");
  EXPECT_EQ(importOf(r, "core_types"), "numba.types");
  EXPECT_EQ(importOf(r, "sqrt"), "math.sqrt");
  EXPECT_EQ(importOf(r, "f32"), "numpy.float32");
  EXPECT_EQ(importOf(r, "plt"), "matplotlib.pyplot");
  EXPECT_EQ(importOf(r, "sibling"), ".sibling");
  EXPECT_EQ(importOf(r, "pi"), "math.pi");
}

TEST(ImportResolver, StarImportOfACatalogedModule) {
  Resolved r("from math import sqrt\nfrom cmath import *\nX = pi\n");
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(importOf(r, "phase"), "cmath.phase");
  EXPECT_EQ(r.constantText("X"), "3.141592653589793 : float64");
  // `sqrt` is bound by both imports, to different functions: Python keeps the last; pyk
  // treats the name as ambiguous.
  EXPECT_EQ(importOf(r, "sqrt"), "<not an import>");
}

TEST(ImportResolver, ConflictingImportsAreHostValues) {
  Resolved r(R"PY(
try:
    import cupy as xp
except ImportError:
    import numpy as xp
import numpy as np
import numpy as np
)PY");
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(importOf(r, "xp"), "<not an import>");
  EXPECT_EQ(importOf(r, "np"), "numpy");
}

TEST(ImportResolver, ImportedNamesInKernels) {
  Resolved r(R"PY(
from numba import cuda, float32
from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32
from math import sqrt, pi

@cuda.jit
def kernel(states, out):
    i = cuda.grid(1)
    out[i] = sqrt(xoroshiro128p_uniform_float32(states, i)) * pi + float32(1)
    create_xoroshiro128p_states(4, 1)
)PY");
  EXPECT_EQ(r.messages(),
            std::vector<std::string>{"10:5: `create_xoroshiro128p_states` runs on the host; it "
                                     "cannot be used in kernels"});
}

} // namespace
} // namespace pyk::test
