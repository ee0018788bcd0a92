// Broadcasting: numpy's broadcasting of operand shapes, and the strided views a (g)ufunc call
// hands its kernel: an array seen in a broadcast shape, and the single stride that walks a run
// of its dimensions when they collapse into one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pyk/device_array.hpp"

namespace pyk::detail {

// `(3, 4)`, `(3,)`, `()`: a shape as numpy prints it.
std::string describeShape(const std::vector<std::int64_t>& shape);

// numpy's broadcast of `shapes`; pyk::Error (InvalidArgument) naming them, after `what`, when
// they do not broadcast.
std::vector<std::int64_t> broadcastShape(const std::vector<std::vector<std::int64_t>>& shapes,
                                         const std::string& what);

// The view of `a` broadcast to `shape` (at least `a`'s rank): missing leading dimensions and
// extents of 1 that grow stride 0.
AnyDeviceArray broadcastTo(const AnyDeviceArray& a, const std::vector<std::int64_t>& shape);

// The one stride that walks dimensions [first, first + count) of `a` in C order, if there is one
// (dimensions of extent 1 do not matter; none left: the item size).
std::optional<std::int64_t> collapsedStride(const AnyDeviceArray& a, int first, int count);

} // namespace pyk::detail
