// ConstantNumbers: a constant number's category (bool < int < float < complex), shared by the
// constant operators' files (ConstantArithmetic.cpp, ConstantComparisons.cpp, ConstantNumbers.cpp)
// and for them alone; the operators themselves are declared in ConstantOperators.h.
#pragma once

#include <complex>

#include "sema/fold/ConstantValue.h"

namespace pyk::sema::numbers {

enum class Category { Bool, Int, Float, Complex };

Category categoryOf(const ConstantValue& v);
Category categoryOf(ScalarKind kind);

// The number as a complex (a real number with a zero imaginary part).
std::complex<double> asComplex(const ConstantValue& v);

// The float type of a complex type's parts: float32 for complex64, else float64.
ScalarKind componentFloat(ScalarKind c);

} // namespace pyk::sema::numbers
