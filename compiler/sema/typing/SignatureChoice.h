// SignatureChoice: which of a function's declared signatures numba calls it with for some
// argument types — a kernel launched, a device function called — as numba's dispatcher resolves
// an overload: the signature whose parameters need the fewest conversions of the arguments
// (unsafe ones first, then safe, then promotions), the earliest on a tie; an exact match wins.
#pragma once

#include <optional>
#include <span>

#include "base/FunctionSignature.h"

namespace pyk::sema {

// Whether an argument of type `arg` converts to a parameter of type `param` as numba's
// dispatcher converts it: a number to any number; an array of the same item and rank to the
// declared layout A (or its own), a writable one to a read-only one; a record of the same layout;
// a tuple element by element.
bool argumentConverts(const NumbaType& arg, const NumbaType& param);

// Whether a container argument (array, record) converts to a parameter; argumentConverts unless
// the caller has rules of its own (the runtime's records read back from .npy files).
using ContainerConverts = bool (*)(const NumbaType& arg, const NumbaType& param);

// The index of the signature numba picks for `args`; nullopt when none accepts them.
std::optional<size_t> chooseSignature(std::span<const FunctionSignature> signatures,
                                      std::span<const NumbaType> args,
                                      ContainerConverts converts = &argumentConverts);

} // namespace pyk::sema
