// CompileSpecializationTest: jit::compileSpecialization end to end on small kernels: typed,
// emitted and compiled by the host compiler for the CPU target (the result's fields, the disk
// cache's second answer), stopped after typing or emission, and a type error reported located.
#include "jit/CompileSpecialization.h"

#include <gtest/gtest.h>

#include <string>

#include "../runtime/TemporaryFolder.h"
#include "../sema/SemaTestSupport.h"

namespace {

using pyk::types::ArrayLayout;
using pyk::types::NumbaType;
using pyk::types::ScalarKind;

const char* const kCompileSource = R"(from numba import cuda

@cuda.jit
def scale(out, x, a):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * a

@cuda.jit
def wrong(a, s):
    a[0] = s[0]
)";

const NumbaType kVector = NumbaType::array(ScalarKind::Float32, 1, ArrayLayout::C);
const NumbaType kScalar = NumbaType::scalar(ScalarKind::Float32);

// A request for `function` of `resolved` typed for (float32[::1], float32[::1], float32).
pyk::jit::SpecializationRequest requestFor(pyk::test::Resolved& resolved, const char* function,
                                           std::vector<NumbaType> params, pyk::jit::Target target,
                                           pyk::jit::Stage stage) {
  return pyk::jit::SpecializationRequest{.module = resolved.module,
                                         .file = resolved.file,
                                         .function = *resolved.module.function(function),
                                         .params = std::move(params),
                                         .returnType = std::nullopt,
                                         .target = std::move(target),
                                         .diags = resolved.diags,
                                         .stage = stage};
}

TEST(CompileSpecialization, TypesEmitsAndCompilesForTheCpu) {
  pyk::test::Resolved resolved(kCompileSource);
  ASSERT_TRUE(resolved.ok()) << resolved.errors();
  TemporaryFolder cache;
  pyk::jit::SpecializationRequest request =
      requestFor(resolved, "scale", {kVector, kVector, kScalar}, pyk::jit::CpuTarget{},
                 pyk::jit::Stage::Compiled);
  request.settings.cacheFolder = cache / "cache";
  const std::optional<pyk::jit::CompiledSpecialization> compiled =
      pyk::jit::compileSpecialization(request);
  ASSERT_TRUE(compiled.has_value()) << resolved.errors();
  EXPECT_EQ(compiled->description, "scale(float32[::1], float32[::1], float32) -> none");
  EXPECT_EQ(compiled->target, "cpu");
  EXPECT_FALSE(compiled->fromCache);
  EXPECT_FALSE(compiled->nvrtcFailure.has_value());
  EXPECT_EQ(compiled->specialization, nullptr); // typed in a set of the call's own
  EXPECT_EQ(compiled->cpu.mode, pyk::base::CpuExecutionMode::Loop);
  EXPECT_FALSE(compiled->cpu.blockEntry.empty());
  EXPECT_FALSE(compiled->cpu.threadEntry.empty());
  EXPECT_EQ(compiled->cpu.parameterTypes.size(), 3u);
  EXPECT_NE(compiled->cpu.source.find("#include \"pyk_cpu_support.h\""), std::string::npos);
  // The binary is a shared object with the entry points the unit names.
  ASSERT_GE(compiled->binary.size(), 4u);
  EXPECT_EQ(compiled->binary.substr(0, 4), std::string("\x7f"
                                                       "ELF"));
  EXPECT_NE(compiled->binary.find(compiled->cpu.blockEntry), std::string::npos);
  EXPECT_TRUE(compiled->cuda.source.empty());

  // The second request finds it in the disk cache; a rebuild compiles it again.
  const std::optional<pyk::jit::CompiledSpecialization> again =
      pyk::jit::compileSpecialization(request);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(again->fromCache);
  EXPECT_EQ(again->binary, compiled->binary);
  request.rebuild = true;
  EXPECT_FALSE(pyk::jit::compileSpecialization(request)->fromCache);
  EXPECT_FALSE(resolved.diags.hasErrors());
}

TEST(CompileSpecialization, StopsAfterTypingOrEmission) {
  pyk::test::Resolved resolved(kCompileSource);
  ASSERT_TRUE(resolved.ok()) << resolved.errors();
  pyk::sema::SpecializationSet set;
  pyk::jit::SpecializationRequest typed =
      requestFor(resolved, "scale", {kVector, kVector, kScalar},
                 pyk::jit::CudaTarget{"sm_90", false}, pyk::jit::Stage::Typed);
  typed.set = &set;
  const std::optional<pyk::jit::CompiledSpecialization> types =
      pyk::jit::compileSpecialization(typed);
  ASSERT_TRUE(types.has_value());
  ASSERT_NE(types->specialization, nullptr); // in the caller's set
  EXPECT_EQ(set.all().size(), 1u);
  EXPECT_TRUE(types->cuda.source.empty());
  EXPECT_TRUE(types->binary.empty());

  pyk::jit::SpecializationRequest emitted = typed;
  emitted.stage = pyk::jit::Stage::Emitted;
  const std::optional<pyk::jit::CompiledSpecialization> unit =
      pyk::jit::compileSpecialization(emitted);
  ASSERT_TRUE(unit.has_value());
  EXPECT_EQ(unit->specialization, types->specialization); // typed once, in the shared set
  EXPECT_NE(unit->cuda.source.find("#include \"pyk_support.h\""), std::string::npos);
  EXPECT_NE(unit->cuda.source.find(unit->cuda.entryPoint), std::string::npos);
  EXPECT_FALSE(unit->cuda.entryPoint.empty());
  EXPECT_TRUE(unit->binary.empty()); // no NVRTC
  EXPECT_FALSE(unit->nvrtcFailure.has_value());
}

TEST(CompileSpecialization, ATypeErrorIsReportedLocated) {
  pyk::test::Resolved resolved(kCompileSource);
  ASSERT_TRUE(resolved.ok()) << resolved.errors();
  const std::optional<pyk::jit::CompiledSpecialization> compiled =
      pyk::jit::compileSpecialization(requestFor(resolved, "wrong", {kVector, kScalar},
                                                 pyk::jit::CpuTarget{}, pyk::jit::Stage::Compiled));
  EXPECT_FALSE(compiled.has_value());
  EXPECT_TRUE(resolved.hasMessage("11:12: cannot index a value of type `float32`"))
      << resolved.errors();
}

} // namespace
