// FunctionConstants: what the names of a function body fold to as compile-time constants, as
// numba's literal types have it: a parameter specialized for a constant argument
// (Specialization::literals), a variable read where it was last assigned a constant
// (`n = 16` then `cuda.shared.array(n, float32)`). Everything else in the body is not constant.
#pragma once

#include "sema/fold/ConstantFolder.h"
#include "sema/typing/Specialization.h"

namespace pyk::sema {

// The name folding of `spec`'s body for `folder` (which folds the values it finds, too).
ConstantFolder::LocalNames functionLocalNames(const Specialization& spec, ConstantFolder& folder);

// The member an expression names of an Enum class frozen as a module constant (`Color.red`,
// `Color['red']`): its value; nullopt when `e` is no such member. `symbols` are the module's
// where the function is defined.
std::optional<ConstantValue> enumMember(const FunctionScope& scope,
                                        const ModuleSymbolTable& symbols, const ast::Expr* e);

// The Enum (or IntEnum) class a member expression (`Color.red`, `Color['red']`) is of; null
// when `e` names no Enum member (a module's constant `config.TPB` is none).
const ConstantValue* enumClassOfMember(const FunctionScope& scope, const ModuleSymbolTable& symbols,
                                       const ast::Expr* e);

// The function of CUDA C++ a callee expression names (`mul`, `helpers.mul` bound to
// `cuda.declare_device(...)`): its ForeignFunction constant; nullopt for anything else.
std::optional<ConstantValue> foreignFunctionOf(const FunctionScope& scope,
                                               const ModuleSymbolTable& symbols,
                                               const ast::Expr* callee);

// The parameters of `function` whose value its body needs as a constant (a shared or local
// array's shape, `cuda.grid`'s rank): a call with a constant argument there specializes for it.
std::vector<bool> parametersNeedingConstants(const CompiledFunction& function);

} // namespace pyk::sema
