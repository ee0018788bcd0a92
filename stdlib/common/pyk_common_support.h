// pyk_common_support.h: the support both backends' generated code sees, numba's semantics as
// device code (NVRTC) and host code alike. cuda/pyk_support.h and cpu/pyk_cpu_support.h include
// it first, then their backend's parts.
//
// Every helper reproduces what numba.cuda computes, which is not always what CUDA C++ or Python
// compute; each comment names numba's implementation it follows (numba/cpython/numbers.py,
// numba/cpython/builtins.py, numba/cuda/printimpl.py, numba/cpython/cmathimpl.py).
#pragma once

// PYK_CUDA, PYK_HD, PYK_SHARED: device code or host code
#include "target_macros.h"
// int8 ... float64, type traits, wrapping and saturating conversions
#include "scalar_types.h"
// fmodOf, floorOf, ... per precision
#include "math_builtins.h"
// floor division, modulo, powers, rounding, shifts, min, max, abs
#include "python_arithmetic.h"
// print's formats and arguments
#include "print.h"
// Layout, Array, index rules
#include "arrays.h"
// as_layout, transpose, slices, a gufunc's core views
#include "array_views.h"
// a[1:3] = x, a[:] = b
#include "array_assignment.h"
// cuda.cg.this_grid()
#include "grid_group.h"
// numba.cuda's vector types: pyk::vector<T, N>
#include "vector_types.h"
// complex64, complex128
#include "complex.h"
// numba's Optional: pyk::optional<T>, pyk::none, unwrap_optional
#include "optional.h"
// datetime64 and timedelta64 arithmetic: pyk::npdatetime
#include "npdatetime.h"
// one item of a numpy 'S<n>' or 'U<n>' array: pyk::charseq
#include "charseq.h"
// cmath: abs, phase, exp, log, sqrt, the trigonometric and hyperbolic functions, power
#include "complex_math.h"
// cmath: acos, asin, atan, acosh, asinh, atanh
#include "complex_inverse_math.h"
// numpy's ufuncs on scalars and arrays: pyk::npy::ufunc_scalar, ufunc_arrays and the loops
#include "numpy_ufuncs.h"
