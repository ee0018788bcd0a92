// CpuSpelling: the CPU backend's names for the thread model: everything goes through the thread's
// pyk::cpu::Context (stdlib/cpu/pyk_cpu_support.h), the hidden first parameter of device code.
#include <cstdint>

#include "codegen/TargetSpelling.h"

namespace pyk::codegen {

namespace {

class CpuSpelling final : public TargetSpelling {
public:
  Backend backend() const override { return Backend::Cpu; }
  std::string supportHeader() const override { return "pyk_cpu_support.h"; }
  std::string builtinIndex(const std::string& which, char axis) const override {
    return "pyk_ctx." + which + "." + axis;
  }
  std::string warpSize() const override { return "pyk::cpu::kWarpSize"; }
  std::string threadOperation(const std::string& op,
                              const std::vector<std::string>& args) const override {
    std::string out = "pyk::cpu::" + op + "(pyk_ctx";
    for (const std::string& a : args)
      out += ", " + a;
    return out + ")";
  }
  std::string bitOperation(const std::string& op, bool wide,
                           const std::string& arg) const override {
    return "pyk::cpu::" + op + (wide ? "64" : "32") + "(" + arg + ")";
  }
  std::string sharedStorage(const std::string& element, const std::string& name, int64_t,
                            int64_t byteOffset) const override {
    return element + "* const " + name + " = pyk::cpu::shared_pointer<" + element +
           ">(*pyk_ctx.block, " + std::to_string(byteOffset) + ");";
  }
  std::string dynamicSharedArray(const std::string& element) const override {
    return "pyk::cpu::dynamic_shared_array<" + element + ">(*pyk_ctx.block)";
  }
  std::string trap() const override { return "pyk::cpu::trap(pyk_ctx);"; }
  std::string constantArrayQualifier() const override { return "static const "; }
  std::string gridSync() const override { return "pyk::cpu::grid_sync(pyk_ctx)"; }
  std::string kernelHead(bool) const override { return "static inline void "; }
  std::string deviceFunctionHead(const std::string& returnType) const override {
    return "static " + returnType + " ";
  }
  std::string contextParameter() const override { return "pyk::cpu::Context& pyk_ctx"; }
  std::string contextArgument() const override { return "pyk_ctx"; }
};

} // namespace

const TargetSpelling& cpuSpelling() {
  static const CpuSpelling spelling;
  return spelling;
}

} // namespace pyk::codegen
