// CpuEmitter: the entry points of a CPU unit (a split kernel's block-level program is
// SplitKernelEmitter's).
#include "codegen/emit/CpuEmitter.h"

#include "codegen/cpu/CpuPipeline.h"
#include "codegen/emit/SplitKernelEmitter.h"
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

CpuUnit emitCpu(const ir::Module& module, DiagnosticEngine& diags, const CpuEmitOptions& options) {
  // GPU code linked with the kernel (PTX, a CUBIN...) has nothing the host can run.
  if (const std::vector<types::LinkedSource> gpuCode = types::gpuCodeOf(module.linkedSources);
      !gpuCode.empty()) {
    diags.report(DiagKind::LinkedCodeOnCpu, module.entry().nameRange,
                 {module.entry().name, types::describe(gpuCode)});
    return CpuUnit{};
  }
  UnitEmitter emitter(module, diags, cpuSpelling());
  emitter.setLineDirectives(options.lineDirectives);
  emitter.setBoundsCheck(options.boundsCheck);
  const ir::Function& irEntry = module.entry();
  CpuUnit unit;
  const bool kernel = irEntry.kind == types::CompiledFunctionKind::Kernel;
  CpuExecutionPlan plan;
  if (kernel)
    plan = planCpuExecution(module, options.blockShape[0] != 0);
  if (options.forceFibers && plan.mode != CpuExecutionMode::Fiber) {
    plan.mode = CpuExecutionMode::Fiber;
    plan.fiberReason = "fibers were asked for";
    plan.split.reset();
  }
  std::string declarations = emitter.functions();
  const int64_t kernelShared = emitter.staticSharedBytes();
  if (irEntry.kind == types::CompiledFunctionKind::DeviceFunction) {
    // A device function compiled alone (`pykc emit --kernel F --emit=so`, numba's
    // compile_ptx(device=True)): its code and its callees', no entry point to launch.
    unit.mode = plan.mode;
    unit.source = emitter.finish(declarations);
    return unit;
  }
  if (kernel)
    unit.kernelName = mangledName(irEntry);
  else if (irEntry.kind == types::CompiledFunctionKind::Vectorize)
    unit.kernelName = emitter.vectorizeKernel(irEntry);
  else if (irEntry.kind == types::CompiledFunctionKind::GuVectorize)
    unit.kernelName = emitter.guvectorizeKernel(irEntry);
  // A grid barrier needs every block of the launch running at once: each block's threads as
  // fibers, each block on a thread of its own (the engine's cooperative launch).
  if (emitter.usesGridSync()) {
    unit.cooperative = true;
    if (plan.mode != CpuExecutionMode::Fiber) {
      plan.mode = CpuExecutionMode::Fiber;
      plan.fiberReason = "it synchronises the grid (`this_grid().sync()`): every block runs at "
                         "once";
      plan.split.reset();
    }
  }
  // A thread that may end inside the body (numba's TypeError of a None Optional) leaves a split
  // body's later parts: its block runs as fibers, where it ends as a thread that returned.
  if (emitter.endsThreadsEarly() && plan.mode == CpuExecutionMode::Split) {
    plan.mode = CpuExecutionMode::Fiber;
    plan.fiberReason = "a thread may end inside its body (an Optional that is None used as a "
                       "value: numba's TypeError ends the thread)";
    plan.split.reset();
  }
  if (plan.mode == CpuExecutionMode::Loop && (emitter.endsThreadsEarly() || !kernel))
    plan.split.reset(); // the plain loop catches each thread's end on its own
  unit.parameterTypes = emitter.entryParameterTypes();
  unit.mode = plan.mode;
  unit.fiberReason = plan.fiberReason;
  unit.modeReason = describeMode(plan);

  // Unpacks the arguments: by Python name where a split body reads them directly (a split
  // kernel, or a loop narrowed to its box of threads).
  const bool split = plan.split.has_value() && plan.mode != CpuExecutionMode::Fiber;
  std::vector<std::string> names; // the arguments' C++ names, as `unpack` last gave them
  auto unpack = [&](bool byPythonName) {
    names.clear();
    for (size_t i = 0; i < unit.parameterTypes.size(); ++i) {
      const std::string name =
          byPythonName ? pythonName(irEntry.variables[i].name) : "pyk_arg" + std::to_string(i);
      emitter.emitLine(unit.parameterTypes[i] + " " + name + " = *static_cast<" +
                       unit.parameterTypes[i] + "*>(pyk_args[" + std::to_string(i) + "]);");
      names.push_back(name);
    }
    std::string call = unit.kernelName + "(pyk_ctx";
    for (const std::string& n : names)
      call += ", " + n;
    return call + ");";
  };

  const std::string ending = "  } catch (const pyk::cpu::KernelTrap&) {\n  }\n}\n\n";
  // A thread ended early (pyk::cpu::ThreadExit) has returned from the kernel.
  const std::string threadEnding = "  } catch (const pyk::cpu::ThreadExit&) {\n" + ending;
  unit.threadEntry = unit.kernelName + "__thread";
  emitter.appendBody("// Fiber mode: one CUDA thread.\nextern \"C\" PYK_CPU_EXPORT void " +
                     unit.threadEntry +
                     "(pyk::cpu::Thread& pyk_thread, void** pyk_args) {\n  try {\n");
  emitter.indent(2);
  std::string call = unpack(false);
  emitter.emitLine("pyk::cpu::Context pyk_ctx = pyk::cpu::threadContext(pyk_thread);");
  emitter.emitLine(call);
  emitter.indent(-2);
  emitter.appendBody(emitter.endsThreadsEarly() ? threadEnding : ending);

  if (plan.mode != CpuExecutionMode::Fiber) {
    unit.blockEntry = unit.kernelName + "__block";
    emitter.appendBody(std::string("// ") +
                       (plan.mode == CpuExecutionMode::Split
                            ? "Split mode: the body cut at each barrier, each part a loop over "
                              "the block's threads."
                        : split ? "Loop mode: the block's threads as one loop, over the box of "
                                  "threads the body's test admits."
                                : "Loop mode: the block's threads as one loop.") +
                       "\nextern \"C\" PYK_CPU_EXPORT void " + unit.blockEntry +
                       "(pyk::cpu::Block& pyk_block, void** pyk_args) {\n  try {\n");
    emitter.indent(2);
    call = unpack(split);
    emitter.emitLine("pyk::cpu::Context pyk_ctx = pyk::cpu::blockContext(pyk_block);");
    // A loop-mode kernel runs any block shape (the runtime keeps one unit for all of them).
    static const uint32_t kAnyShape[3] = {0, 0, 0};
    const uint32_t(&shape)[3] =
        split && plan.mode == CpuExecutionMode::Split ? options.blockShape : kAnyShape;
    // First: from here on the optimiser knows blockDim (the prefetch's arithmetic folds).
    if (shape[0] != 0)
      emitter.emitLine("pyk::cpu::expectBlockShape(pyk_ctx, " + std::to_string(shape[0]) + ", " +
                       std::to_string(shape[1]) + ", " + std::to_string(shape[2]) + ");");
    emitter.decideDeferral(split ? plan.splitKernel(module) : irEntry, names);
    emitter.prefetchAhead(split ? plan.splitKernel(module) : irEntry, names);
    if (split) {
      // The split body's shared arrays keep the offsets the kernel's function gave them.
      // The kernel split is the entry, or its copy with device functions inlined (the unit's
      // functions, emitted above, are the module's: fibers call them).
      emitSplitKernel(emitter, plan.splitKernel(module), *plan.split, shape);
    } else {
      // A thread ended early ends its own iteration only.
      if (emitter.endsThreadsEarly())
        call = "try { " + call + " } catch (const pyk::cpu::ThreadExit&) { }";
      emitter.emitLine("pyk::cpu::forEachThread(pyk_ctx, nullptr, [&](pyk::cpu::Context& pyk_ctx, "
                       "pyk::uint32) { " +
                       call + " });");
    }
    emitter.indent(-2);
    emitter.appendBody(ending);
  }
  unit.staticSharedBytes = kernelShared;
  unit.source = emitter.finish(declarations);
  return unit;
}

} // namespace pyk::codegen
