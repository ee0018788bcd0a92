// Ufunc: numpy's ufuncs in kernels — their loops (UfuncLoops.def, generated from numpy's and
// numba-cuda's tables) and numba's choice of a loop for the operands' types
// (numba.np.numpy_support.ufunc_find_matching_loop). Typing, lowering and both emitters ask here,
// so the choice is made by one function.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "base/NumbaType.h"
#include "sema/catalog/Intrinsic.h"

namespace pyk::sema {

using types::ScalarKind;

// One loop of a ufunc: the types its kernel computes in.
struct UfuncLoop {
  std::vector<ScalarKind> inputs;
  ScalarKind output = ScalarKind::Boolean;
  bool lowered = true;  // numba-cuda has the loop's kernel (its ufunc_db)
  bool compiled = true; // pyk has it (stdlib/common/numpy_ufuncs.h)
};

// Whether `id` is a ufunc pyk compiles (a UFUNC row of Intrinsics.def).
bool isUfunc(Intrinsic id);
// Its loops, in numpy's order.
const std::vector<UfuncLoop>& ufuncLoops(Intrinsic id);
// numba's choice: the first loop whose inputs the operands' types cast to safely (any integer to
// a float or complex where the inputs mix integers and floats) and whose output casts to each
// explicit output's type as numpy's "same_kind" allows; nullopt when none does.
std::optional<UfuncLoop> matchUfuncLoop(Intrinsic id, const std::vector<ScalarKind>& inputs,
                                        const std::vector<ScalarKind>& outputs);
// numpy's np.can_cast(from, to, "safe") and (..., "same_kind") for the types numba spells.
bool numpyCanCastSafely(ScalarKind from, ScalarKind to);
bool numpyCanCastSameKind(ScalarKind from, ScalarKind to);
// A loop's signature in numpy's letters: "ff->f".
std::string ufuncLoopText(const UfuncLoop& loop);

} // namespace pyk::sema
