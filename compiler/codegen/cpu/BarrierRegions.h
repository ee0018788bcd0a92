// BarrierRegions: pass 4 of the CPU pipeline: a kernel's body cut at its barriers into block-level
// steps: regions (the statements between barriers, each run by every thread in turn) and the
// statements holding barriers, run by the block: `for name in range(...)`, `while` and `if`, whose
// headers must be block-uniform (UniformityAnalysis). Concludes the steps, the counters of the
// block-level loops and what block-level control evaluates; or why the body cannot be cut.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/cpu/CpuExecutionPlan.h"
#include "codegen/cpu/UniformityAnalysis.h"

namespace pyk::codegen {

struct BarrierRegions {
  std::vector<SplitStep> steps;
  LocalSet loopCounters; // the counters of block-level `for` loops
  // The counters of grid-stride loops run in lockstep: each thread's own, set by the thread
  // loops inside the loop (SplitStep::strideAxis); they live inside those regions.
  LocalSet strideCounters;
  // What block-level control evaluates: the bounds of its loops' ranges, the tests of its
  // `while`s and `if`s.
  std::vector<const ir::Node*> controls;
  bool hasReturn = false; // the kernel returns somewhere: threads may exit before the last region
};

// nullopt, with the reason in `whyNot` ("a barrier inside the `while` at 12:5 ..."), when a
// barrier sits where the block cannot run it as a step.
// A grid-stride loop (GridStrideLoops) becomes a block-level `for` step, its threads in lockstep
// (`gridStrideLoops`; without it, such a loop stays in its region).
// `lockstepLoops`: also make block-level steps of barrier-free `for name in range(...)` loops
// with uniform bounds and a short straight-line body (`for j in range(16): acc += a[ty, j] *
// b[j, tx]`), so that the threads run each iteration together: the thread loop inside then
// vectorises across threads. It pays only where the block shape is a compile-time constant (the
// thread loop's trip count): 1.5x on the tiled matmul, where the same without a constant shape
// was 2x slower (bench/results/cpu-2026-11-24-vm-analysis.md, m2 and m3).
std::optional<BarrierRegions> formBarrierRegions(const ir::Function& kernel,
                                                 const UniformityAnalysis& uniformity,
                                                 std::string& whyNot, bool lockstepLoops = false,
                                                 bool gridStrideLoops = true);

} // namespace pyk::codegen
