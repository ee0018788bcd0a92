// CpuExecutionPlan: how the CPU backend runs a kernel's threads, as the CPU pipeline
// (CpuPipeline.h) concludes and the CPU emitter prints it. Without barriers or warp primitives,
// a block's threads run as one loop (Loop). With block barrier statements in control flow the
// whole block takes alike, the body is split at each barrier into regions, each a loop over the
// threads (Split: loop fission, as MCUDA and PoCL do). Otherwise each thread is a fiber (Fiber),
// with the reason.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/GeneratedUnit.h"
#include "codegen/cpu/VariableUses.h"
#include "ir/Ir.h"

namespace pyk::codegen {

// What an `if` test says of a thread index: `threadIdx.<axis> <op> <bound>`, the bound
// block-uniform (`if tid < stride:`, `if tx == 0:`); `global`: of the grid index on the axis
// (`cuda.grid`'s, threadIdx + blockIdx * blockDim: `if col == ncols - 1:`).
struct ThreadBound {
  int axis = 0; // 0, 1, 2: x, y, z
  ir::CompareOp op = ir::CompareOp::Lt;
  const ir::Expr* bound = nullptr; // as the source computes it (before any conversion)
  bool global = false;
};

// One statement of a step: a statement of the kernel as the source has it, or one statement of
// the body of an `if P: S1; S2; ...` that RegionDistribution gave a region of its own, guarded
// by that `if`'s test (it runs as `if P: S1`).
struct RegionStatement {
  const ir::Stmt* statement = nullptr;
  const ir::If* guard = nullptr; // the `if` whose test guards `statement`, or null

  // Calls fn(node) for every node the statement evaluates: the guard's test, then the statement.
  template <class Fn>
  void forEachNode(Fn&& fn) const {
    if (guard != nullptr)
      ir::forEachNode(static_cast<const ir::Node*>(guard->condition), fn);
    ir::forEachNode(static_cast<const ir::Node*>(statement), fn);
  }
};

// What a region runs for the threads of one box: the statements of the branch of an `if` (or of
// `if`s nested in one another) whose tests hold for exactly the box's threads.
struct ExactPart {
  std::vector<std::vector<ThreadBound>> narrowing; // the box: the hull of these alternatives
  std::vector<const ir::Stmt*> statements;
  // The `if`s whose branch `statements` is, outermost first, each with the branch (true: then):
  // the copies each one's join makes follow the statements.
  std::vector<std::pair<const ir::If*, bool>> branches;
};

// One block-level step of a split kernel.
struct SplitStep {
  // Uniform: statements that give block-uniform locals block-uniform values, run once by the
  // block (hoisted out of the thread loop they began or ended). Reduction: a barrier with a value,
  // `v = syncthreads_count(p)` (`control`; BarrierInlining gave it a statement of its own): each
  // live thread's `p` counted, then the block's result stored once.
  enum class Kind { Region, Uniform, For, While, If, Reduction };
  Kind kind = Kind::Region;
  std::vector<RegionStatement> statements; // Region: run by every live thread, in order; Uniform
  const ir::Stmt* control = nullptr; // For (a ForRange), While, If: run by the block; Reduction
  std::vector<SplitStep> body;
  std::vector<SplitStep> orelse; // If
  // For: a grid-stride loop (GridStrideLoops) whose start is offset by the thread index on this
  // axis: the block runs base = start - threadIdx, base + step, ... while base < stop, and each
  // thread loop inside sets the thread's counter to base + threadIdx (running only the threads
  // whose counter is below stop). -1: an ordinary block-level loop.
  int strideAxis = -1;
  // Region: it holds the rematerialized assignments (BarrierSplitPlan), in their place.
  bool definesRematerialized = false;
  // Region: when every statement (but rematerialized ones) is an `if` whose test bounds a thread
  // index, the alternatives (lists of bounds that all hold) the threads that can do anything
  // satisfy one of: the region's thread loop runs over their hull (the tests stay). Empty: all.
  std::vector<std::vector<ThreadBound>> narrowing;
  // Region: the loops that run it instead, each over a box of threads with the statements of an
  // `if` branch whose tests the box makes always true, so they go, and the masks they would cost.
  // One part: a narrowed region with one `if` (and `if`s nested alone in it), over `narrowing`.
  // Two: a region that is one `if T: A else: B` with T one bound (`if i < n:`), A over T's box
  // and then B over the rest (the threads of a region run in no fixed order). Empty: the
  // statements as they are.
  std::vector<ExactPart> exactParts;
  // Region: the comparisons of a grid index with a block-level bound (`i < n`, `col > 0`) its
  // threads evaluate (in its statements and the rematerialized assignments), each with its bound:
  // a block whose every thread satisfies them all runs a copy of the region's loops in which they
  // are `true` (no test, no mask: every block but those on the grid's edges); others run the
  // loops as they are.
  std::vector<std::pair<const ir::Compare*, ThreadBound>> blockTests;
};

// Locals are named by their variable in the kernel's IR (ir::Function::variables).
struct BarrierSplitPlan {
  std::vector<SplitStep> steps;
  // Locals whose value passes from one region to another in a thread (or is read by block-level
  // control): an array with one item per thread.
  LocalSet perThread;
  // Locals held once per block: the counters of block-level loops, and uniform values computed
  // from nothing that changes while a region runs (so every thread writes the same value).
  LocalSet perBlock;
  bool hasReturn = false; // threads may exit before the last region
  // Assignments at the start of the first region whose values each thread can compute again
  // from its indices and uniform values (`tx = cuda.threadIdx.x`, `i = cuda.grid(1)`): re-run at
  // the start of every later region and of block-level control instead of being stored per
  // thread, so regions index arrays by affine functions of threadIdx (and vectorise).
  std::vector<const ir::Stmt*> rematerialized;
  LocalSet rematerializedLocals;
  // The counters of grid-stride loops run in lockstep (SplitStep::strideAxis): set by each thread
  // loop inside, they live there.
  LocalSet strideCounters;

  bool isRematerialized(const ir::Stmt* s) const;
  bool isRematerialized(const RegionStatement& s) const {
    return s.guard == nullptr && isRematerialized(s.statement);
  }
};

using base::CpuExecutionMode; // how the threads run (base/GeneratedUnit.h)
using base::nameOf;

struct CpuExecutionPlan {
  CpuExecutionMode mode = CpuExecutionMode::Loop;
  std::string fiberReason; // why not Loop or Split, located ("a barrier inside `while` at 12:5")
  // Split: the regions. Loop: present when the body is one `if` on the thread's index, planned
  // as one region narrowed to the box of threads the test admits (its exact body, no test).
  std::optional<BarrierSplitPlan> split;
  // Where BarrierInlining inlined calls: the module owning the kernel the split is of (its entry;
  // the split's statements are its nodes). Null: the split is of the module's own entry.
  std::shared_ptr<const ir::Module> inlined;

  // The kernel the split plans: the inlined copy, or `module`'s entry.
  const ir::Function& splitKernel(const ir::Module& module) const {
    return inlined != nullptr ? inlined->entry() : module.entry();
  }
};

// Which mode the plan chose and why, for `pykc emit --emit=cpu`: "no barrier: ...", "cut at its
// barriers into 4 loops over the block's threads, 2 of them inside loops or branches ...", or
// "each thread a fiber: " and the fiber reason.
std::string describeMode(const CpuExecutionPlan& plan);
// Whether `steps` hold a grid-stride loop run in lockstep (SplitStep::strideAxis).
bool hasGridStrideLoop(const std::vector<SplitStep>& steps);

// `line:column` of a node, as the plan's reasons cite it.
std::string sourcePosition(const ir::Node* n);
std::string sourcePosition(SourceRange r);

} // namespace pyk::codegen
