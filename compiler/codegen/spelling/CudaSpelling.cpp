// CudaSpelling: CUDA C++'s names for the thread model (built-in variables, __syncthreads,
// __shfl_sync...: the CUDA column of Intrinsics.def), as NVRTC compiles them.
#include <cstdint>

#include "codegen/spelling/TargetSpelling.h"

namespace pyk::codegen {

namespace {

std::string joined(const std::vector<std::string>& args) {
  std::string out;
  for (size_t i = 0; i < args.size(); ++i)
    out += (i ? ", " : "") + args[i];
  return out;
}

class CudaSpelling final : public TargetSpelling {
public:
  Backend backend() const override { return Backend::Cuda; }
  std::string supportHeader() const override { return "pyk_support.h"; }
  std::string_view spelling(const sema::IntrinsicInfo& intrinsic) const override {
    return intrinsic.cuda;
  }
  std::string threadOperation(sema::Intrinsic op,
                              const std::vector<std::string>& args) const override {
    return std::string(sema::intrinsicInfo(op).cuda) + "(" + joined(args) + ")";
  }
  std::string bitOperation(sema::Intrinsic op, bool wide, const std::string& arg) const override {
    const bool signedArg = op == sema::Intrinsic::Clz || op == sema::Intrinsic::Ffs;
    std::string value =
        wide ? (signedArg ? "static_cast<long long>(" : "static_cast<unsigned long long>(")
             : (signedArg ? "static_cast<int>(" : "static_cast<unsigned int>(");
    return std::string(sema::intrinsicInfo(op).cuda) + (wide ? "ll" : "") + "(" + value + arg +
           "))";
  }
  std::string sharedStorage(const std::string& element, const std::string& name, int64_t count,
                            int64_t, int64_t alignment) const override {
    return "__shared__ " + alignas_(alignment) + element + " " + name + "[" +
           std::to_string(count) + "];";
  }
  std::string localStorage(const std::string& element, const std::string& name, int64_t count,
                           int64_t, int64_t alignment) const override {
    return alignas_(alignment) + element + " " + name + "[" + std::to_string(count) + "];";
  }
  static std::string alignas_(int64_t alignment) {
    return alignment > 0 ? "alignas(" + std::to_string(alignment) + ") " : "";
  }
  std::string dynamicSharedArray(const std::string& element) const override {
    return "pyk::dynamic_shared_array<" + element + ">()";
  }
  bool checksDynamicShared() const override { return false; }
  std::string checkedElement(const std::string& array, const std::string&, const std::string&,
                             const std::string& indices) const override {
    return array + "(" + indices + ")";
  }
  std::string endThread() const override { return "asm volatile(\"exit;\");"; }
  std::string loopProgress() const override { return ""; }
  std::string trap() const override { return "__trap();"; }
  std::string trapWith(const std::string& message) const override {
    return "{ printf(\"%s\\n\", \"" + message + "\"); __trap(); }";
  }
  std::string constantArrayQualifier() const override { return "__constant__ "; }
  std::string gridSync() const override { return "pyk::grid_sync()"; }
  std::string kernelHead(bool entry) const override {
    return entry ? "extern \"C\" __global__ void " : "__global__ void ";
  }
  std::string kernelLimits(const std::vector<int64_t>& launchBounds,
                           std::optional<int64_t> maxRegisters) const override {
    // CUDA allows one of the two on a kernel: with both, the register limit is NVRTC's
    // --maxrregcount (jit/CompileFlags), which ptxas applies to the whole unit.
    if (!launchBounds.empty()) {
      std::string bounds;
      for (int64_t b : launchBounds)
        bounds += (bounds.empty() ? "" : ", ") + std::to_string(b);
      // A max blocks per cluster exists from sm_90 (clusters); below, the first two.
      return launchBounds.size() == 3 ? "PYK_LAUNCH_BOUNDS_CLUSTER(" + bounds + ") "
                                      : "__launch_bounds__(" + bounds + ") ";
    }
    if (maxRegisters)
      return "PYK_MAX_REGISTERS(" + std::to_string(*maxRegisters) + ") ";
    return "";
  }
  std::string deviceFunctionHead(const std::string& returnType) const override {
    return "__device__ " + returnType + " ";
  }
  std::string contextParameter() const override { return ""; }
  std::string contextArgument() const override { return ""; }
};

} // namespace

const TargetSpelling& cudaSpelling() {
  static const CudaSpelling spelling;
  return spelling;
}

} // namespace pyk::codegen
