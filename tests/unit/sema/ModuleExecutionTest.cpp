// ModuleExecution: the module's top-level code run as Python runs it, each name bound to its value
// at the end; what cannot be followed leaves the names it may change host values with the reason.
#include <gtest/gtest.h>

#include "SemaTestSupport.h"

namespace pyk::test {
namespace {

// The folded value of `name` (its repr), or "host value: <reason>".
std::string valueOf(const Resolved& r, const std::string& name) {
  const sema::ModuleSymbol* s = r.module.symbols.find(name);
  if (s == nullptr)
    return "unbound";
  if (s->kind == sema::ModuleSymbolKind::Constant)
    return r.module.symbols.constants()[s->index].value.repr();
  if (s->kind == sema::ModuleSymbolKind::HostValue)
    return "host value: " + r.module.symbols.hostValues()[s->index].reason;
  return "other";
}

TEST(ModuleExecution, LoopsCallsAndReassignmentsEndWithPythonsValues) {
  Resolved r(R"PY(import numpy as np
def square(x, offset=0):
    y = x * x
    return y + offset
def ramp(n):
    t = np.zeros(n)
    for i in range(n):
        t[i] = i
    return t
N = square(3, offset=1)
N = N * 2
total = 0
for i, v in enumerate((4, 5, 6)):
    if v == 5:
        continue
    total += i * v
parts = []
while len(parts) < 3:
    parts.append(len(parts) * 10)
PARTS = tuple(parts)
R = ramp(3)
R[0] = 7
)PY");
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(valueOf(r, "N"), "20");
  EXPECT_EQ(valueOf(r, "total"), "12");
  EXPECT_EQ(valueOf(r, "PARTS"), "(0, 10, 20)");
  EXPECT_EQ(valueOf(r, "R"), "array([7.0, 1.0, 2.0], dtype=float64)");
  EXPECT_EQ(valueOf(r, "parts"),
            "host value: a list is not a constant numba can use (use a tuple)");
}

TEST(ModuleExecution, AnArrayChangedThroughAnotherNameOrACallIsNeverStale) {
  Resolved r(R"PY(import numpy as np
A = np.zeros(3)
B = A
B[0] = 1.0
W = np.arange(4.0)
V = W.reshape(2, 2)
W[1] = 5.0
C = np.ones(2)
C.sort()
K = np.ones(2)
)PY");
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(valueOf(r, "A"),
            "host value: an item of an array or object is assigned that pyk does not follow");
  EXPECT_EQ(valueOf(r, "B"), valueOf(r, "A"));
  EXPECT_EQ(valueOf(r, "W"), "array([0.0, 5.0, 2.0, 3.0], dtype=float64)");
  EXPECT_EQ(valueOf(r, "V"), "host value: it may share memory with `W`, which is changed after it");
  EXPECT_TRUE(valueOf(r, "C").starts_with("host value: its method `C.sort` is called"))
      << valueOf(r, "C");
  EXPECT_EQ(valueOf(r, "K"), "array([1.0, 1.0], dtype=float64)");
}

TEST(ModuleExecution, CodeThatCannotBeFollowedLeavesItsNamesUnknown) {
  Resolved r(R"PY(import os
try:
    import cupy
    GPU = 1
except ImportError:
    GPU = 0
if os.environ.get("X"):
    M = 1
else:
    M = 2
X = 0
while True:
    X += 1
)PY");
  ASSERT_TRUE(r.ok()) << r.errors();
  EXPECT_EQ(valueOf(r, "GPU"), "host value: it is assigned inside a `try` statement whose "
                               "outcome depends on whether `cupy` can be imported where the "
                               "program runs");
  EXPECT_TRUE(valueOf(r, "M").starts_with("host value: it is assigned inside an `if` statement"))
      << valueOf(r, "M");
  EXPECT_EQ(valueOf(r, "X"),
            "host value: pyk stops following the module's code after 1000000 steps");
}

} // namespace
} // namespace pyk::test
