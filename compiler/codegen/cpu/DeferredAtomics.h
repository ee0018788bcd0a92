// DeferredAtomics: which atomics of a kernel the CPU backend's workers gather and apply later, in
// the order they ran them (stdlib/cpu/deferred_atomics.h): a grid-wide accumulator
// (`cuda.atomic.add(total, 0, s)`) otherwise has every worker take its cache line from the others
// at each atomic. Only where nothing in the kernel can tell: the kernel touches the array only
// through read-modify-write atomics (Intrinsics.def: GatherableAtomic) whose result it does not
// use, at an index the same in every thread of the grid (constants, scalar arguments), never
// reassigns or passes it on, has no memory fence anywhere it reaches, and takes no argument that
// could alias it unseen (a pointer, a tuple holding an array); the generated block entry checks
// that no other array argument overlaps it.
#pragma once

#include <set>
#include <vector>

#include "ir/Ir.h"

namespace pyk::codegen {

struct AtomicGathering {
  std::set<const ir::IntrinsicCall*> sites; // the atomics gathered
  std::vector<sema::VariableId> arrays;     // the array parameters they update, in order
  std::vector<sema::VariableId> others;     // every other array parameter
};

// `kernel`'s gathered atomics; none for a device function.
AtomicGathering planAtomicGathering(const ir::Function& kernel);

} // namespace pyk::codegen
