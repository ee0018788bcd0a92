// CpuPipeline: the CPU backend's analyses of a kernel, as one ordered list of passes (in the
// manner of Halide's Lower.cpp), from the kernel's typed IR to its CpuExecutionPlan. The list is
// cpuPasses() (CpuPipeline.cpp); each pass is a file of its own and leaves what it concludes in
// the CpuPlanning they share, which `pykc emit --emit=ir --print-after=PASS` prints.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/cpu/BarrierRegions.h"
#include "codegen/cpu/CpuExecutionPlan.h"
#include "codegen/cpu/LocalPlacement.h"
#include "codegen/cpu/ThreadModelScan.h"
#include "codegen/cpu/UniformityAnalysis.h"

namespace pyk::codegen {

// What the passes have concluded so far about one kernel, and the options of the split attempt
// under way (the pipeline plans a split again with other options when one fails).
struct CpuPlanning {
  CpuPlanning(const ir::Module& m, bool shapeKnown)
      : module(m), kernel(&m.entry()), blockShapeKnown(shapeKnown), lockstepLoops(shapeKnown) {}

  const ir::Module& module;
  // The kernel the passes plan: the module's entry, or its copy with the calls of device
  // functions that wait at barriers inlined (0).
  const ir::Function* kernel;
  bool blockShapeKnown; // the unit is compiled for one block shape
  // The split attempt's options: uniform assignments hoisted out of thread loops (7), short
  // uniform loops run in lockstep (4; only for a known block shape), grid-stride loops run in
  // lockstep (4).
  bool hoisting = true;
  bool lockstepLoops;
  bool gridStrideLoops = true;

  std::shared_ptr<const ir::Module> inlined;    // 0: owns `kernel` when it is the copy
  std::string inliningFailure;                  // 0: why a call could not be inlined
  std::vector<ThreadModelUse> uses;             // 1
  CpuExecutionPlan plan;                        // 2: the mode; at the end, the split too
  std::optional<UniformityAnalysis> uniformity; // 3
  std::optional<BarrierRegions> regions;        // 4 (the plan's steps move to `split`)
  BarrierSplitPlan split;                       // 4 to 9
  LocalPlacement placement;                     // 8
  std::string whyNot;                           // why the attempt cannot split the body
  bool hoistingConflict = false;                // 8: plan again without hoisting
};

// One pass: its name (what --print-after takes), whether it belongs to a split attempt (4 to 9,
// run again with other options), and what it does: false ends the pipeline (2: no split to
// plan) or the attempt (4 to 9: `whyNot` or `hoistingConflict` says why).
struct CpuPass {
  const char* name;
  bool splitAttempt;
  bool (*run)(CpuPlanning&);
};

// The passes, in order: BarrierInlining, ThreadModelScan, ExecutionModeDecision,
// UniformityAnalysis, BarrierRegions, Rematerialization, RegionDistribution, UniformHoisting,
// LocalPlacement, RegionNarrowing.
const std::vector<CpuPass>& cpuPasses();
// The pass named `name`, or null.
const CpuPass* cpuPassNamed(std::string_view name);

// Called after each pass has run (with the planning as it left it).
using CpuPassObserver = std::function<void(const CpuPass&, const CpuPlanning&)>;

// Runs the passes in order, once each (one split attempt with the planning's options), up to
// and including `through` (all when empty); false when a pass ended the run before it.
bool runCpuPasses(CpuPlanning& planning, std::string_view through = {},
                  const CpuPassObserver& observer = {});

// A split attempt (passes 4 on, with the planning's options, from a clean state; the uniformity
// analysis must have run) up to and including `through`; false when a pass ended it.
bool runSplitAttempt(CpuPlanning& planning, std::string_view through = {},
                     const CpuPassObserver& observer = {});

// The plan: the passes run; where the split attempt fails, again without hoisting (a hoisted
// local threads also write) or without lockstep loops; where none succeeds, fibers, with the
// reason. `blockShapeKnown`: the unit is compiled for one block shape.
CpuExecutionPlan planCpuExecution(const ir::Module& module, bool blockShapeKnown = false,
                                  const CpuPassObserver& observer = {});

// What the passes have concluded, as text: the scan, the mode, the uniform locals, the split's
// steps (each statement as the IR prints it), the rematerialized assignments, the placement.
void printPlanning(std::ostream& out, const CpuPlanning& planning);

} // namespace pyk::codegen
