// EmitForeignFunctions: numba's foreign-function interface in the emitted unit. The CUDA C++ files
// linked into the unit come first, after the support header, each under a `#line` naming it, so
// that NVRTC (or the host compiler, for the CPU backend, with CUDA's function qualifiers defined
// away) compiles them with the kernel and their own declarations are the ones in force (an
// `int64_t` there is not a second, conflicting declaration of pyk's `long long`). Each function
// declared with cuda.declare_device is called through a wrapper in numba's calling convention
// (`int symbol(Ret* result, args...)`; abi='c': `Ret symbol(args...)`) that returns the result and
// is never inlined, as numba calls a linked function. A function that only linked GPU code
// (PTX, a CUBIN...) defines is declared extern "C" for nvJitLink to resolve.
#include <algorithm>
#include <cstdint>

#include "base/GeneratedUnit.h"
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

namespace {

std::string wrapperName(const std::string& symbol) {
  return "pyk_ffi_" + symbol;
}

} // namespace

std::string UnitEmitter::foreignDeclarations() {
  const bool cuda = target_.backend() == Backend::Cuda;
  const std::string device = cuda ? "__device__ " : "";
  // Called as numba calls a linked function: through a call the compiler does not inline, so
  // that its result is rounded where it returns (no multiply-add fused across the call, which
  // gave a last-bit difference from numba's separately compiled .cu).
  const std::string noinline = cuda ? "__noinline__ " : "__attribute__((noinline)) ";
  std::string out;
  for (const ir::Module::ForeignDeclaration& d : module_.foreignDeclarations) {
    std::string params, args;
    for (size_t i = 0; i < d.params.size(); ++i) {
      params += (i ? ", " : "") + type(d.params[i]) + " a" + std::to_string(i);
      args += (i ? ", " : "") + std::string("a") + std::to_string(i);
    }
    const std::string result = d.returnType.isVoid() ? "void" : type(d.returnType);
    out += "// " + d.symbol + ", declared with cuda.declare_device" +
           std::string(d.cAbi ? " (abi='c')" : "") + "\n";
    // Defined in GPU code nvJitLink links (no linked CUDA C++ mentions it): declared here as
    // numba declares it, extern and unmangled.
    const bool inLinkedCpp =
        std::any_of(module_.linkedSources.begin(), module_.linkedSources.end(),
                    [&](const types::LinkedSource& l) {
                      return l.compiledWithUnit() && l.text.find(d.symbol) != std::string::npos;
                    });
    if (cuda && !inLinkedCpp) {
      const std::string resultPointer = d.returnType.isVoid() ? "void*" : result + "*";
      out += "extern \"C\" __device__ " + (d.cAbi ? result : std::string("int")) + " " + d.symbol +
             "(" + (d.cAbi ? "" : resultPointer + (params.empty() ? "" : ", ")) + params + ");\n";
    }
    out += "static " + device + noinline + result + " " + wrapperName(d.symbol) + "(" + params +
           ") {\n";
    if (d.cAbi) {
      out += "  return " + d.symbol + "(" + args + ");\n}\n";
    } else if (d.returnType.isVoid()) {
      // numba's convention: the result through the first pointer, a status returned (0: no
      // Python exception; numba ignores it in CUDA code, as here).
      out += "  " + d.symbol + "(nullptr" + (args.empty() ? "" : ", ") + args + ");\n}\n";
    } else {
      out += "  " + result + " pyk_result{};\n";
      out += "  " + d.symbol + "(&pyk_result" + (args.empty() ? "" : ", ") + args + ");\n";
      out += "  return pyk_result;\n}\n";
    }
  }
  return out.empty() ? out : out + "\n";
}

std::string UnitEmitter::linkedSources() const {
  std::string out;
  if (std::none_of(module_.linkedSources.begin(), module_.linkedSources.end(),
                   [](const types::LinkedSource& l) { return l.compiledWithUnit(); }))
    return out;
  const bool cpu = target_.backend() != Backend::Cuda;
  out += std::string(base::kLinkedSourcesBegin);
  if (cpu)
    out += "#define __device__\n#define __host__\n#define __forceinline__ inline\n"
           "#define __noinline__\n";
  for (const types::LinkedSource& source : module_.linkedSources) {
    if (!source.compiledWithUnit())
      continue; // GPU code nvJitLink links with the unit's CUBIN (jit/NvJitLinker.h)
    // Once per translation unit: `pykc build` puts every kernel's CPU code in one file, and a
    // function defined twice there would be an error.
    std::uint64_t digest = 1469598103934665603ull; // FNV-1a of the path and the text
    for (const std::string* part : {&source.path, &source.text})
      for (unsigned char c : *part)
        digest = (digest ^ c) * 1099511628211ull;
    const std::string guard = "PYK_LINKED_" + std::to_string(digest);
    out += "#ifndef " + guard + "\n#define " + guard + "\n";
    if (lineDirectives_)
      out += "#line 1 \"" + source.path + "\"\n";
    out += source.text;
    if (!source.text.empty() && source.text.back() != '\n')
      out += "\n";
    out += "#endif\n";
  }
  if (cpu)
    out += "#undef __device__\n#undef __host__\n#undef __forceinline__\n#undef __noinline__\n";
  return out + std::string(base::kLinkedSourcesEnd) + "\n";
}

std::string UnitEmitter::visitForeignCall(const ir::ForeignCall* c) {
  std::string out = wrapperName(c->symbol) + "(";
  for (size_t i = 0; i < c->args.size(); ++i)
    out += (i ? ", " : "") + expr(c->args[i]);
  return out + ")";
}

} // namespace pyk::codegen
