// ResolvedModulePrinterTest: the `--emit=symbols` summary of a resolved module.
#include <gtest/gtest.h>

#include "SemaTestSupport.h"

namespace pyk::test {
namespace {

TEST(ResolvedModulePrinter, ConstantsHostValuesAndFunctions) {
  Resolved r(R"PY(
import numpy as np
from numba import cuda, float32
TPB = 16
COEF = np.array([0.25, 0.5, 0.25], dtype=np.float32)
rng = np.random.default_rng(0)

@cuda.jit("void(float32[:, ::1], float32[:, ::1])", fastmath=True)
def diffusion(field, lapl):
    i, j = cuda.grid(2)
    lapl[i, j] = field[i, j] * COEF[0] * TPB

@cuda.jit(device=True)
def dev(x):
    return x
)PY");
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(r.symbols(), R"(import np = numpy
import cuda = numba.cuda
import float32 = numba.float32
constant TPB = 16 : int64
constant COEF = array([0.25, 0.5, 0.25], dtype=float32) : array(float32, 1d, C) shape (3,)
host value rng: a call of `numpy.random.default_rng` is not folded
kernel diffusion
device function dev

kernel diffusion(field, lapl)
  decorator: cuda.jit
  signatures: void(float32[:, ::1], float32[:, ::1])
  options: fastmath=True
  locals: i, j
  uses cuda: numba.cuda
  uses COEF: constant array([0.25, 0.5, 0.25], dtype=float32)
  uses TPB: constant 16
  uses numba.cuda.grid

device function dev(x)
  decorator: cuda.jit
  signatures: none (compiled per argument types)
  options: device=True
)");
}

} // namespace
} // namespace pyk::test
