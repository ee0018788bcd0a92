// FuzzTyping: libFuzzer target for typing and both emitters: a module that resolves cleanly has
// each function with declared signatures typed and emitted for CUDA and for the CPU backend (as
// `pykc emit --emit=cuda|cpu` does; nothing is compiled).
#include <cstddef>
#include <cstdint>
#include <string>

#include "diag/DiagnosticEngine.h"
#include "diag/SourceFile.h"
#include "jit/CompileSpecialization.h"
#include "sema/resolve/FrontEnd.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pyk::SourceFile file("fuzz.pyk", std::string(reinterpret_cast<const char*>(data), size));
  pyk::DiagnosticEngine diags(&file);
  const pyk::sema::FrontEndResult front = pyk::sema::runFrontEnd(file, diags);
  if (diags.hasErrors())
    return 0;
  const pyk::sema::ResolvedModule& resolved = front.resolved;
  for (const pyk::sema::CompiledFunction& function : resolved.functions)
    for (const pyk::types::FunctionSignature& signature : function.signatures)
      for (const pyk::jit::Target& target :
           {pyk::jit::Target(pyk::jit::CudaTarget{"sm_90", true, false}),
            pyk::jit::Target(pyk::jit::CpuTarget{})}) {
        pyk::sema::SpecializationSet set;
        pyk::jit::SpecializationRequest request{.module = resolved,
                                                .file = file,
                                                .function = function,
                                                .params = signature.params,
                                                .returnType = signature.returnType,
                                                .target = target,
                                                .diags = diags,
                                                .stage = pyk::jit::Stage::Emitted,
                                                .set = &set};
        (void)pyk::jit::compileSpecialization(request);
      }
  return 0;
}
