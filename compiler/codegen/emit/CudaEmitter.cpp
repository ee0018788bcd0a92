// CudaEmitter: the CUDA C++ unit of a specialization.
#include "codegen/emit/CudaEmitter.h"

#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

EmittedUnit emitCuda(const ir::Module& module, DiagnosticEngine& diags, bool lineDirectives) {
  UnitEmitter emitter(module, diags, cudaSpelling());
  emitter.setLineDirectives(lineDirectives);
  EmittedUnit unit;
  std::string declarations = emitter.functions();
  const ir::Function& entry = module.entry();
  if (entry.kind == types::CompiledFunctionKind::Kernel)
    unit.entryPoint = mangledName(entry);
  else if (entry.kind == types::CompiledFunctionKind::Vectorize)
    unit.entryPoint = emitter.vectorizeKernel(entry);
  else if (entry.kind == types::CompiledFunctionKind::GuVectorize)
    unit.entryPoint = emitter.guvectorizeKernel(entry);
  unit.source = emitter.finish(declarations);
  unit.cooperative = emitter.usesGridSync();
  return unit;
}

} // namespace pyk::codegen
