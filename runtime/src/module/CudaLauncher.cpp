// CudaLauncher: CUDA instances by device and argument types; a cached image the driver will not
// load is compiled afresh once and replaced.
#include "module/CudaLauncher.h"

#include <algorithm>
#include <memory>

#include "module/AheadOfTime.h"
#include "module/ArgumentTypes.h"
#include "module/KernelCompiler.h"
#include "module/KernelDispatcher.h"
#include "module/LaunchArguments.h"
#include "module/ScalarConversion.h"
#include "profile/NvtxRanges.h"
#include "pyk/device_array.hpp"
#include "settings/SettingsStore.h"

namespace pyk::detail {

using types::NumbaType;

CudaKernelInstance::~CudaKernelInstance() {
  if (module == nullptr)
    return;
  cuda::releaseInContext(device->context, [&](const cuda::CudaDriver& driver) {
    (void)driver.cuModuleUnload(module);
  });
}

namespace {

// `k` compiled for `choice` on `device`; what NVRTC could not do, as the runtime words it.
jit::CompiledKernel compileForDevice(KernelState& k, const SpecializationChoice& choice,
                                     const cuda::DeviceContext& device, bool index32,
                                     const RuntimeSettings& settings, bool rebuild) {
  jit::CompiledKernel compiled = compileKernel(
      k, choice,
      jit::CudaDevice{device.compute_capability_major, device.compute_capability_minor, index32},
      settings, rebuild);
  if (!compiled.nvrtcFailure && !compiled.unlinkedCode.empty())
    throw Error(ErrorKind::Compile,
                compiled.description + " links " + compiled.unlinkedCode +
                    ", which nvJitLink links into a CUBIN for the device's architecture; NVRTC "
                    "knows no architecture of this device (compute capability " +
                    std::to_string(device.compute_capability_major) + "." +
                    std::to_string(device.compute_capability_minor) +
                    "), and the PTX pyk compiles for it instead cannot carry linked code");
  if (!compiled.nvrtcFailure)
    return compiled;
  const jit::NvrtcFailure& failure = *compiled.nvrtcFailure;
  switch (failure.kind) {
  case jit::NvrtcFailure::Kind::Unavailable:
    throw Error(ErrorKind::Compile,
                compiled.description + ": cannot compile for CUDA: " + failure.log);
  case jit::NvrtcFailure::Kind::NoArchitecture:
    throw Error(ErrorKind::Compile,
                compiled.description + ": NVRTC " + failure.nvrtcVersion +
                    " knows no architecture this device can run (it is older than all of them)");
  case jit::NvrtcFailure::Kind::LinkedSourceRejected:
    throw Error(ErrorKind::Compile, "NVRTC rejected the CUDA C++ linked with " +
                                        compiled.description + " (" + failure.generatedLines +
                                        "):\n" + failure.log);
  case jit::NvrtcFailure::Kind::LinkRejected:
    throw Error(ErrorKind::Compile, "nvJitLink could not link " + failure.generatedLines +
                                        " with " + compiled.description + ":\n" + failure.log);
  case jit::NvrtcFailure::Kind::UnsupportedArch:
  case jit::NvrtcFailure::Kind::Rejected:
    break;
  }
  throw Error(ErrorKind::Internal, "NVRTC rejected the CUDA C++ pyk generated for " +
                                       compiled.description + " (a bug in pyk):\n" + failure.log);
}

// The image of `k` for `choice` on `device`'s architecture: the one compiled for another device of
// that architecture in this process, else compiled now (through the disk cache) and kept for the
// next device. `rebuild`: compiled afresh, past both caches.
std::shared_ptr<const jit::CompiledKernel> imageFor(KernelState& k,
                                                    const SpecializationChoice& choice,
                                                    const cuda::DeviceContext& device, bool index32,
                                                    const RuntimeSettings& settings, bool rebuild) {
  const std::string key = "sm_" + std::to_string(device.compute_capability_major) +
                          std::to_string(device.compute_capability_minor) + " " +
                          describeTypes(choice.params) + (index32 ? " index32" : "");
  if (!rebuild) {
    std::lock_guard lock(k.mutex);
    if (auto it = k.cudaImages.find(key); it != k.cudaImages.end())
      return it->second;
  }
  auto compiled = std::make_shared<const jit::CompiledKernel>(
      compileForDevice(k, choice, device, index32, settings, rebuild));
  std::lock_guard lock(k.mutex);
  k.cudaImages[key] = compiled;
  return compiled;
}

} // namespace

bool arraysFitIndex32(std::span<const KernelArgument> args) {
  bool fits = true;
  for (const KernelArgument& arg : args)
    forEachArrayOf(arg, [&](const AnyDeviceArray& a) { fits = fits && arrayFitsIndex32(a); });
  return fits;
}

bool gridFitsIndex32(const LaunchShape& shape) {
  return shape.grid.x * shape.block.x <= kIndex32Limit &&
         shape.grid.y * shape.block.y <= kIndex32Limit &&
         shape.grid.z * shape.block.z <= kIndex32Limit;
}

namespace {

// How each argument of `args` is laid out for `params` (KernelState.h's ArgumentWrite).
std::vector<ArgumentWrite> argumentWrites(std::span<const KernelArgument> args,
                                          const std::vector<NumbaType>& params) {
  std::vector<ArgumentWrite> writes(args.size(), ArgumentWrite::General);
  for (std::size_t i = 0; i < args.size() && i < params.size(); ++i) {
    const KernelArgument& a = args[i];
    const NumbaType& p = params[i];
    if (a.kind == KernelArgument::Kind::Scalar && p.isScalar() &&
        scalarKindOf(a.dtype) == p.scalarKind() && a.dtype != Dtype::Float16)
      writes[i] = ArgumentWrite::InPlace; // convertScalar would copy its bytes as they are
    else if (a.kind == KernelArgument::Kind::Array && p.isArray())
      writes[i] = ArgumentWrite::Array;
  }
  return writes;
}

} // namespace

CudaKernelInstance& cudaInstanceFor(KernelState& k, std::span<const KernelArgument> args,
                                    const cuda::DeviceContext& device, bool index32) {
  ArgumentSignature signature;
  const bool packed = packSignature(args, signature);
  return *cudaTargetFor(k, args, device, index32, packed ? &signature : nullptr).instance;
}

CudaLaunchTarget cudaTargetFor(KernelState& k, std::span<const KernelArgument> args,
                               const cuda::DeviceContext& device, bool index32,
                               const ArgumentSignature* signature) {
  if (signature != nullptr) {
    auto matches = [&](const KernelState::RecentCuda& r) {
      return r.device == &device && r.index32 == index32 && r.signature == *signature;
    };
    // Entries are never removed: the one the last launch found stays valid without the mutex.
    if (const KernelState::RecentCuda* last = k.lastCuda.load(std::memory_order_acquire);
        last != nullptr && matches(*last))
      return {last->instance, &last->writes};
    std::lock_guard lock(k.mutex);
    for (const std::unique_ptr<const KernelState::RecentCuda>& r : k.recentCuda)
      if (matches(*r)) {
        k.lastCuda.store(r.get(), std::memory_order_release);
        return {r->instance, &r->writes};
      }
  }
  const SpecializationChoice choice = chooseSpecialization(k, args);
  const std::string key = "device " + std::to_string(device.id) + " " +
                          describeTypes(choice.params) + (index32 ? " index32" : "");
  // Under k.mutex.
  auto remember = [&](CudaKernelInstance* instance) -> CudaLaunchTarget {
    if (signature == nullptr)
      return {instance, nullptr};
    k.recentCuda.push_back(std::make_unique<const KernelState::RecentCuda>(KernelState::RecentCuda{
        *signature, index32, &device, instance, argumentWrites(args, instance->params)}));
    k.lastCuda.store(k.recentCuda.back().get(), std::memory_order_release);
    return {instance, &k.recentCuda.back()->writes};
  };
  {
    std::lock_guard lock(k.mutex);
    if (auto it = k.cudaInstances.find(key); it != k.cudaInstances.end())
      return remember(it->second.get());
  }
  const std::shared_ptr<const RuntimeSettings> settings = currentSettings();
  const cuda::CudaDriver& driver = *cuda::CudaDriver::shared();
  auto instance = std::make_shared<CudaKernelInstance>();
  instance->device = &device;
  std::string entry;
  // Built ahead of time: the fatbin, from which the driver loads the image for this device (a
  // CUBIN of its architecture, else PTX it compiles); one without such an image is compiled by
  // the JIT where it can be.
  std::string aheadRefused;
  if (const aot::CudaKernel* ahead =
          aheadCudaKernel(*k.module, k.function->qualifiedName, choice.params, index32)) {
    const cuda::CUresult loaded = driver.cuModuleLoadData(&instance->module, ahead->fatbin);
    if (loaded == cuda::kCudaSuccess) {
      instance->description = describeSpecialization(k.function->qualifiedName, choice.params);
      instance->target = std::string("fatbin ") + ahead->targets + (index32 ? " index32" : "") +
                         " (built ahead of time)";
      instance->cooperative = ahead->cooperative;
      entry = ahead->entry_point;
    } else {
      instance->module = nullptr;
      aheadRefused = std::string(" (its fatbin holds ") + ahead->targets +
                     ", which the driver cannot load on device " + std::to_string(device.id) +
                     ", sm_" + std::to_string(device.compute_capability_major) +
                     std::to_string(device.compute_capability_minor) + ")";
    }
  }
  if (instance->module == nullptr) {
    std::shared_ptr<const jit::CompiledKernel> compiled;
    try {
      compiled = imageFor(k, choice, device, index32, *settings, false);
    } catch (const Error& e) {
      if (k.module->aot == nullptr)
        throw;
      throwNotBuiltAhead(
          *k.module, k.function->qualifiedName,
          "`" + describeSpecialization(k.function->qualifiedName, choice.params) + "`",
          std::string("CUDA") + (index32 ? " (index32 variant)" : "") + aheadRefused, e);
    }
    instance->description = compiled->description;
    instance->source = compiled->cuda.source;
    instance->target = compiled->target;
    instance->cooperative = compiled->cuda.cooperative;
    const std::string what = compiled->description + " (" + compiled->target + ")";
    cuda::CUresult loaded = driver.cuModuleLoadData(&instance->module, compiled->binary.c_str());
    if (loaded != cuda::kCudaSuccess && compiled->fromCache) {
      // A cached image the driver refuses: compiled afresh once.
      compiled = imageFor(k, choice, device, index32, *settings, true);
      loaded = driver.cuModuleLoadData(&instance->module, compiled->binary.c_str());
    }
    driver.check(loaded, "cuModuleLoadData", what);
    entry = compiled->cuda.entryPoint;
  }
  const std::string& description = instance->description;
  driver.check(driver.cuModuleGetFunction(&instance->function, instance->module, entry.c_str()),
               "cuModuleGetFunction", description + " (entry `" + entry + "`)");
  driver.check(driver.cuFuncGetAttribute(&instance->maxThreadsPerBlock,
                                         cuda::kFunctionMaxThreadsPerBlock, instance->function),
               "cuFuncGetAttribute", "kernel " + description);
  driver.check(driver.cuFuncGetAttribute(&instance->static_shared_bytes,
                                         cuda::kFunctionSharedSizeBytes, instance->function),
               "cuFuncGetAttribute", "kernel " + description);
  instance->dynamicSharedAllowed =
      std::max(0, device.maxSharedBytesPerBlock - instance->static_shared_bytes);
  instance->params = entryParameters(k, args, choice.params);
  std::lock_guard lock(k.mutex);
  auto [it, inserted] = k.cudaInstances.emplace(key, std::move(instance));
  return remember(it->second.get());
}

CudaKernelInstance& launchOnCuda(KernelState& k, const cuda::DeviceContext& device,
                                 const LaunchShape& shape, std::size_t shared_bytes,
                                 std::span<const KernelArgument> args, const Stream& stream,
                                 const ArgumentScan& scan, const ArgumentSignature& signature) {
  const CudaLaunchTarget target =
      cudaTargetFor(k, args, device, gridFitsIndex32(shape) && scan.fitsIndex32,
                    scan.packed ? &signature : nullptr);
  CudaKernelInstance& instance = *target.instance;
  const NvtxRange range(NvtxRangeKind::Launch, [&] { return instance.description; });
  const std::int64_t threads = shape.block.x * shape.block.y * shape.block.z;
  if (threads > instance.maxThreadsPerBlock)
    throw Error(ErrorKind::InvalidLaunch,
                "kernel " + instance.description + ": a block of " + std::to_string(threads) +
                    " threads is more than this kernel can run on device " +
                    std::to_string(device.id) + " (" + std::to_string(instance.maxThreadsPerBlock) +
                    ", limited by its registers)");
  const cuda::CudaDriver& driver = *cuda::CudaDriver::shared();
  if (static_cast<std::int64_t>(shared_bytes) > instance.dynamicSharedAllowed.load()) {
    const std::int64_t limit = device.maxSharedBytesPerBlockOptin - instance.static_shared_bytes;
    if (static_cast<std::int64_t>(shared_bytes) > limit)
      throw Error(ErrorKind::InvalidLaunch,
                  "kernel " + instance.description + ": " + std::to_string(shared_bytes) +
                      " bytes of dynamic shared memory, with its " +
                      std::to_string(instance.static_shared_bytes) +
                      " static bytes, exceed device " + std::to_string(device.id) + "'s " +
                      std::to_string(device.maxSharedBytesPerBlockOptin) + " bytes per block");
    driver.check(driver.cuFuncSetAttribute(instance.function,
                                           cuda::kFunctionMaxDynamicSharedSizeBytes,
                                           static_cast<int>(shared_bytes)),
                 "cuFuncSetAttribute", "kernel " + instance.description);
    instance.dynamicSharedAllowed = static_cast<int>(shared_bytes);
  }
  if (scan.arraysDevice != -1 && scan.arraysDevice != device.id)
    for (size_t i = 0; i < args.size(); ++i) // the first array elsewhere
      forEachArrayOf(args[i], [&](const AnyDeviceArray& a) {
        if (a.device_id() != device.id && a.memory_kind() != MemoryKind::Managed)
          throw Error(ErrorKind::InvalidArgument,
                      "kernel " + instance.description + ": argument " + std::to_string(i) +
                          " is in the memory of device " + std::to_string(a.device_id()) +
                          ", but the launch runs on device " + std::to_string(device.id) +
                          " (select_device picks the device a thread launches on)");
      });
  // The arguments, laid out by the signature's plan when it has one (LaunchArguments.h says
  // where they are kept).
  LaunchArguments arguments(args.size());
  if (target.writes != nullptr) {
    const ArgumentWrite* writes = target.writes->data();
    for (size_t i = 0; i < args.size(); ++i)
      switch (writes[i]) {
      case ArgumentWrite::InPlace:
        arguments.setInPlace(i, args[i].value);
        break;
      case ArgumentWrite::Array:
        arguments.setArray(i, *args[i].array);
        break;
      case ArgumentWrite::General:
        arguments.set(i, args[i], instance.params[i]);
        break;
      }
  } else {
    for (size_t i = 0; i < args.size(); ++i)
      arguments.set(i, args[i], instance.params[i]);
  }
  void** pointers = arguments.pointers();
  const auto gx = static_cast<unsigned>(shape.grid.x), gy = static_cast<unsigned>(shape.grid.y),
             gz = static_cast<unsigned>(shape.grid.z);
  const auto bx = static_cast<unsigned>(shape.block.x), by = static_cast<unsigned>(shape.block.y),
             bz = static_cast<unsigned>(shape.block.z);
  const auto cuStream = static_cast<cuda::CUstream>(stream.handle());
  cuda::CudaDriver::noteLaunch(&instance.description);
  if (!instance.cooperative) {
    const cuda::CUresult r =
        driver.cuLaunchKernel(instance.function, gx, gy, gz, bx, by, bz,
                              static_cast<unsigned>(shared_bytes), cuStream, pointers, nullptr);
    if (r != cuda::kCudaSuccess)
      driver.check(r, "cuLaunchKernel", "kernel " + instance.description);
    return instance;
  }
  // grid.sync() needs every block resident at once.
  int perMultiprocessor = 0;
  driver.check(driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                   &perMultiprocessor, instance.function, static_cast<int>(threads), shared_bytes),
               "cuOccupancyMaxActiveBlocksPerMultiprocessor", "kernel " + instance.description);
  const std::int64_t resident = std::int64_t{perMultiprocessor} * device.multiprocessors;
  const std::int64_t blocks = shape.grid.x * shape.grid.y * shape.grid.z;
  if (!device.cooperativeLaunch || blocks > resident)
    throw Error(ErrorKind::InvalidLaunch,
                "kernel " + instance.description +
                    " synchronizes its grid (cuda.cg.this_grid().sync()), so every block must be "
                    "resident at once: " +
                    (device.cooperativeLaunch
                         ? "device " + std::to_string(device.id) + " holds at most " +
                               std::to_string(resident) + " blocks of " + std::to_string(threads) +
                               " threads, and the grid has " + std::to_string(blocks)
                         : "device " + std::to_string(device.id) +
                               " does not support cooperative launches"));
  const cuda::CUresult r =
      driver.cuLaunchCooperativeKernel(instance.function, gx, gy, gz, bx, by, bz,
                                       static_cast<unsigned>(shared_bytes), cuStream, pointers);
  if (r != cuda::kCudaSuccess)
    driver.check(r, "cuLaunchCooperativeKernel", "kernel " + instance.description);
  return instance;
}

} // namespace pyk::detail
