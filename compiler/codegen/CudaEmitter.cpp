// CudaEmitter: the CUDA C++ unit of a specialization.
#include "codegen/CudaEmitter.h"

#include "codegen/UnitEmitter.h"

namespace pyk::codegen {

using sema::NumbaType;
using sema::ScalarKind;
using sema::Specialization;

EmittedUnit emitCuda(const sema::ResolvedModule& module, const SourceFile& file,
                     const sema::SpecializationSet& set, const Specialization& entry,
                     DiagnosticEngine& diags, bool lineDirectives) {
  UnitEmitter emitter(module, file, diags, cudaSpelling());
  emitter.setLineDirectives(lineDirectives);
  (void)set; // the entry's callees are reached through its call table
  EmittedUnit unit;
  std::string declarations = emitter.functions(entry, UnitEmitter::reachedFrom(entry));
  if (entry.function->kind == sema::CompiledFunctionKind::Kernel)
    unit.entryPoint = mangledName(entry);
  else if (entry.function->kind == sema::CompiledFunctionKind::Vectorize)
    unit.entryPoint = emitter.vectorizeKernel(entry);
  else if (entry.function->kind == sema::CompiledFunctionKind::GuVectorize)
    unit.entryPoint = emitter.guvectorizeKernel(entry);
  unit.source = emitter.finish(declarations);
  unit.cooperative = emitter.usesGridSync();
  return unit;
}

} // namespace pyk::codegen
