// raw_launch: cuLaunchKernel from the CUDA driver pyk loaded ($PYK_LIBCUDA, else libcuda.so.1),
// for the benchmarks' raw Driver API launches that pyk's launch cost is measured against.
#pragma once

#include "../cpu/bench_common.h"

#include <dlfcn.h>

#include <cstdlib>

namespace bench {

using RawLaunch = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                          unsigned, void*, void**, void**);

// Fails (bench::fail) when the driver is not loaded or has no cuLaunchKernel.
inline RawLaunch rawLaunch() {
  const char* libcuda = std::getenv("PYK_LIBCUDA");
  void* driver =
      ::dlopen(libcuda != nullptr && *libcuda ? libcuda : "libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (driver == nullptr)
    fail("the CUDA driver pyk loaded cannot be found again");
  auto launch = reinterpret_cast<RawLaunch>(::dlsym(driver, "cuLaunchKernel"));
  if (launch == nullptr)
    fail("the CUDA driver has no cuLaunchKernel");
  return launch;
}

} // namespace bench
