// GridStrideLoops: which `for i in range(start, stop, step)` loops of a split kernel are
// grid-stride (or block-stride) loops the block can run in lockstep: every thread's `start` is
// one block-uniform value plus its thread index on one axis (`cuda.grid(1)`, `cuda.threadIdx.x`,
// `base + tx`), `stop` is uniform and `step` uniform and positive (`cuda.gridsize(1)`,
// `cuda.blockDim.x`). The block then runs iteration k of every thread together (thread
// t's `i` is base_k + t, base_k = start - t + k * step, while base_k < stop): consecutive threads
// touch consecutive elements, as on a GPU, where thread after thread would stride across the
// whole array (the histogram on the AMD VM: every access a TLB miss).
#pragma once

#include <map>

#include "codegen/cpu/UniformityAnalysis.h"
#include "codegen/cpu/VariableUses.h"

namespace pyk::codegen {

class GridStrideLoops {
public:
  GridStrideLoops(const ir::Function& kernel, const UniformityAnalysis& uniformity);

  // The axis (0, 1, 2) of the thread index `f`'s start is offset by, when the block can run `f`
  // in lockstep: the bounds above, no barrier or else, and a counter that only
  // the loop's body reads and nothing in it assigns; else -1.
  int axisOf(const ir::ForRange* f) const;

private:
  int threadAxis(const ir::Expr* e, int depth) const;
  bool positive(const ir::Expr* e, int depth) const;
  // The value assigned to the version a Read reads (an element of a tuple unpacked: the
  // unpacked value and the element's index), or null.
  const ir::Expr* definition(const ir::Expr* e, int& element) const;
  // Whether version `version` may hold the value of version `from` (through joins).
  bool flowsFrom(size_t version, size_t from, int depth) const;

  const ir::Function& kernel_;
  const UniformityAnalysis& uniformity_;
  // Version index -> (the value assigned, the element of an unpacked tuple or -1).
  std::map<size_t, std::pair<const ir::Expr*, int>> definitions_;
};

} // namespace pyk::codegen
