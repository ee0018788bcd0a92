// LaunchValidation: a launch checked against CUDA's limits before anything runs, the same on every
// backend, with messages that name the limit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "pyk/kernel.hpp"

namespace pyk::detail {

// Throws pyk::Error (InvalidLaunch): a grid or block extent outside 1..limit on its axis, more
// than 1024 threads per block, or more dynamic shared memory than a block may have (48 KiB, as
// CUDA without opting in; `maxSharedBytes` where the device allows more, as CUDA devices do), or
// more threads per block than the kernel's `launch_bounds=` allow (`boundsThreads`).
void validateLaunch(const std::string& kernel, const LaunchShape& shape, std::size_t shared_bytes,
                    std::size_t maxSharedBytes = 48 * 1024,
                    std::optional<std::int64_t> boundsThreads = std::nullopt);

} // namespace pyk::detail
