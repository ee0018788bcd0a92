// CudaSpelling: CUDA C++'s names for the thread model (built-in variables, __syncthreads,
// __shfl_sync...), as NVRTC compiles them.
#include <cstdint>
#include <map>

#include "codegen/TargetSpelling.h"

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
  std::string builtinIndex(const std::string& which, char axis) const override {
    return which + "." + axis;
  }
  std::string warpSize() const override { return "warpSize"; }
  std::string threadOperation(const std::string& op,
                              const std::vector<std::string>& args) const override {
    static const std::map<std::string, std::string> kNames = {
        {"syncthreads", "__syncthreads"},
        {"syncthreads_count", "__syncthreads_count"},
        {"syncthreads_and", "__syncthreads_and"},
        {"syncthreads_or", "__syncthreads_or"},
        {"syncwarp", "__syncwarp"},
        {"threadfence", "__threadfence"},
        {"threadfence_block", "__threadfence_block"},
        {"threadfence_system", "__threadfence_system"},
        {"activemask", "__activemask"},
        {"laneid", "pyk::laneid"},
        {"lanemask_lt", "pyk::lanemask_lt"},
        {"all_sync", "__all_sync"},
        {"any_sync", "__any_sync"},
        {"ballot_sync", "__ballot_sync"},
        {"shfl_sync", "__shfl_sync"},
        {"shfl_up_sync", "__shfl_up_sync"},
        {"shfl_down_sync", "__shfl_down_sync"},
        {"shfl_xor_sync", "__shfl_xor_sync"},
        {"match_any_sync", "__match_any_sync"},
        {"match_all_sync", "__match_all_sync"}};
    auto it = kNames.find(op);
    return (it != kNames.end() ? it->second : "__" + op) + "(" + joined(args) + ")";
  }
  std::string bitOperation(const std::string& op, bool wide,
                           const std::string& arg) const override {
    const bool signedArg = op == "clz" || op == "ffs";
    std::string value =
        wide ? (signedArg ? "static_cast<long long>(" : "static_cast<unsigned long long>(")
             : (signedArg ? "static_cast<int>(" : "static_cast<unsigned int>(");
    return "__" + op + (wide ? "ll" : "") + "(" + value + arg + "))";
  }
  std::string sharedStorage(const std::string& element, const std::string& name, int64_t count,
                            int64_t) const override {
    return "__shared__ " + element + " " + name + "[" + std::to_string(count) + "];";
  }
  std::string dynamicSharedArray(const std::string& element) const override {
    return "pyk::dynamic_shared_array<" + element + ">()";
  }
  std::string checkedElement(const std::string& array, const std::string&, const std::string&,
                             const std::string& indices) const override {
    return array + "(" + indices + ")";
  }
  std::string trap() const override { return "__trap();"; }
  std::string constantArrayQualifier() const override { return "__constant__ "; }
  std::string gridSync() const override { return "pyk::grid_sync()"; }
  std::string kernelHead(bool entry) const override {
    return entry ? "extern \"C\" __global__ void " : "__global__ void ";
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
