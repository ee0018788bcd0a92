// KernelLaunch: pyk::Kernel's launch: the backend it runs on (where its arrays are, else the
// current one), the launch checked, then the CPU or CUDA launcher (module/CpuLauncher.h,
// module/CudaLauncher.h); and what a kernel says of its specializations (mode, CUDA source,
// target, function).
#include "cuda/CudaContext.h"
#include "module/ArgumentTypes.h"
#include "module/CpuLauncher.h"
#include "module/CudaLauncher.h"
#include "module/LaunchValidation.h"
#include "module/ModuleState.h"
#include "pyk/device.hpp"

namespace pyk {

namespace {

// The backend a launch runs on: its arrays' (all on one), else the current one.
Backend launchBackend(const std::string& kernel, std::span<const KernelArgument> args) {
  const AnyDeviceArray* first = nullptr;
  for (size_t i = 0; i < args.size(); ++i) {
    detail::forEachArrayOf(args[i], [&](const AnyDeviceArray& array) {
      if (array.empty())
        throw Error(ErrorKind::InvalidArgument, "kernel `" + kernel + "`: argument " +
                                                    std::to_string(i) +
                                                    " is an empty (default-constructed) array");
      if (first == nullptr)
        first = &array;
      else if (array.backend() != first->backend())
        throw Error(ErrorKind::InvalidArgument,
                    "kernel `" + kernel + "`: argument " + std::to_string(i) +
                        " is an array on the " + backendName(array.backend()) +
                        " backend, but an earlier one is on the " + backendName(first->backend()) +
                        " backend; a launch runs where all its arrays are");
    });
  }
  return first != nullptr ? first->backend() : currentBackend();
}

} // namespace

const std::string& Kernel::name() const {
  return state_->function->name;
}

std::string Kernel::executionMode(std::span<const KernelArgument> args) const {
  return detail::cpuInstanceFor(*state_, args, nullptr)->mode;
}

void Kernel::launchWith(const LaunchShape& shape, std::size_t sharedBytes,
                        std::span<const KernelArgument> args, const Stream& stream) const {
  if (launchBackend(name(), args) == Backend::Cuda) {
    const cuda::DeviceContext& device = cuda::currentDevice();
    detail::validateLaunch(name(), shape, sharedBytes,
                           static_cast<std::size_t>(device.maxSharedBytesPerBlockOptin));
    detail::launchOnCuda(*state_, device, shape, sharedBytes, args, stream);
  } else {
    detail::validateLaunch(name(), shape, sharedBytes);
    detail::launchOnCpu(*state_, shape, sharedBytes, args);
  }
}

std::string Kernel::cudaSource(std::span<const KernelArgument> args) const {
  return detail::cudaInstanceFor(*state_, args, cuda::currentDevice(),
                                 detail::arraysFitIndex32(args))
      .source;
}

std::string Kernel::cudaTarget(std::span<const KernelArgument> args) const {
  return detail::cudaInstanceFor(*state_, args, cuda::currentDevice(),
                                 detail::arraysFitIndex32(args))
      .target;
}

void* Kernel::cudaFunction(std::span<const KernelArgument> args) const {
  return detail::cudaInstanceFor(*state_, args, cuda::currentDevice(),
                                 detail::arraysFitIndex32(args))
      .function;
}

} // namespace pyk
