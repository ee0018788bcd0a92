// NvrtcCompilerTest: NVRTC compiles emitted-style kernels with the embedded support header.
#include "jit/NvrtcCompiler.h"
#include "jit/SupportHeaders.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace {

using pyk::jit::CudaTarget;
using pyk::jit::Nvrtc;
using pyk::jit::NvrtcOutput;

// NVRTC as the usual names find it (the test runs without PYK_LIBNVRTC).
const Nvrtc* nvrtc(std::string* whyNot = nullptr) {
  return Nvrtc::load("", whyNot);
}

#define PYK_SKIP_WITHOUT_NVRTC()                                                                   \
  if (nvrtc() == nullptr)                                                                          \
  GTEST_SKIP() << "NVRTC cannot be loaded here (no CUDA toolkit)"

std::vector<std::pair<std::string, std::string>> supportHeader() {
  return {{std::string(pyk::jit::kCudaSupportHeaderName),
           std::string(pyk::jit::cudaSupportHeaderText())}};
}

// Exercises every helper of the header in device code, so NVRTC instantiates them all.
const char* const kSupportKernel = R"(#include "pyk_support.h"
extern "C" __global__ void pyk_axpy_f32(pyk::Array<float, 1, pyk::Layout::C> out,
                                        pyk::Array<float, 2, pyk::Layout::A> in,
                                        pyk::Array<double, 2, pyk::Layout::F> wide,
                                        pyk::int64 n, float a) {
  pyk::int64 i = blockIdx.x * (pyk::int64)blockDim.x + threadIdx.x;
  if (i >= out.size())
    return;
  pyk::int64 q = pyk::floordiv(i, n) + pyk::mod(i, (pyk::int64)-3) + pyk::ipow(i, (pyk::int64)3);
  pyk::uint64 u = pyk::floordiv((pyk::uint64)i, (pyk::uint64)n) + pyk::shr((pyk::uint64)i, q);
  q = pyk::shl(q, n) + pyk::shr(q, (pyk::int64)70) + pyk::abs(q) + pyk::max(q, n) + pyk::min(q, n);
  double t = pyk::truediv(i, n) + pyk::floordiv(wide(i, -1), 2.0) + pyk::mod(wide(-1, i), -2.0);
  float f = pyk::floordiv(a, 2.0f) + pyk::mod(a, -0.5f) + pyk::fpowi(a, -3) + pyk::fpow(a, 0.5f);
  pyk::int64 r = pyk::round_half_even(t) + pyk::round_half_even(f);
  float rounded = pyk::round_ndigits(f, 2) + (float)pyk::round_ndigits(t, -1);
  out(i) = in(i, -1) * a + (float)(q + r + (pyk::int64)u) + rounded + (float)pyk::fpowi(t, 2u);
  out(-1) = (float)out.ndim + (float)in.strides[0] + (float)in.shape[1];
  if (i == 0)
    PYK_PRINTF("%s %f %lld %llu\n", pyk::print_arg(a > 0), pyk::print_arg(a),
               pyk::print_arg(q), pyk::print_arg(u));
}
)";

TEST(NvrtcCompiler, CompilesKernelWithSupportHeaderToPtx) {
  PYK_SKIP_WITHOUT_NVRTC();
  NvrtcOutput out = nvrtc()->compile(kSupportKernel, "kernel.cu", CudaTarget{"sm_90", false}, {},
                                     supportHeader());
  ASSERT_TRUE(out.ok) << out.log;
  EXPECT_TRUE(out.cubin.empty());
  EXPECT_NE(out.ptx.find(".entry pyk_axpy_f32("), std::string::npos) << out.ptx;
  EXPECT_NE(out.ptx.find(".target sm_90"), std::string::npos);
  EXPECT_NE(out.ptx.find("vprintf"), std::string::npos);
}

TEST(NvrtcCompiler, CompilesKernelToCubin) {
  PYK_SKIP_WITHOUT_NVRTC();
  NvrtcOutput out = nvrtc()->compile(kSupportKernel, "kernel.cu", CudaTarget{"sm_90", true},
                                     {"--use_fast_math"}, supportHeader());
  ASSERT_TRUE(out.ok) << out.log;
  EXPECT_TRUE(out.ptx.empty());
  ASSERT_GE(out.cubin.size(), 4u);
  EXPECT_EQ(out.cubin.substr(0, 4), std::string("\x7f"
                                                "ELF")); // a CUBIN is an ELF image
  EXPECT_NE(out.cubin.find("pyk_axpy_f32"), std::string::npos);
}

TEST(NvrtcCompiler, CompileErrorNamesFileAndLine) {
  PYK_SKIP_WITHOUT_NVRTC();
  const char* broken = "#include \"pyk_support.h\"\n"
                       "extern \"C\" __global__ void broken(pyk::int64 n) {\n"
                       "  pyk::int64 m = n + undeclared_name;\n"
                       "}\n";
  NvrtcOutput out =
      nvrtc()->compile(broken, "broken.cu", CudaTarget{"sm_90", false}, {}, supportHeader());
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(out.ptx.empty());
  EXPECT_NE(out.log.find("broken.cu(3)"), std::string::npos) << out.log;
  EXPECT_NE(out.log.find("undeclared_name"), std::string::npos) << out.log;
  EXPECT_NE(out.log.find("nvrtcCompileProgram failed: NVRTC_ERROR_COMPILATION"), std::string::npos)
      << out.log;
}

TEST(NvrtcCompiler, BadOptionReportsTheCall) {
  PYK_SKIP_WITHOUT_NVRTC();
  NvrtcOutput out = nvrtc()->compile("extern \"C\" __global__ void k() {}\n", "k.cu",
                                     CudaTarget{"sm_90", false}, {"--no-such-option"}, {});
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.log.find("nvrtcCompileProgram failed: NVRTC_ERROR_INVALID_OPTION"),
            std::string::npos)
      << out.log;
}

TEST(NvrtcCompiler, ReportsItsVersion) {
  std::string whyNot;
  if (nvrtc(&whyNot) == nullptr) {
    EXPECT_EQ(pyk::jit::nvrtcVersion(nullptr), "none");
    EXPECT_NE(whyNot.find("NVRTC, the CUDA toolkit's run-time compiler, cannot be loaded"),
              std::string::npos);
    return;
  }
  const std::string version = pyk::jit::nvrtcVersion(nvrtc());
  ASSERT_NE(version.find('.'), std::string::npos) << version;
  EXPECT_GE(std::stoi(version), 11);
}

TEST(NvrtcCompiler, ListsTheArchitecturesItKnows) {
  PYK_SKIP_WITHOUT_NVRTC();
  const std::vector<int> archs = nvrtc()->supportedArchs();
  ASSERT_FALSE(archs.empty());
  EXPECT_TRUE(std::is_sorted(archs.begin(), archs.end()));
  EXPECT_NE(std::find(archs.begin(), archs.end(), 90), archs.end()); // every NVRTC since 11.8
}

TEST(SupportHeaderText, IsTheStdlibHeader) {
  const std::string_view text = pyk::jit::cudaSupportHeaderText();
  EXPECT_EQ(text.substr(0, 17), "// pyk_support.h:");
  EXPECT_NE(text.find("namespace pyk {"), std::string_view::npos);
  EXPECT_EQ(text.back(), '\n');
}

} // namespace
