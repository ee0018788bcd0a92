// KernelLaunch: pyk::Kernel's launch: the backend it runs on (where its arrays are, else the
// current one), the launch checked, then the CPU or CUDA launcher (module/CpuLauncher.h,
// module/CudaLauncher.h); numba's launch helpers (forall with the block size chosen by
// occupancy, specialize, overloads, max_cooperative_grid_blocks); and what a kernel says of its
// specializations (mode, CUDA source, target, function).
#include "cpu/CpuEngine.h"
#include "cuda/CudaContext.h"
#include "cuda/CudaDriver.h"
#include "module/ArgumentTypes.h"
#include "module/CpuLauncher.h"
#include "module/CudaLauncher.h"
#include "module/GraphState.h"
#include "module/KernelDispatcher.h"
#include "module/LaunchValidation.h"
#include "module/ModuleState.h"
#include "module/StreamState.h"
#include "pyk/device.hpp"

#include <algorithm>
#include <set>

namespace pyk {

namespace {

// The backend a launch runs on: its arrays' (all on one), else the current one.
Backend launchBackend(const std::string& kernel, std::span<const KernelArgument> args) {
  detail::ArgumentSignature signature;
  return detail::scanArguments(kernel, args, signature).backend;
}

} // namespace

const std::string& Kernel::name() const {
  return state_->function->name;
}

std::string Kernel::execution_mode(std::span<const KernelArgument> args) const {
  return detail::cpuInstanceFor(*state_, args, nullptr)->mode;
}

void Kernel::launch_with(const LaunchShape& shape, std::size_t shared_bytes,
                         std::span<const KernelArgument> args, const Stream& stream) const {
  detail::ArgumentSignature signature;
  const detail::ArgumentScan scan = detail::scanArguments(name(), args, signature);
  detail::GraphState* graph = detail::capturingGraph(stream);
  if (graph != nullptr && graph->backend != scan.backend)
    throw Error(ErrorKind::InvalidArgument,
                "kernel `" + name() + "`: a launch on the " + backend_name(scan.backend) +
                    " backend queued on a stream of the " + backend_name(graph->backend) +
                    " backend that is being captured");
  if (scan.backend == Backend::Cuda) {
    const cuda::DeviceContext& device = cuda::currentDevice();
    detail::validateLaunch(name(), shape, shared_bytes,
                           static_cast<std::size_t>(device.maxSharedBytesPerBlockOptin),
                           state_->function->maxThreadsPerBlock);
    detail::CudaKernelInstance& instance =
        detail::launchOnCuda(*state_, device, shape, shared_bytes, args, stream, scan, signature);
    if (graph != nullptr) // captured by the driver: its node noted
      detail::recordLaunch(*graph, stream, *this, shape, shared_bytes, args, instance.function);
  } else {
    detail::validateLaunch(name(), shape, shared_bytes, 48 * 1024,
                           state_->function->maxThreadsPerBlock);
    if (graph != nullptr) { // compiled now, so that errors come at the capture; run at replays
      (void)detail::cpuInstanceFor(*state_, args, nullptr);
      detail::recordLaunch(*graph, stream, *this, shape, shared_bytes, args, nullptr);
      return;
    }
    detail::launchOnCpu(*state_, shape, shared_bytes, args);
  }
}

Kernel::Configured Kernel::forall(std::int64_t tasks, std::int64_t threads_per_block,
                                  const Stream& stream, std::size_t shared_bytes) const {
  if (tasks < 0 || threads_per_block < 0)
    throw Error(ErrorKind::InvalidLaunch,
                "kernel `" + name() + "`: forall(" + std::to_string(tasks) + ", " +
                    std::to_string(threads_per_block) +
                    "): the task count and threads per block cannot be negative");
  return Configured(this, {Dim3(1), Dim3(threads_per_block)}, shared_bytes, stream, tasks);
}

void Kernel::launch_forall(std::int64_t tasks, std::int64_t threads_per_block,
                           std::size_t shared_bytes, std::span<const KernelArgument> args,
                           const Stream& stream) const {
  if (tasks == 0)
    return; // numba launches nothing for no tasks
  std::int64_t block = threads_per_block;
  if (block == 0) {
    if (launchBackend(name(), args) == Backend::Cuda) {
      // The block size (a multiple of the warp) with the most threads resident on one
      // multiprocessor, the largest of equals: what cuOccupancyMaxPotentialBlockSize answers.
      const cuda::DeviceContext& device = cuda::currentDevice();
      detail::CudaKernelInstance& instance =
          detail::cudaInstanceFor(*state_, args, device, detail::arraysFitIndex32(args));
      // Asked of the driver once per instance and dynamic shared size, not at every launch.
      const std::uint64_t last = instance.forallChoice.load(std::memory_order_relaxed);
      if (last != 0 && last >> 16 == shared_bytes) {
        block = static_cast<std::int64_t>(last & 0xFFFF);
      } else {
        const cuda::CudaDriver& driver = *cuda::CudaDriver::shared();
        std::int64_t best = 0;
        for (int size = 32; size <= instance.maxThreadsPerBlock; size += 32) {
          int blocks = 0;
          driver.check(driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                           &blocks, instance.function, size, shared_bytes),
                       "cuOccupancyMaxActiveBlocksPerMultiprocessor", "kernel " + name());
          if (std::int64_t{blocks} * size >= best) { // ties: the larger block
            best = std::int64_t{blocks} * size;
            block = size;
          }
        }
        if (block == 0)
          block = 32;
        instance.forallChoice.store((std::uint64_t{shared_bytes} << 16) |
                                        static_cast<std::uint64_t>(block),
                                    std::memory_order_relaxed);
      }
    } else {
      block = std::min<std::int64_t>(256, state_->function->maxThreadsPerBlock.value_or(256));
    }
  }
  const std::int64_t blocks = (tasks + block - 1) / block;
  launch_with({Dim3(blocks), Dim3(block)}, shared_bytes, args, stream);
}

Kernel Kernel::specialize_for(std::span<const KernelArgument> args) const {
  detail::KernelState& k = *state_;
  if (k.function->kind != types::CompiledFunctionKind::Kernel)
    throw Error(ErrorKind::InvalidArgument,
                k.module->path() + ": `" + name() +
                    "` is a ufunc; it is specialized by its signatures, not by specialize()");
  const detail::SpecializationChoice choice = detail::chooseSpecialization(k, args);
  const types::FunctionSignature signature{choice.returnType, choice.params};
  std::shared_ptr<detail::KernelState> state;
  {
    std::lock_guard lock(k.module->kernelsMutex);
    std::shared_ptr<detail::KernelState>& slot =
        k.module->kernels[k.function->qualifiedName + " specialized " + signature.spelling()];
    if (slot == nullptr) {
      slot = std::make_shared<detail::KernelState>();
      slot->module = k.module;
      slot->function = k.function;
      slot->specialized = signature;
    }
    state = slot;
  }
  // Compiled now, on the arguments' backend.
  if (launchBackend(name(), args) == Backend::Cuda) {
    detail::CudaKernelInstance& instance = detail::cudaInstanceFor(
        *state, args, cuda::currentDevice(), detail::arraysFitIndex32(args));
    std::lock_guard lock(state->mutex);
    state->specializedCuda = &instance;
  } else {
    std::shared_ptr<detail::CpuKernelInstance> instance =
        detail::cpuInstanceFor(*state, args, nullptr);
    std::lock_guard lock(state->mutex);
    state->specializedCpu = std::move(instance);
  }
  // The handle keeps the module alive, as module["name"]'s does.
  return Kernel(std::shared_ptr<detail::KernelState>(state_, state.get()));
}

std::vector<std::string> Kernel::overloads() const {
  detail::KernelState& k = *state_;
  std::lock_guard lock(k.mutex);
  std::vector<std::string> out;
  std::set<std::string> seen; // a split kernel has an instance per block shape
  for (const auto& [key, instance] : k.instances)
    if (seen.insert(instance->description + " on cpu").second)
      out.push_back(instance->description + " on cpu");
  for (const auto& [key, instance] : k.cudaInstances) {
    const bool index32 = instance->target.find("index32") != std::string::npos;
    const std::string line = instance->description + " on cuda device " +
                             std::to_string(instance->device->id) + (index32 ? " index32" : "");
    if (seen.insert(line).second)
      out.push_back(line);
  }
  return out;
}

std::int64_t Kernel::max_cooperative_grid_blocks(Dim3 block,
                                                 std::size_t dynamic_shared_bytes) const {
  detail::KernelState& k = *state_;
  std::shared_ptr<detail::CpuKernelInstance> cpuInstance;
  detail::CudaKernelInstance* cudaInstance = nullptr;
  {
    std::lock_guard lock(k.mutex);
    cpuInstance = k.specializedCpu;
    cudaInstance = k.specializedCuda;
  }
  if (cpuInstance == nullptr && cudaInstance == nullptr)
    throw Error(ErrorKind::InvalidArgument,
                "kernel `" + name() +
                    "`: max_cooperative_grid_blocks needs a specialized kernel, as numba's "
                    "max_cooperative_grid_blocks does: kernel.specialize(args...)");
  const std::int64_t threads = block.x * block.y * block.z;
  if (threads <= 0 || threads > 1024)
    throw Error(ErrorKind::InvalidLaunch, "kernel `" + name() + "`: a block of " +
                                              std::to_string(threads) +
                                              " threads (1 to 1024 are possible)");
  if (cudaInstance != nullptr) {
    if (threads > cudaInstance->maxThreadsPerBlock)
      return 0;
    const cuda::CudaDriver& driver = *cuda::CudaDriver::shared();
    int perMultiprocessor = 0;
    driver.check(driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                     &perMultiprocessor, cudaInstance->function, static_cast<int>(threads),
                     dynamic_shared_bytes),
                 "cuOccupancyMaxActiveBlocksPerMultiprocessor", "kernel " + name());
    return std::int64_t{perMultiprocessor} * cudaInstance->device->multiprocessors;
  }
  // The CPU backend runs a cooperative launch's blocks at once, each on a thread with a fiber
  // per CUDA thread, up to its limits (cpu/CpuEngine.h).
  return std::min<std::int64_t>(static_cast<std::int64_t>(cpu::kMaxCooperativeBlocks),
                                static_cast<std::int64_t>(cpu::kMaxCooperativeThreads) / threads);
}

std::string Kernel::cuda_source(std::span<const KernelArgument> args) const {
  return detail::cudaInstanceFor(*state_, args, cuda::currentDevice(),
                                 detail::arraysFitIndex32(args))
      .source;
}

std::string Kernel::cuda_target(std::span<const KernelArgument> args) const {
  return detail::cudaInstanceFor(*state_, args, cuda::currentDevice(),
                                 detail::arraysFitIndex32(args))
      .target;
}

void* Kernel::cuda_function(std::span<const KernelArgument> args) const {
  return detail::cudaInstanceFor(*state_, args, cuda::currentDevice(),
                                 detail::arraysFitIndex32(args))
      .function;
}

} // namespace pyk
