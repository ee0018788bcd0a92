// BarrierInlining: pass 0 of the CPU pipeline: every call of a device function that waits at a
// block barrier (itself, or through the functions it calls) written into the kernel in its place,
// so that the split sees the barrier (a block-reduce helper, a tile loader). Consumes the module
// lowering made (left as it is); concludes a kernel of its own (a copy of the entry whose calls
// are inlined, in a module that owns it), or why a call cannot be inlined, located.
//
// A call is inlined where the statement holding it can evaluate it first: the whole statement
// (`f(x)`, `r = f(x)`, `a[i] = f(x)`), or a part of it evaluated before anything that reads
// memory or has an effect (`if f(x) > 0:`, `s += f(x)`, a `range` bound) — not a `while` test
// (evaluated at each trip) nor an operand `and`, `or` or `if`-`else` may skip. The callee's
// parameters become locals assigned the arguments; its returns must end its body (a `return`
// last, or an `if`-`else` whose branches both end so): each becomes an assignment of a result
// local, joined by phis (a function or type passed is no value: the callee was specialized for
// it). Recursive calls stay calls (fibers).
//
// A barrier with a value (`syncthreads_count/and/or`) is given a statement of its own the same
// way (`syncthreads_count.value = cuda.syncthreads_count(p)`, the statement that used it reading
// the local), which BarrierRegions makes the block's reduction between two regions.
#pragma once

#include <memory>
#include <string>

#include "ir/Ir.h"

namespace pyk::codegen {

struct InlinedBarrierCalls {
  // The module holding the kernel with the calls inlined (its entry), or null where the kernel
  // calls no device function that waits at a barrier, or one could not be inlined (`whyNot`).
  // Its calls of other functions name the functions of the module it was made from.
  std::shared_ptr<ir::Module> module;
  std::string whyNot; // located: "the call of `f` at 12:9 sits inside a `while` test ..."
};

InlinedBarrierCalls inlineBarrierCalls(const ir::Module& module);

} // namespace pyk::codegen
