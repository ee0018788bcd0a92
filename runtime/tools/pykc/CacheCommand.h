// CacheCommand: `pykc cache list|prune|clear` over the runtime's disk cache (pyk/cache.hpp).
#pragma once

#include "driver/CommandLine.h"

namespace pyk::driver {

// The exit status; pyk::Error when the cache folder is not usable.
int runCacheCommand(const Options& options);

} // namespace pyk::driver
