// DeferredAtomics: which atomics a kernel's CPU workers may gather: those on an array the kernel
// touches only with atomics whose result it leaves, at an index the whole grid shares.
#include <gtest/gtest.h>

#include "TypedKernel.h"
#include "codegen/cpu/DeferredAtomics.h"

namespace pyk::codegen {
namespace {

using test::TypedKernel;

// The names of the arrays gathered, then "|", then the other array parameters.
std::string gatheringOf(const char* source, const char* signature) {
  TypedKernel k(source, "k", signature);
  if (!k.ok())
    return "error: " + k.errors();
  const AtomicGathering g = planAtomicGathering(k.irEntry());
  std::string out;
  for (sema::VariableId v : g.arrays)
    out += k.irEntry().variableName(v) + " ";
  out += "|";
  for (sema::VariableId v : g.others)
    out += " " + k.irEntry().variableName(v);
  return out + " (" + std::to_string(g.sites.size()) + " sites)";
}

TEST(DeferredAtomics, AccumulatorsAtIndicesTheGridShares) {
  EXPECT_EQ(gatheringOf(R"(
from numba import cuda

@cuda.jit
def k(a, total, counts, slot):
    i = cuda.grid(1)
    last = slot + 1
    if i < a.size:
        cuda.atomic.add(total, 0, a[i])
        cuda.atomic.sub(total, (last - 1) * 2, a[i])
        cuda.atomic.max(counts, slot, 1)
)",
                        "void(float32[::1], float32[::1], int32[::1], int64)"),
            "total counts | a (3 sites)");
}

TEST(DeferredAtomics, NotWhereAThreadCouldTell) {
  // A thread's index, a result used, an array read or passed on: those arrays stay immediate.
  EXPECT_EQ(gatheringOf(R"(
from numba import cuda

@cuda.jit(device=True)
def bump(arr):
    cuda.atomic.add(arr, 0, 1)

@cuda.jit
def k(a, hist, tickets, seen, passed):
    i = cuda.grid(1)
    cuda.atomic.add(hist, i % 3, 1)
    cuda.atomic.add(tickets, 0, 1)
    seen[0] = cuda.atomic.add(seen, 1, 1)
    bump(passed)
)",
                        "void(float32[::1], int32[::1], int32[::1], int32[::1], int32[::1])"),
            "tickets | a hist seen passed (1 sites)");
}

TEST(DeferredAtomics, NoneWithAFenceOrAnArrayInATuple) {
  EXPECT_EQ(gatheringOf(R"(
from numba import cuda

@cuda.jit(device=True)
def publish():
    cuda.threadfence()

@cuda.jit
def k(a, total):
    cuda.atomic.add(total, 0, a[0])
    publish()
)",
                        "void(float32[::1], float32[::1])"),
            "| (0 sites)");
  EXPECT_EQ(gatheringOf(R"(
from numba import cuda

@cuda.jit
def k(pair, total):
    cuda.atomic.add(total, 0, pair[0][0])
)",
                        "void(UniTuple(float32[::1], 2), float32[::1])"),
            "| (0 sites)");
}

} // namespace
} // namespace pyk::codegen
