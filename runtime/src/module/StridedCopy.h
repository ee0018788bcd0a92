// StridedCopy: a strided (or broadcast) view copied into a new C-contiguous array on the view's
// own backend, by a kernel written in pyk (one per rank, compiled once per process), so that a
// view that cannot be passed as it is never travels through the host.
#pragma once

#include "pyk/device_array.hpp"

namespace pyk::detail {

// A new C-contiguous array with `view`'s dtype, shape and elements.
AnyDeviceArray contiguousCopy(const AnyDeviceArray& view, const Stream& stream = Stream());

} // namespace pyk::detail
