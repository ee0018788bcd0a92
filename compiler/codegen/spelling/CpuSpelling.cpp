// CpuSpelling: the CPU backend's names for the thread model (the CPU column of Intrinsics.def):
// everything goes through the thread's pyk::cpu::Context (stdlib/cpu/pyk_cpu_support.h), the
// hidden first parameter of device code.
#include <cstdint>
#include <cstdio>

#include "codegen/spelling/TargetSpelling.h"

namespace pyk::codegen {

namespace {

// A C++ string literal of plain text.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"' || ch == '\\')
      out += '\\';
    if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\%03o", static_cast<unsigned char>(ch));
      out += buffer;
      continue;
    }
    out += ch;
  }
  return out + "\"";
}

class CpuSpelling final : public TargetSpelling {
public:
  Backend backend() const override { return Backend::Cpu; }
  std::string supportHeader() const override { return "pyk_cpu_support.h"; }
  std::string_view spelling(const sema::IntrinsicInfo& intrinsic) const override {
    return intrinsic.cpu;
  }
  std::string threadOperation(sema::Intrinsic op,
                              const std::vector<std::string>& args) const override {
    std::string out = std::string(sema::intrinsicInfo(op).cpu) + "(pyk_ctx";
    for (const std::string& a : args)
      out += ", " + a;
    return out + ")";
  }
  std::string bitOperation(sema::Intrinsic op, bool wide, const std::string& arg) const override {
    return std::string(sema::intrinsicInfo(op).cpu) + (wide ? "64" : "32") + "(" + arg + ")";
  }
  std::string sharedStorage(const std::string& element, const std::string& name, int64_t,
                            int64_t byteOffset, int64_t) const override {
    return element + "* const " + name + " = pyk::cpu::shared_pointer<" + element +
           ">(*pyk_ctx.block, " + std::to_string(byteOffset) + ");";
  }
  // A C array on the stack, or on the heap past pyk::cpu::kMaxStackLocalBytes (8 KiB:
  // stdlib/cpu/local_memory.h), so that no local array overflows a thread's or fiber's stack.
  std::string localStorage(const std::string& element, const std::string& name, int64_t count,
                           int64_t bytes, int64_t alignment) const override {
    const std::string align = alignment > 0 ? std::to_string(alignment) : "";
    if (bytes <= 8 * 1024)
      return (align.empty() ? "" : "alignas(" + align + ") ") + element + " " + name + "[" +
             std::to_string(count) + "];";
    return "pyk::cpu::HeapLocalArray<" + element + (align.empty() ? "" : ", " + align) + "> " +
           name + "_heap(" + std::to_string(count) + "); " + element + "* const " + name + " = " +
           name + "_heap.data();";
  }
  std::string dynamicSharedArray(const std::string& element) const override {
    return "pyk::cpu::dynamic_shared_array<" + element + ">(*pyk_ctx.block)";
  }
  bool checksDynamicShared() const override { return true; }
  std::string checkedElement(const std::string& array, const std::string& name,
                             const std::string& where, const std::string& indices) const override {
    return "pyk::cpu::checked(pyk_ctx, " + quoted(name) + ", " + quoted(where) + ", " + array +
           ")(" + indices + ")";
  }
  std::string endThread() const override { return "throw pyk::cpu::ThreadExit{};"; }
  std::string loopProgress() const override { return "__asm__ __volatile__(\"\");"; }
  std::string trap() const override { return "pyk::cpu::trap(pyk_ctx);"; }
  std::string trapWith(const std::string& message) const override {
    return "pyk::cpu::trapWith(pyk_ctx, \"" + message + "\");";
  }
  std::string constantArrayQualifier() const override { return "static const "; }
  std::string gridSync() const override { return "pyk::cpu::grid_sync(pyk_ctx)"; }
  std::string kernelHead(bool) const override { return "static inline void "; }
  std::string kernelLimits(const std::vector<int64_t>&, std::optional<int64_t>) const override {
    return "";
  }
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
