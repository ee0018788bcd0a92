// CpuExecutionPlan: how the CPU backend runs a kernel's threads. Without barriers or warp
// primitives, a block's threads run as one loop (Loop). With block barrier statements in control
// flow the whole block takes alike, the body is split at each barrier into regions, each a loop
// over the threads (Split: loop fission, as MCUDA and PoCL do). Otherwise each thread is a fiber
// (Fiber), with the reason.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sema/Specialization.h"

namespace pyk::codegen {

// What an `if` test says of a thread index: `threadIdx.<axis> <op> <bound>`, the bound
// block-uniform (`if tid < stride:`, `if tx == 0:`); `global`: of the grid index on the axis
// (`cuda.grid`'s, threadIdx + blockIdx * blockDim: `if col == ncols - 1:`).
struct ThreadBound {
  int axis = 0; // 0, 1, 2: x, y, z
  ast::CmpOpKind op = ast::CmpOpKind::Lt;
  const ast::Expr* bound = nullptr;
  bool global = false;
};

// One block-level step of a split kernel.
struct SplitStep {
  // Uniform: statements that give block-uniform locals block-uniform values, run once by the
  // block (hoisted out of the thread loop they began or ended).
  enum class Kind { Region, Uniform, For, While, If };
  Kind kind = Kind::Region;
  std::vector<const ast::Stmt*> statements; // Region: run by every live thread, in order
  const ast::Stmt* control = nullptr;       // For, While, If: the statement, run by the block
  std::vector<SplitStep> body;
  std::vector<SplitStep> orelse; // If
  // Region: it holds the rematerialized assignments (BarrierSplitPlan), in their place.
  bool definesRematerialized = false;
  // Region: when every statement (but rematerialized ones) is an `if` whose test bounds a thread
  // index, the alternatives (lists of bounds that all hold) the threads that can do anything
  // satisfy one of: the region's thread loop runs over their hull (the tests stay). Empty: all.
  std::vector<std::vector<ThreadBound>> narrowing;
  // Region, narrowed, with one `if` (and `if`s nested alone in it): the statements it runs
  // instead, without the tests that are exact (every part a bound), since those hold for every
  // thread of the box; they go, and the masks they would cost. Empty: the statements as they are.
  std::vector<const ast::Stmt*> exactBody;
};

struct BarrierSplitPlan {
  std::vector<SplitStep> steps;
  // Locals whose value passes from one region to another in a thread (or is read by block-level
  // control): an array with one item per thread.
  std::set<std::string> perThread;
  // Locals held once per block: the counters of block-level loops, and uniform values computed
  // from nothing that changes while a region runs (so every thread writes the same value).
  std::set<std::string> perBlock;
  bool hasReturn = false; // threads may exit before the last region
  // Assignments at the start of the first region whose values each thread can compute again
  // from its indices and uniform values (`tx = cuda.threadIdx.x`, `i = cuda.grid(1)`): re-run at
  // the start of every later region and of block-level control instead of being stored per
  // thread, so regions index arrays by affine functions of threadIdx (and vectorise).
  std::vector<const ast::Stmt*> rematerialized;
  std::set<std::string> rematerializedLocals;
  // `if` statements the plan made: `if P: S1; S2` distributed into `if P: S1` and `if P: S2`,
  // each in its own region (they share P and the statements with the source's `if`).
  std::vector<std::unique_ptr<ast::If>> distributed;
};

enum class CpuExecutionMode { Loop, Split, Fiber };
const char* nameOf(CpuExecutionMode mode); // "loop", "split", "fiber"

struct CpuExecutionPlan {
  CpuExecutionMode mode = CpuExecutionMode::Loop;
  std::string fiberReason; // why not Loop or Split, located ("a barrier inside `while` at 12:5")
  std::optional<BarrierSplitPlan> split;
};

// `reached`: every specialization the kernel calls, the kernel included.
CpuExecutionPlan planCpuExecution(const sema::Specialization& kernel,
                                  const std::vector<const sema::Specialization*>& reached);

} // namespace pyk::codegen
