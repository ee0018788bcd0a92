// Specialization: one compiled function typed for one set of argument types (numba's typed IR,
// kept as a side table over the AST): the type of every expression and of every local.
#pragma once

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "base/FunctionSignature.h"
#include "base/NumbaType.h"
#include "sema/fold/ConstantValue.h"
#include "sema/resolve/CompiledFunction.h"
#include "syntax/Ast.h"

namespace pyk::sema {

// A call of a function of CUDA C++ declared with `cuda.declare_device` (numba's FFI): what the
// emitted code declares and calls.
struct ForeignCallee {
  std::string symbol;
  FunctionSignature signature; // its return type set
  bool cAbi = false; // abi='c': `Ret symbol(args...)`; else numba's `int symbol(Ret*, ...)`
  std::vector<types::LinkedSource> sources; // declare_device's link=, as the front end read them
};

struct Specialization {
  const CompiledFunction* function = nullptr;
  std::vector<NumbaType> params; // the argument types this specialization is for
  // Per parameter: the constant it is specialized for, where the body needs one (a device
  // function's parameter used as a shared array's shape, given a constant argument: numba's
  // literal types); empty, or nullopt, for the others.
  std::vector<std::optional<ConstantValue>> literals;
  NumbaType returnType;  // void for kernels; inferred for device functions
  bool complete = false; // typing finished (a recursive call may see it unfinished)
  // While typing: the unification of the returns typed so far, which a recursive call of the
  // function takes as its result (numba infers simple recursion so).
  std::optional<NumbaType> partialReturn;

  // The type of every expression that has a value (not `cuda`, `math.sqrt`, `range(...)`...).
  std::unordered_map<const ast::Expr*, NumbaType> exprTypes;
  // The expressions of an Optional type used as a value (an operand, an argument of an
  // intrinsic, an index, a stored value, a condition): their Optional type, which lowering
  // unwraps (exprTypes has the value's type, which the use sees).
  std::unordered_map<const ast::Expr*, NumbaType> unwrappedOptionals;
  // Per FunctionScope::locals index: the unification of the types of the local's versions (the
  // one type of the one C++ variable that holds them, unless they differ); nullopt for a local
  // never given a value, or whose versions' types do not unify.
  std::vector<std::optional<NumbaType>> localTypes;
  // Per FunctionScope::versions index: each SSA version's own type (numba's), nullopt where
  // typing gave it none.
  std::vector<std::optional<NumbaType>> versionTypes;
  // The callee of each call of a function declared with cuda.declare_device.
  std::unordered_map<const ast::Call*, ForeignCallee> foreignCalls;
  // The callee of each call of a device function.
  std::unordered_map<const ast::Call*, const Specialization*> callees;
  // Each call with `*tuple` arguments as the call of the tuple's elements (`f(*t)` as
  // `f(t[0], t[1])`), in nodes the specialization owns; the emitter evaluates each `*` value once.
  std::unordered_map<const ast::Call*, const ast::Call*> spreadCalls;
  // An array index typing rewrote, whose items lowering reads instead of the slice (nodes of
  // spreadNodes): a tuple variable (`p = (i, j); a[p]`, `a[cuda.grid(2)]` held in `gid`) as
  // `p[0], p[1], ...`; an ellipsis (`a[..., 0]`) as the full slices it stands for.
  std::unordered_map<const ast::Subscript*, std::vector<const ast::Expr*>> indexItems;
  ast::AstContext spreadNodes;

  const NumbaType* versionType(size_t version) const {
    return version < versionTypes.size() && versionTypes[version] ? &*versionTypes[version]
                                                                  : nullptr;
  }
  const NumbaType* typeOf(const ast::Expr* e) const {
    auto it = exprTypes.find(e);
    return it == exprTypes.end() ? nullptr : &it->second;
  }
  // The numba intrinsic `e` denotes (`cuda.syncthreads`, `math.pi`, `range`), or None: resolved
  // once by name resolution, switched on by code generation and the analyses.
  Intrinsic intrinsicOf(const ast::Expr* e) const { return sema::intrinsicOf(function->scope, e); }
  // `name(float32[::1], int64) -> none`
  std::string describe() const;
};

// Every specialization made while typing one entry point, each once per (function, types).
class SpecializationSet {
public:
  Specialization* find(const CompiledFunction* function, const std::vector<NumbaType>& params,
                       const std::vector<std::optional<ConstantValue>>& literals = {});
  Specialization* add(const CompiledFunction* function, std::vector<NumbaType> params,
                      std::vector<std::optional<ConstantValue>> literals = {});
  const std::vector<std::unique_ptr<Specialization>>& all() const { return all_; }

private:
  std::vector<std::unique_ptr<Specialization>> all_;
};

} // namespace pyk::sema
