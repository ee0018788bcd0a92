// ConstantFolderInternal: what the ConstantFolder's files share, for them alone: the common
// outcomes (an invalid operation, an expression that is not folded), the builtin type names as
// dtypes, and Python's float-to-int conversion.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sema/fold/ConstantValue.h"
#include "sema/fold/FoldResult.h"
#include "syntax/Ast.h"

namespace pyk::sema::folding {

// The most elements a folded constant array may have (numba freezes it into the kernel's code).
inline constexpr int64_t kMaxArrayElements = 1 << 20;

// An int, a bool or a float (a number that is not complex).
bool isReal(const ConstantValue& v);

// A nested literal's sequence of `n` items at dimension `dim` of the `shape` found so far: the
// dimension's extent when it is new (an error saying `mixed` when items were found already,
// `leafFound`), else an error unless `n` is its extent. std::nullopt when the sequence fits.
std::optional<FoldResult> extendShape(std::vector<int64_t>& shape, size_t dim, int64_t n,
                                      bool leafFound, const char* mixed, SourceRange range);

// A Python error the module's own code would raise, with `message` as its text.
FoldResult invalid(std::string message);

// "<what> is not folded".
FoldResult notFolded(const std::string& what);

// The builtin types `float`, `int`, `bool`, `complex` as numpy dtypes.
std::optional<ScalarKind> builtinDtype(const std::string& name);

// Python's int(x) of an integer-valued double: an error for nan and infinity (naming `context`,
// the function), not a constant beyond 64 bits.
FoldResult floatToInt(double x, const char* context);

// `a op b` where an operand is an array: element by element with numpy's promotion (an array of
// the same shape, a Python scalar or a numpy scalar on the other side); ConstantFolderNumpyArrays.
FoldResult elementwise(ast::BinOpKind op, const ConstantValue& a, const ConstantValue& b);
// `-a`, `+a`, `~a` of an array.
FoldResult elementwiseNegation(ast::UnaryOpKind op, const ConstantValue& a);

} // namespace pyk::sema::folding
