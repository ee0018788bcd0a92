// ConstantFolder: evaluates a module-level expression at compile time, as Python would, when
// every name in it is an import or an already folded constant.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "diag/DiagnosticEngine.h"
#include "sema/catalog/ModuleApiCatalog.h"
#include "sema/fold/FoldResult.h"
#include "sema/resolve/ModuleSymbolTable.h"
#include "syntax/Ast.h"

namespace pyk::sema {

// Folds literals, tuples, names of folded constants, arithmetic, comparisons (chained), `and`,
// `or`, `not`, conditional expressions, tuple indexing and slicing, the builtins `int float bool
// complex abs min max round len pow divmod tuple sum any all`, `math.*` constants and functions,
// numpy and numba scalar casts (`np.float32(x)`, `numba.int32(x)`), type objects (`np.float32`)
// and `np.array(<nested literals or a folded tuple>, dtype=...)`. Python errors the module's own
// code would raise (division by zero, a ragged array literal) are reported once, at the offending
// node.
class ConstantFolder {
public:
  ConstantFolder(const ModuleSymbolTable& symbols, DiagnosticEngine& diags)
      : symbols_(symbols), diags_(diags) {}

  // Folds `expr`; an Error result has already been reported when this returns.
  FoldResult fold(const ast::Expr* expr);

  // How the names of a function body fold (a parameter specialized for a constant argument, a
  // local bound to a constant); nullopt for a name of the module. Without it every name is the
  // module's.
  using LocalNames = std::function<std::optional<FoldResult>(const ast::Name*)>;
  void setLocalNames(LocalNames localNames) { localNames_ = std::move(localNames); }
  // How the expressions only the module's running code can evaluate fold (ModuleExecution): a
  // call of a function of the module's own, a list comprehension or generator expression (it
  // binds names); nullopt for any other. Without it such an expression is not folded.
  using RunningCode = std::function<std::optional<FoldResult>(const ast::Expr*)>;
  void setRunningCode(RunningCode runningCode) { runningCode_ = std::move(runningCode); }
  const ModuleSymbolTable& symbols() const { return symbols_; }

private:
  // ConstantFolder.cpp: the dispatch, names, attributes, tuples, subscripts, the callee.
  FoldResult eval(const ast::Expr* expr, int depth);
  FoldResult evalName(const ast::Name* name);
  FoldResult evalAttribute(const ast::Attribute* attribute, int depth);
  FoldResult evalCall(const ast::Call* call, int depth);
  FoldResult evalSubscript(const ast::Subscript* subscript, int depth);
  FoldResult evalSequence(const std::vector<ast::Expr*>& elements, int depth);
  // Folds a call's positional arguments into `out`; the first failure, when one is not constant.
  std::optional<FoldResult> evalArguments(const ast::Call* call, int depth,
                                          std::vector<ConstantValue>& out);
  // ConstantFolderBuiltins.cpp.
  FoldResult evalBuiltinCall(const std::string& builtin, const ast::Call* call,
                             const std::vector<ConstantValue>& args);
  // ConstantFolderApiCalls.cpp: casts, `math.*`, numpy's scalar ufuncs.
  FoldResult evalApiCall(const std::string& qualifiedName, const ast::Call* call, int depth);
  // ConstantFolderArrays.cpp: `np.array(...)` of scalars (records: evalRecordArray), and
  // `a.reshape(shape)` of a folded array.
  FoldResult evalNumpyArray(const ast::Call* call, int depth);
  // ConstantFolderNumpyArrays.cpp: arange, zeros, ones, full, linspace, layout copies; astype.
  FoldResult evalNumpyConstructor(HostCall kind, const ast::Call* call, int depth);
  FoldResult castArray(const ConstantValue& array, ScalarKind dtype);
  FoldResult evalReshape(const ConstantValue& array, const ast::Call* call, int depth);
  // ConstantFolderRecordArrays.cpp: `np.array([(1.0, 2), (3.0, 4)], dtype=record)`, its items
  // laid out as numpy lays them out.
  FoldResult evalRecordArray(const ast::Expr* data, const NumbaType& record, int depth);
  // ConstantFolderRecordTypes.cpp:
  // `namedtuple("Point", ["x", "y"])` or `namedtuple("Point", "x y")`: the class, with
  // Python's checks on its names.
  FoldResult evalNamedTupleClass(const ast::Call* call, int depth);
  // cuda.declare_device(name, sig, link=..., abi=...): a ForeignFunction.
  FoldResult evalDeclareDevice(const ast::Call* call, int depth);
  FoldResult evalLinkableCode(const std::string& q, const ast::Call* call, int depth);
  // ConstantFolderRecordDtypes.cpp: `np.dtype([("x", np.float32), ("y", "int32", (3,))],
  // align=True)` or `np.dtype({'names': ..., 'formats': ..., 'offsets': ..., 'itemsize': ...})`:
  // a record type, laid out as numpy lays it out (packed, or each field at its alignment with
  // align=True); `np.dtype('<f4')`, `np.dtype('S12')`: the dtype a string names.
  FoldResult evalRecordDtype(const ast::Call* call, int depth);

  const ModuleSymbolTable& symbols_;
  DiagnosticEngine& diags_;
  LocalNames localNames_;
  RunningCode runningCode_;
};

} // namespace pyk::sema
