// ComplexMathTest: pyk_support.h's cmath functions (host build) against CPython's cmath on
// ordinary arguments (values printed by Python 3.11), and against compiled numba on special ones
// (signed zeros, infinities, NaNs, huge and tiny parts: data/cmath_numba_values.txt).
#include "cuda/pyk_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace {

struct Case {
  const char* function;
  double re, im;         // the argument
  double wantRe, wantIm; // cmath.<function>(argument)
};

const Case kCases[] = {
    {"log10", 0.3, -0.7, -0.11828600321853135, -0.5063459083693581},
    {"log10", -1.5, 2.25, 0.4320329395451184, 0.9375544629863746},
    {"log10", 2.0, 0.5, 0.31419446502515574, 0.10639288158003271},
    {"log10", -0.2, -3.0, 0.47808421523768163, -0.7110983631191928},
    {"log10", 0.999, 0.001, -0.00043429419193895567, 0.0004347290659144617},
    {"tan", 0.3, -0.7, 0.18971709151908692, -0.6398359302631801},
    {"tan", -1.5, 2.25, -0.0032055151478664655, 1.0222351594971195},
    {"tan", 2.0, 0.5, -0.8508781211449379, 1.3212865837711916},
    {"tan", -0.2, -3.0, -0.0019217562655240335, -0.9954423865009567},
    {"tan", 0.999, 0.001, 1.5539822246692168, 0.003414867862754472},
    {"asin", 0.3, -0.7, 0.2457320061010797, -0.6703367429877897},
    {"asin", -1.5, 2.25, -0.5577280987018824, 1.7022012691759902},
    {"asin", 2.0, 0.5, 1.2930420702371825, 1.3618009008578458},
    {"asin", -0.2, -3.0, -0.06317398485736474, -1.8203409836110944},
    {"asin", 0.999, 0.001, 1.5216592817544534, 0.020358029698343837},
    {"acos", 0.3, -0.7, 1.3250643206938169, 0.6703367429877897},
    {"acos", -1.5, 2.25, 2.1285244254967792, -1.7022012691759902},
    {"acos", 2.0, 0.5, 0.27775425655771396, -1.3618009008578458},
    {"acos", -0.2, -3.0, 1.6339703116522613, 1.8203409836110944},
    {"acos", 0.999, 0.001, 0.049137045040443236, -0.020358029698343837},
    {"atan", 0.3, -0.7, 0.480035181202844, -0.7016804321523099},
    {"atan", -1.5, 2.25, -1.3489711892810687, 0.3030340287412742},
    {"atan", 2.0, 0.5, 1.1265564408348223, 0.09641562020299617},
    {"atan", -0.2, -3.0, -1.5459411984102869, -0.3447102276163274},
    {"atan", 0.999, 0.001, 0.7848981635641149, 0.0005005001666667668},
    {"sinh", 0.3, -0.7, 0.23290996731262684, -0.6734255599525789},
    {"sinh", -1.5, 2.25, 1.3375571890960114, 1.830346869722198},
    {"sinh", 2.0, 0.5, 3.1828694483371494, 1.8036926955321817},
    {"sinh", -0.2, -3.0, 0.19932113181121128, -0.14395182877456658},
    {"sinh", 0.999, 0.001, 1.1736581135231503, 0.0015419059479817602},
    {"cosh", 0.3, -0.7, 0.7995189955990348, -0.1961773591614612},
    {"cosh", -1.5, 2.25, -1.4777216701351554, -1.6567352726933953},
    {"cosh", 2.0, 0.5, 3.3016373329140944, 1.7388095044743164},
    {"cosh", -0.2, -3.0, -1.0098584340944454, 0.028412538301340634},
    {"cosh", 0.999, 0.001, 1.5419054340130767, 0.0011736585047426782},
    {"tanh", 0.3, -0.7, 0.4697051659675581, -0.72703718624352},
    {"tanh", -1.5, 2.25, -1.016334677559343, -0.09917250556037534},
    {"tanh", 2.0, 0.5, 0.979940849961738, 0.030215987322877582},
    {"tanh", -0.2, -3.0, -0.20122660287087327, 0.1368849984772431},
    {"tanh", 0.999, 0.001, 0.7611741818212487, 0.00042061424883155414},
    {"asinh", 0.3, -0.7, 0.3855909873181749, -0.7089034409655053},
    {"asinh", -1.5, 2.25, -1.6761473808374676, 0.9500531557158498},
    {"asinh", 2.0, 0.5, 1.4657153519472905, 0.22101863562288385},
    {"asinh", -0.2, -3.0, -1.7653901676183827, -1.5002250015995107},
    {"asinh", 0.999, 0.001, 0.8806664802972378, 0.0007074603935027635},
    {"acosh", 0.3, -0.7, 0.6703367429877897, -1.3250643206938169},
    {"acosh", -1.5, 2.25, 1.7022012691759902, 2.1285244254967792},
    {"acosh", 2.0, 0.5, 1.3618009008578458, 0.27775425655771396},
    {"acosh", -0.2, -3.0, 1.8203409836110944, -1.6339703116522613},
    {"acosh", 0.999, 0.001, 0.020358029698343837, 0.049137045040443236},
    {"atanh", 0.3, -0.7, 0.19988189602962927, -0.6396697661585148},
    {"atanh", -1.5, 2.25, -0.18896144369387732, 1.2611401872276726},
    {"atanh", 2.0, 0.5, 0.5003700000525311, 1.421546861001807},
    {"atanh", -0.2, -3.0, -0.019930868458009603, -1.2502419423650437},
    {"atanh", 0.999, 0.001, 3.6269144346727527, 0.3929492067403906},
};

// cmath.<f>(z) in the precision of F; polar and phase give their floats as the parts, rect takes
// the parts as its arguments, cpow raises z to 0.5+1.25j.
template <typename F>
pyk::Complex<F> apply(const std::string& f, pyk::Complex<F> z) {
  using C = pyk::Complex<F>;
  if (f == "log10")
    return pyk::clog10(z);
  if (f == "log")
    return pyk::clog(z);
  if (f == "exp")
    return pyk::cexp(z);
  if (f == "sqrt")
    return pyk::csqrt(z);
  if (f == "sin")
    return pyk::csin(z);
  if (f == "cos")
    return pyk::ccos(z);
  if (f == "tan")
    return pyk::ctan(z);
  if (f == "asin")
    return pyk::casin(z);
  if (f == "acos")
    return pyk::cacos(z);
  if (f == "atan")
    return pyk::catan(z);
  if (f == "sinh")
    return pyk::csinh(z);
  if (f == "cosh")
    return pyk::ccosh(z);
  if (f == "tanh")
    return pyk::ctanh(z);
  if (f == "asinh")
    return pyk::casinh(z);
  if (f == "acosh")
    return pyk::cacosh(z);
  if (f == "atanh")
    return pyk::catanh(z);
  if (f == "polar")
    return C{pyk::abs(z), pyk::cphase(z)};
  if (f == "phase")
    return C{pyk::cphase(z), F(0)};
  if (f == "rect")
    return pyk::crect(z.re, z.im);
  if (f == "cpow")
    return pyk::cpow(z, C{F(0.5), F(1.25)});
  ADD_FAILURE() << "no function " << f;
  return z;
}

TEST(ComplexMath, MatchesCPythonCmath) {
  for (const Case& c : kCases) {
    pyk::complex128 w = apply<double>(c.function, {c.re, c.im});
    double tolerance = 1e-13 * (1 + std::fabs(c.wantRe) + std::fabs(c.wantIm));
    EXPECT_NEAR(w.re, c.wantRe, tolerance) << c.function << "(" << c.re << "+" << c.im << "j)";
    EXPECT_NEAR(w.im, c.wantIm, tolerance) << c.function << "(" << c.re << "+" << c.im << "j)";
  }
}

TEST(ComplexMath, SinglePrecisionFollowsDouble) {
  for (const Case& c : kCases) {
    pyk::complex64 w =
        apply<float>(c.function, {static_cast<float>(c.re), static_cast<float>(c.im)});
    double tolerance = 1e-5 * (1 + std::fabs(c.wantRe) + std::fabs(c.wantIm));
    EXPECT_NEAR(w.re, c.wantRe, tolerance) << c.function;
    EXPECT_NEAR(w.im, c.wantIm, tolerance) << c.function;
  }
}

TEST(ComplexMath, TanhOfHugeRealPartIsItsLimit) {
  pyk::complex128 w = pyk::ctanh(pyk::complex128{800.0, 0.5});
  EXPECT_EQ(w.re, 1.0);
  EXPECT_EQ(w.im, 0.0);
  w = pyk::ctanh(pyk::complex128{-800.0, 0.5});
  EXPECT_EQ(w.re, -1.0);
}

// A float of the table: a Python repr, `nan`, `inf` or `-inf`.
double parseFloat(const std::string& word) {
  if (word == "nan")
    return std::nan("");
  if (word == "inf")
    return INFINITY;
  if (word == "-inf")
    return -INFINITY;
  return std::strtod(word.c_str(), nullptr); // subnormals too (std::stod throws on them)
}

// Whether `got` is `want`: NaN where NaN, the same sign of zero, within 2 units in the last place
// of F (compiled numba and pyk call the same libm functions; an optimizer may fuse a
// multiply-add).
template <typename F>
bool sameValue(F got, F want) {
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got);
  if (got == want)
    return std::signbit(got) == std::signbit(want);
  if (std::isinf(want) || std::isinf(got))
    return false;
  const F ulp = std::nextafter(std::fabs(want), F(INFINITY)) - std::fabs(want);
  return std::fabs(got - want) <= 2 * ulp;
}

template <typename F>
int checkRow(const std::string& function, double re, double im, double wantRe, double wantIm,
             const std::string& line) {
  const pyk::Complex<F> got = apply<F>(function, {F(re), F(im)});
  const bool ok = sameValue<F>(got.re, F(wantRe)) && sameValue<F>(got.im, F(wantIm));
  EXPECT_TRUE(ok) << line << "  (pyk: " << got.re << " " << got.im << ")";
  return ok ? 0 : 1;
}

// Every row of data/cmath_numba_values.txt: compiled numba's cmath (numba.njit of the same
// cmathimpl.py numba.cuda lowers) and numba.cuda's complex power, on special values in both
// precisions.
TEST(ComplexMath, SpecialValuesFollowCompiledNumba) {
  std::ifstream in(std::string(PYK_TEST_DATA_DIR) + "/stdlib/data/cmath_numba_values.txt");
  std::string line;
  int rows = 0;
  int failures = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream words(line);
    std::string function, precision, re, im, arrow, wantRe, wantIm;
    words >> function >> precision >> re >> im >> arrow >> wantRe >> wantIm;
    ++rows;
    if (precision == "complex64")
      failures += checkRow<float>(function, parseFloat(re), parseFloat(im), parseFloat(wantRe),
                                  parseFloat(wantIm), line);
    else
      failures += checkRow<double>(function, parseFloat(re), parseFloat(im), parseFloat(wantRe),
                                   parseFloat(wantIm), line);
    if (failures > 20)
      break;
  }
  EXPECT_GT(rows, 5000) << "table missing: " << PYK_TEST_DATA_DIR;
}

} // namespace
