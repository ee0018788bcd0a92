// KernelDispatcher: which specialization a launch runs, as numba's dispatcher decides: a kernel
// without signatures is typed for its arguments' types; one with signatures runs the first that
// accepts them; a ufunc's kernel is typed for its arrays' dtypes, a gufunc's by the loop dimension
// each array has first. Also what the compiled entry point reads.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "base/NumbaType.h"
#include "module/KernelState.h"
#include "pyk/kernel.hpp"

namespace pyk::detail {

// The parameter types (and declared return type) of the specialization a launch runs.
struct SpecializationChoice {
  std::vector<types::NumbaType> params;
  std::optional<types::NumbaType> returnType;
};

// The specialization of `k` a launch with `args` runs. Throws pyk::Error (InvalidArgument) naming
// the signatures when none accepts the arguments, or when their count or kinds are wrong.
SpecializationChoice chooseSpecialization(const KernelState& k,
                                          std::span<const KernelArgument> args);

// What a compiled instance's entry point reads: the specialization's parameters, or, for a
// (g)ufunc's kernel, its arrays (numba's `A` layout, one per argument).
std::vector<types::NumbaType> entryParameters(const KernelState& k,
                                              std::span<const KernelArgument> args,
                                              const std::vector<types::NumbaType>& params);

} // namespace pyk::detail
