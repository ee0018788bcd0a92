// GufuncCall: @guvectorize gufuncs called from C++ as numba calls them, on the CPU backend: core
// dimensions bound from the operands' trailing dimensions, loop dimensions broadcast (several
// flattened into the kernel's one, strided ones copied), scalar `()` inputs, outputs allocated or
// given (device arrays and host arrays written in place), several outputs, host and device
// operands, the errors a call can cause, and numba's own results for the same inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>

#include "HostArrayValues.h"
#include "SettingsForTest.h"
#include "TemporaryFolder.h"
#include "pyk/npy.hpp"
#include "pyk/pyk.hpp"

namespace {

const std::string kGufuncs = std::string(PYK_TEST_DATA_DIR) + "/gufuncs.pyk";

std::vector<double> iota(std::size_t n, double start = 0.0) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

std::vector<double> asDoubles(const pyk::HostArray& h) {
  if (h.dtype != pyk::Dtype::Float32)
    return valuesOf<double>(h);
  const std::vector<float> f = valuesOf<float>(h);
  return std::vector<double>(f.begin(), f.end());
}

// The message of the pyk::Error `f` throws ("" when it throws none).
template <typename F>
std::string gufuncErrorOf(F&& f) {
  try {
    f();
  } catch (const pyk::Error& e) {
    return e.what();
  }
  return "";
}

#define EXPECT_ERROR(call, text)                                                                   \
  do {                                                                                             \
    const std::string message = gufuncErrorOf([&] { (void)(call); });                              \
    EXPECT_NE(message.find(text), std::string::npos) << "got: " << message;                        \
  } while (false)

class GufuncCall : public ::testing::Test {
protected:
  void SetUp() override {
    settings_.change([&](pyk::RuntimeSettings& s) { s.cache_folder = cache_ / "cache"; });
  }
  TemporaryFolder cache_;
  SettingsForTest settings_;
  pyk::Module m_ = pyk::load(kGufuncs);
};

TEST_F(GufuncCall, DotProductOverTheLoopDimension) {
  // (n),(n)->(): each row of a (4, 3) matrix with one vector, broadcast along the loop.
  const std::vector<double> a = iota(12, 1.0), b = {0.5, -1.0, 2.0};
  const pyk::HostArray r = m_["dot"](host<double>({4, 3}, a), host<double>({3}, b));
  EXPECT_EQ(r.dtype, pyk::Dtype::Float64);
  EXPECT_EQ(r.shape, (std::vector<std::int64_t>{4}));
  const std::vector<double> got = valuesOf<double>(r);
  for (int i = 0; i < 4; ++i) {
    double want = 0;
    for (int k = 0; k < 3; ++k)
      want += a[i * 3 + k] * b[k];
    EXPECT_EQ(got[i], want) << i;
  }
  // Two vectors: no loop dimension, a 0-d result.
  const pyk::HostArray one = m_["dot"](host<double>({3}, b), host<double>({3}, b));
  EXPECT_TRUE(one.shape.empty());
  EXPECT_EQ(valuesOf<double>(one), std::vector<double>{0.25 + 1.0 + 4.0});
  // int64 inputs take the exact int64 signature; int32 ones are cast safely to the first signature
  // they fit, float64 (numpy's rule, and numba's result).
  const pyk::HostArray ints =
      m_["dot"](host<std::int64_t>({2, 2}, {1, 2, 3, 4}), host<std::int64_t>({2}, {10, 100}));
  EXPECT_EQ(ints.dtype, pyk::Dtype::Int64);
  EXPECT_EQ(valuesOf<std::int64_t>(ints), (std::vector<std::int64_t>{210, 430}));
  const pyk::HostArray cast =
      m_["dot"](host<std::int32_t>({2, 2}, {1, 2, 3, 4}), host<std::int32_t>({2}, {10, 100}));
  EXPECT_EQ(cast.dtype, pyk::Dtype::Float64);
  EXPECT_EQ(valuesOf<double>(cast), (std::vector<double>{210, 430}));
}

TEST_F(GufuncCall, MatmulPerLoopElement) {
  // (m,n),(n,p)->(m,p) over a loop of 2, the second operand broadcast.
  const std::vector<double> a = iota(2 * 3 * 4), b = iota(4 * 5, -7.0);
  const pyk::HostArray c = m_["matmul"](host<double>({2, 3, 4}, a), host<double>({4, 5}, b));
  ASSERT_EQ(c.shape, (std::vector<std::int64_t>{2, 3, 5}));
  const std::vector<double> got = valuesOf<double>(c);
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) {
        double want = 0;
        for (int k = 0; k < 4; ++k)
          want += a[(l * 3 + i) * 4 + k] * b[k * 5 + j];
        EXPECT_EQ(got[(l * 3 + i) * 5 + j], want) << l << " " << i << " " << j;
      }
}

TEST_F(GufuncCall, ScalarCoreInputs) {
  // (n),()->(n): the `()` input as a scalar, then as an array along the loop dimension.
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  const pyk::HostArray twice = m_["scale"](host<float>({2, 3}, x), 2.0f);
  EXPECT_EQ(twice.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(valuesOf<float>(twice), (std::vector<float>{2, 4, 6, 8, 10, 12}));
  const pyk::HostArray perRow =
      m_["scale"](host<float>({2, 3}, x), host<float>({2}, {10.0f, -1.0f}));
  EXPECT_EQ(valuesOf<float>(perRow), (std::vector<float>{10, 20, 30, -4, -5, -6}));
  // A float64 scalar is not cast safely to float32: no signature takes it.
  EXPECT_ERROR(m_["scale"](host<float>({2, 3}, x), 2.0),
               "no signature of the gufunc `scale` takes (float32, float64)");
}

TEST_F(GufuncCall, LoopDimensionsBroadcastAndSeveralAreFlattened) {
  // Loop shapes (3, 1) and (2,) broadcast to (3, 2); the core dimension n = 4.
  const std::vector<double> a = iota(12), b = iota(8, 100.0);
  const pyk::HostArray r = m_["dot"](host<double>({3, 1, 4}, a), host<double>({2, 4}, b));
  ASSERT_EQ(r.shape, (std::vector<std::int64_t>{3, 2}));
  const std::vector<double> got = valuesOf<double>(r);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) {
      double want = 0;
      for (int k = 0; k < 4; ++k)
        want += a[i * 4 + k] * b[j * 4 + k];
      EXPECT_EQ(got[i * 2 + j], want) << i << " " << j;
    }
  // Three loop dimensions of a device array whose loop dimensions do not collapse (every other
  // index of the middle one): copied contiguous first, the result in the loop shape.
  const std::vector<double> values = iota(2 * 6 * 3);
  const auto d = pyk::to_device<double, 3>(values, {2, 6, 3});
  const pyk::AnyDeviceArray strided = d.untyped().slice(1, 0, 6, 2); // (2, 3, 3)
  const pyk::AnyDeviceArray sums = m_["cumsum"](strided);
  ASSERT_EQ(sums.shape(), (std::vector<std::int64_t>{2, 3, 3}));
  const std::vector<double> cumulative = valuesOf<double>(sums.copy_to_host());
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      double acc = 0;
      for (int k = 0; k < 3; ++k) {
        acc += values[(i * 6 + 2 * j) * 3 + k];
        EXPECT_EQ(cumulative[(i * 3 + j) * 3 + k], acc) << i << " " << j << " " << k;
      }
    }
  // A core dimension that is not contiguous, for a parameter declared `float64[::1]` (the
  // transpose's rows): copied; and an F-ordered core for `float64[::1, :]`.
  const pyk::AnyDeviceArray columns = m_["cumsum"](d.untyped().transpose()); // (3, 6, 2)
  const std::vector<double> colSums = valuesOf<double>(columns.copy_to_host());
  EXPECT_EQ(colSums[1], values[0] + values[3 * 6]);
  const pyk::HostArray t = m_["transpose_f"](host<double>({2, 2, 3}, iota(12)));
  ASSERT_EQ(t.shape, (std::vector<std::int64_t>{2, 3, 2}));
  const std::vector<double> tv = valuesOf<double>(t);
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        EXPECT_EQ(tv[(l * 3 + j) * 2 + i], l * 6 + i * 3 + j);
}

TEST_F(GufuncCall, OutputsGivenAreWrittenInPlace) {
  const pyk::HostArray a = host<double>({2, 3}, iota(6)), b = host<double>({3}, {1, 1, 1});
  // A device output: written, and what the result holds.
  const pyk::AnyDeviceArray out = pyk::AnyDeviceArray::allocate(pyk::Dtype::Float64, {2});
  const pyk::AnyDeviceArray r = m_["dot"](a, b, out);
  EXPECT_EQ(r.device_data(), out.device_data());
  EXPECT_EQ(valuesOf<double>(out.copy_to_host()), (std::vector<double>{3, 12}));
  // The same through call(..., out).
  const pyk::UfuncOperand ops[] = {pyk::UfuncOperand::of(b), pyk::UfuncOperand::of(b)};
  const pyk::AnyDeviceArray first = out.slice(0, 0, 1); // a (1,) array for a 0-d result
  const pyk::UfuncResult viaOut = m_["dot"].call(ops, pyk::Stream(), &first);
  EXPECT_FALSE(viaOut.on_host);
  EXPECT_EQ(valuesOf<double>(out.copy_to_host()), (std::vector<double>{3, 12}));
  // A non-const host output: written in place, and returned.
  pyk::HostArray hostOut = host<double>({2}, {-1, -1});
  const pyk::HostArray returned = m_["dot"](a, b, hostOut);
  EXPECT_EQ(valuesOf<double>(hostOut), (std::vector<double>{3, 12}));
  EXPECT_EQ(valuesOf<double>(returned), (std::vector<double>{3, 12}));
  // A strided device output (every other element): computed apart, then copied into it.
  pyk::AnyDeviceArray wide = pyk::AnyDeviceArray::allocate(pyk::Dtype::Float64, {4});
  wide.copy_from_host(host<double>({4}, {0, 0, 0, 0}));
  (void)m_["dot"](a, b, wide.slice(0, 0, 4, 2));
  EXPECT_EQ(valuesOf<double>(wide.copy_to_host()), (std::vector<double>{3, 0, 12, 0}));
}

TEST_F(GufuncCall, SeveralOutputs) {
  // (n)->(),(): both outputs, allocated, in order.
  const std::vector<std::int64_t> x = {4, -2, 9, 0, 7, 7, 1, 3, -8};
  const std::vector<pyk::HostArray> both = m_["min_max"].outputs(host<std::int64_t>({3, 3}, x));
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(valuesOf<std::int64_t>(both[0]), (std::vector<std::int64_t>{-2, 0, -8}));
  EXPECT_EQ(valuesOf<std::int64_t>(both[1]), (std::vector<std::int64_t>{9, 7, 3}));
  EXPECT_EQ(m_["min_max"].output_count(), 2u);
  EXPECT_EQ(m_["dot"].output_count(), 1u);
  // On the device, through call(): UfuncResult holds them all.
  const auto d = pyk::to_device<std::int64_t, 2>(x, {3, 3});
  const pyk::UfuncOperand ops[] = {pyk::UfuncOperand::of(d)};
  const pyk::UfuncResult r = m_["min_max"].call(ops);
  ASSERT_EQ(r.output_count(), 2u);
  EXPECT_EQ(valuesOf<std::int64_t>(r.device_output(1).copy_to_host()),
            (std::vector<std::int64_t>{9, 7, 3}));
  EXPECT_ERROR(r.host_output(0), "UfuncResult: no host output 0");
  // Given, both written.
  const pyk::AnyDeviceArray lo = pyk::AnyDeviceArray::allocate(pyk::Dtype::Int64, {3});
  const pyk::AnyDeviceArray hi = pyk::AnyDeviceArray::allocate(pyk::Dtype::Int64, {3});
  (void)m_["min_max"].outputs(d, lo, hi);
  EXPECT_EQ(valuesOf<std::int64_t>(lo.copy_to_host()), (std::vector<std::int64_t>{-2, 0, -8}));
  EXPECT_EQ(valuesOf<std::int64_t>(hi.copy_to_host()), (std::vector<std::int64_t>{9, 7, 3}));
  // operator() returns one array: it refuses a gufunc with two outputs before running it.
  EXPECT_ERROR(m_["min_max"](d), "the gufunc `min_max` has 2 outputs: call it with outputs(...)");
}

TEST_F(GufuncCall, DeviceOperandsStayOnTheDevice) {
  const std::vector<double> a = iota(6), b = {1, 0, -1};
  const auto da = pyk::to_device<double, 2>(a, {2, 3});
  const auto db = pyk::to_device(b);
  const pyk::AnyDeviceArray r = m_["dot"](da, db);
  EXPECT_EQ(r.backend(), pyk::Backend::Cpu);
  EXPECT_EQ(r.shape(), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(valuesOf<double>(r.copy_to_host()), (std::vector<double>{-2, -2}));
  // A host operand beside a device one is copied; the result stays on the device.
  const pyk::AnyDeviceArray mixed = m_["dot"](da, host<double>({3}, b));
  EXPECT_EQ(valuesOf<double>(mixed.copy_to_host()), (std::vector<double>{-2, -2}));
  // Device operands are never converted.
  const auto i32 = pyk::to_device(std::vector<std::int32_t>{1, 2, 3});
  EXPECT_ERROR(m_["dot"](i32, i32), "no signature of the gufunc `dot` takes (int32, int32) "
                                    "(device arrays and outputs are never converted)");
}

TEST_F(GufuncCall, ErrorsNameTheOperandsAndDimensions) {
  const pyk::HostArray three = host<double>({3}, {1, 2, 3});
  const pyk::HostArray four = host<double>({4}, {1, 2, 3, 4});
  EXPECT_ERROR(m_["dot"](three, four), "the gufunc `dot`: the core dimension `n` is 3 in operand 0 "
                                       "but 4 in operand 1 (layout (n),(n)->())");
  EXPECT_ERROR(m_["dot"](three),
               "the gufunc `dot` takes 2 operands (then, optionally, its output); 1 given");
  EXPECT_ERROR(m_["min_max"].outputs(three, three),
               "the gufunc `min_max` takes 1 operands (then, optionally, its 2 outputs); 2 given");
  EXPECT_ERROR(m_["dot"](2.0, three), "operand 0 of the gufunc `dot` has 0 dimension(s), but its "
                                      "core dimensions (n) in (n),(n)->() need 1");
  EXPECT_ERROR(m_["matmul"](host<double>({2, 3}, iota(6)), host<double>({2, 2}, iota(4))),
               "the core dimension `n` is 3 in operand 0 but 2 in operand 1");
  EXPECT_ERROR(m_["dot"](host<double>({2, 3}, iota(6)), host<double>({3, 3}, iota(9))),
               "the gufunc `dot`: operands could not be broadcast together with shapes (2,) (3,)");
  // Outputs of the wrong shape, dtype or kind.
  const pyk::HostArray rows = host<double>({2, 3}, iota(6));
  const pyk::AnyDeviceArray wrongShape = pyk::AnyDeviceArray::allocate(pyk::Dtype::Float64, {3});
  EXPECT_ERROR(m_["dot"](rows, three, wrongShape),
               "operand 2 (output 0) of the gufunc `dot` must be a float64 array of shape (2,) on "
               "the cpu backend, not a float64 array of shape (3,)");
  const pyk::AnyDeviceArray wrongDtype = pyk::AnyDeviceArray::allocate(pyk::Dtype::Float32, {2});
  EXPECT_ERROR(m_["dot"](rows, three, wrongDtype),
               "no signature of the gufunc `dot` takes (float64, float64 -> float32)");
  const pyk::HostArray constOut = host<double>({2}, {0, 0});
  EXPECT_ERROR(m_["dot"](rows, three, constOut),
               "operand 2 (output 0) of the gufunc `dot` is a const HostArray: give a non-const "
               "HostArray or a device array, written in place");
  std::vector<double> vectorOut(2);
  EXPECT_ERROR(m_["dot"](rows, three, vectorOut), "is a std::vector, which the call only reads");
  EXPECT_ERROR(m_["dot"](rows, three, 1.0), "operand 2 (output 0) of the gufunc `dot` is a scalar");
  // Unsupported dtypes: complex operands fit no signature.
  const pyk::HostArray complex = host<std::complex<double>>({3}, {{1, 1}, {2, 2}, {3, 3}});
  EXPECT_ERROR(m_["dot"](complex, complex), "no signature of the gufunc `dot` takes (complex128, "
                                            "complex128)");
}

TEST_F(GufuncCall, FixedCoreDimensionsAndTheRawKernel) {
  // A layout dimension given as a number fixes the extent.
  const pyk::Module m = pyk::loads(R"pyk(
from numba import guvectorize


@guvectorize(["void(float64[:], float64[:])"], "(3)->()", target="cpu")
def norm3(v, r):
    r[0] = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) ** 0.5
)pyk",
                                   "norm3.pyk");
  const pyk::HostArray r = m["norm3"](host<double>({2, 3}, {3, 4, 0, 1, 2, 2}));
  EXPECT_EQ(valuesOf<double>(r), (std::vector<double>{5, 3}));
  EXPECT_ERROR(m["norm3"](host<double>({2, 2}, {3, 4, 0, 1})),
               "operand 0 of the gufunc `norm3` has extent 2 in its core dimension 0, which "
               "(3)->() fixes at 3");
  // The gufunc kernel launched directly takes the loop dimension first: here (2, 3) and (2, 1).
  const auto v = pyk::to_device<double, 2>(std::vector<double>{3, 4, 0, 1, 2, 2}, {2, 3});
  const auto out = pyk::device_array<double, 2>({2, 1});
  m["norm3"][{1, 2}](v, out);
  EXPECT_EQ(out.copy_to_host(), (std::vector<double>{5, 3}));
  EXPECT_ERROR((m["norm3"][{1, 2}](v, pyk::device_array<double>(2))),
               "no signature of the gufunc `norm3` fits the kernel arguments");
}

// pyk's results against numba's for the same inputs (gufunc_numba_reference.py).
TEST_F(GufuncCall, MatchesNumba) {
  TemporaryFolder reference;
  const std::string command = std::string(PYK_TEST_PYTHON3) + " " + PYK_TEST_DATA_DIR +
                              "/gufunc_numba_reference.py " + kGufuncs + " " +
                              reference.path().string();
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream list(reference / "cases.txt");
  std::string line;
  int cases = 0;
  while (std::getline(list, line)) {
    std::istringstream fields(line);
    std::string name, function;
    size_t inputs = 0, outputs = 0;
    ASSERT_TRUE(fields >> name >> function >> inputs >> outputs) << line;
    std::vector<pyk::HostArray> in;
    for (size_t k = 0; k < inputs; ++k)
      in.push_back(pyk::read_npy(reference / (name + "_in" + std::to_string(k) + ".npy")));
    std::vector<pyk::UfuncOperand> ops;
    for (const pyk::HostArray& h : in)
      ops.push_back(pyk::UfuncOperand::of(h));
    const pyk::UfuncResult r = m_[function].call(ops);
    ASSERT_EQ(r.output_count(), outputs) << name;
    for (size_t k = 0; k < outputs; ++k) {
      const pyk::HostArray want =
          pyk::read_npy(reference / (name + "_out" + std::to_string(k) + ".npy"));
      const pyk::HostArray& got = r.host_output(k);
      ASSERT_EQ(got.dtype, want.dtype) << name;
      ASSERT_EQ(got.shape, want.shape) << name;
      if (want.dtype == pyk::Dtype::Int64) {
        EXPECT_EQ(valuesOf<std::int64_t>(got), valuesOf<std::int64_t>(want)) << name;
        continue;
      }
      const bool single = want.dtype == pyk::Dtype::Float32;
      const std::vector<double> g = asDoubles(got), w = asDoubles(want);
      ASSERT_EQ(g.size(), w.size()) << name;
      for (size_t i = 0; i < g.size(); ++i)
        EXPECT_NEAR(g[i], w[i], (single ? 1e-5 : 1e-12) * (1 + std::abs(w[i]))) << name << " " << i;
    }
    ++cases;
  }
  EXPECT_GE(cases, 9); // every case of the script was compared
}

} // namespace
