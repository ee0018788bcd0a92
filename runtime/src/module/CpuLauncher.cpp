// CpuLauncher: CPU instances by argument types and the settings that change the generated code
// (bounds checks, fibers forced); split kernels have one more per block shape, compiled in the
// background. A cached object that passes the cache's checks but does not load (another system's
// library, say) is rebuilt once.
#include "module/CpuLauncher.h"

#include <cstdint>
#include <optional>
#include <string>

#include "cpu/KernelFault.h"
#include "jit/Warnings.h"
#include "module/AheadOfTime.h"
#include "module/ArgumentTypes.h"
#include "module/BackgroundCompiles.h"
#include "module/KernelCompiler.h"
#include "module/KernelDispatcher.h"
#include "module/LaunchArguments.h"
#include "profile/NvtxRanges.h"
#include "settings/SettingsStore.h"

namespace pyk::detail {

namespace {

// compileKernel, and for a module built ahead of time an error that says what was built ahead
// when the JIT cannot compile what was not.
jit::CompiledKernel compileOrExplain(KernelState& k, const SpecializationChoice& choice,
                                     const jit::CpuTarget& target,
                                     const RuntimeSettings& settings) {
  if (k.module->aot == nullptr)
    return compileKernel(k, choice, target, settings);
  try {
    return compileKernel(k, choice, target, settings);
  } catch (const Error& e) {
    throwNotBuiltAhead(*k.module, k.function->qualifiedName,
                       "`" + describeSpecialization(k.function->qualifiedName, choice.params) + "`",
                       std::string("the CPU") +
                           (settings.bounds_check ? " with bounds checks (PYK_BOUNDSCHECK)" : "") +
                           (settings.cpu_mode == CpuMode::Fiber ? " in forced fiber mode" : ""),
                       e);
  }
}

} // namespace

namespace {

// The instance `compiled` makes: its shared object loaded (one that passes the cache's checks but
// does not load, another system's library say, rebuilt once) and its entry points found.
std::shared_ptr<CpuKernelInstance> loadInstance(KernelState& k, const SpecializationChoice& choice,
                                                const jit::CpuTarget& target,
                                                const RuntimeSettings& settings,
                                                jit::CompiledKernel compiled) {
  std::optional<cpu::SharedObject> object;
  try {
    object.emplace(cpu::SharedObject::fromBytes(compiled.binary, compiled.description));
  } catch (const Error&) {
    compiled = compileKernel(k, choice, target, settings, /*rebuild=*/true);
    object.emplace(cpu::SharedObject::fromBytes(compiled.binary, compiled.description));
  }
  const base::CpuUnit& unit = compiled.cpu;
  const std::string& description = compiled.description;
  auto instance = std::make_shared<CpuKernelInstance>(
      CpuKernelInstance{description,
                        std::string(base::nameOf(unit.mode)) +
                            (unit.fiberReason.empty() ? "" : " (" + unit.fiberReason + ")"),
                        std::move(*object),
                        {},
                        static_cast<std::size_t>(unit.staticSharedBytes),
                        {}});
  instance->entry.name = k.function->name.c_str();
  instance->entry.mode =
      unit.blockEntry.empty() ? cpu::ExecutionMode::Fiber : cpu::ExecutionMode::Loop;
  instance->entry.cooperative = unit.cooperative;
  instance->entry.block_entry = unit.blockEntry.empty()
                                    ? nullptr
                                    : reinterpret_cast<void (*)(cpu::Block&, void**)>(
                                          instance->object.symbol(unit.blockEntry));
  instance->entry.thread_entry =
      reinterpret_cast<void (*)(cpu::Thread&, void**)>(instance->object.symbol(unit.threadEntry));
  if (instance->entry.thread_entry == nullptr ||
      (!unit.blockEntry.empty() && instance->entry.block_entry == nullptr))
    throw Error(ErrorKind::Internal, description + ": the compiled kernel lacks its entry points");
  return instance;
}

// The target for the settings that change the code, for `block`'s shape (null: any shape).
jit::CpuTarget cpuTargetFor(const RuntimeSettings& settings, const Dim3* block) {
  jit::CpuTarget target;
  target.options.forceFibers = settings.cpu_mode == CpuMode::Fiber;
  target.options.boundsCheck = settings.bounds_check;
  if (block != nullptr) {
    target.options.blockShape[0] = static_cast<std::uint32_t>(block->x);
    target.options.blockShape[1] = static_cast<std::uint32_t>(block->y);
    target.options.blockShape[2] = static_cast<std::uint32_t>(block->z);
  }
  return target;
}

// A split kernel compiled for one block shape (its trip counts and blockDim constants: 1.2-2.2x
// faster on the benchmarks than the generic version), in the background, from the second launch
// with that shape; launches with that shape run it once it is there, the generic version until
// then. A failure leaves the generic one in use and says so once.
void specializeInBackground(KernelState& k, const SpecializationChoice& choice,
                            std::shared_ptr<const RuntimeSettings> settings, const Dim3& block,
                            std::string key, std::vector<types::NumbaType> params) {
  const jit::CpuTarget target = cpuTargetFor(*settings, &block);
  auto quiet = std::make_shared<RuntimeSettings>(*settings);
  quiet->compile_messages = false; // nobody waits for it
  compileInBackground([module = k.module->shared_from_this(), &k, choice, target, quiet,
                       key = std::move(key), params = std::move(params)] {
    try {
      std::shared_ptr<CpuKernelInstance> instance =
          loadInstance(k, choice, target, *quiet, compileKernel(k, choice, target, *quiet));
      instance->params = params;
      std::lock_guard lock(k.mutex);
      k.instances.emplace(key, std::move(instance));
    } catch (const std::exception& e) {
      jit::warnOnce("shape " + key, "kernel `" + k.function->qualifiedName +
                                        "` was not specialized for its block shape (it runs "
                                        "its generic version): " +
                                        e.what());
    }
  });
}

// The launch with a block shape that asks for a split kernel's instance for it.
constexpr unsigned kLaunchesBeforeSpecializing = 2;

} // namespace

std::shared_ptr<CpuKernelInstance>
cpuInstanceFor(KernelState& k, std::span<const KernelArgument> args, const Dim3* block) {
  const SpecializationChoice choice = chooseSpecialization(k, args);
  const std::shared_ptr<const RuntimeSettings> settings = currentSettings();
  // Bounds checks and forced fibers change the generated code: part of the key.
  const std::string typesKey = describeTypes(choice.params) +
                               (settings->bounds_check ? " boundscheck" : "") +
                               (settings->cpu_mode == CpuMode::Fiber ? " fiber" : "");
  const CpuShapes shapes = settings->cpu_shapes;
  if (shapes == CpuShapes::Off)
    block = nullptr;
  const std::string shapedKey = block == nullptr
                                    ? std::string()
                                    : typesKey + " block " + std::to_string(block->x) + "," +
                                          std::to_string(block->y) + "," + std::to_string(block->z);
  std::shared_ptr<CpuKernelInstance> generic;
  {
    std::lock_guard lock(k.mutex);
    const bool split = k.shapedTypes.count(typesKey) != 0;
    if (split && block != nullptr) {
      if (auto it = k.instances.find(shapedKey); it != k.instances.end())
        return it->second;
      auto it = k.instances.find(typesKey);
      if (shapes == CpuShapes::Background && it != k.instances.end()) {
        // The second launch with a shape asks for its instance: a kernel launched once with a
        // shape (a one-shot program) never waits for a compile it would not use.
        if (++k.shapeLaunches[shapedKey] != kLaunchesBeforeSpecializing)
          return it->second;
        generic = it->second;
      }
    } else if (auto it = k.instances.find(typesKey); it != k.instances.end()) {
      return it->second;
    }
  }
  if (generic) {
    specializeInBackground(k, choice, settings, *block, shapedKey, generic->params);
    return generic;
  }
  // Built ahead of time (for any block shape, without bounds checks or forced fibers)?
  const aot::CpuKernel* ahead =
      settings->bounds_check || settings->cpu_mode == CpuMode::Fiber
          ? nullptr
          : aheadCpuKernel(*k.module, k.function->qualifiedName, choice.params);
  if (ahead != nullptr) {
    auto instance = std::make_shared<CpuKernelInstance>();
    instance->description = describeSpecialization(k.function->qualifiedName, choice.params);
    instance->mode = std::string(ahead->mode) + " (built ahead of time)";
    instance->static_shared_bytes = ahead->static_shared_bytes;
    instance->entry.name = k.function->name.c_str();
    instance->entry.mode =
        ahead->block_entry == nullptr ? cpu::ExecutionMode::Fiber : cpu::ExecutionMode::Loop;
    instance->entry.cooperative = ahead->cooperative;
    instance->entry.block_entry = ahead->block_entry;
    instance->entry.thread_entry = ahead->thread_entry;
    instance->params = entryParameters(k, args, choice.params);
    std::lock_guard lock(k.mutex);
    return k.instances.emplace(typesKey, std::move(instance)).first->second;
  }
  // PYK_CPU_SHAPES=background (the default): the version for any block shape first, so a split
  // kernel's launch never waits for a compile per block shape (its version for a shape follows
  // in the background from the second launch with it); =now: the launch's shape's version.
  const bool forShape = shapes == CpuShapes::Now && block != nullptr;
  const jit::CpuTarget target = cpuTargetFor(*settings, forShape ? block : nullptr);
  std::shared_ptr<CpuKernelInstance> instance =
      loadInstance(k, choice, target, *settings, compileOrExplain(k, choice, target, *settings));
  instance->params = entryParameters(k, args, choice.params);
  const bool split = instance->mode == base::nameOf(base::CpuExecutionMode::Split);
  std::lock_guard lock(k.mutex);
  if (split) {
    k.shapedTypes.insert(typesKey);
    if (shapes == CpuShapes::Background && block != nullptr)
      ++k.shapeLaunches[shapedKey]; // this launch
  }
  // A unit compiled for a shape is that shape's only if it is split (others ignore the shape).
  return k.instances.emplace(split && forShape ? shapedKey : typesKey, std::move(instance))
      .first->second; // (or what another thread compiled meanwhile)
}

namespace {

// Which array argument a faulting address lies just outside of (its guard pages: a page either
// side, and the unused start of the first page), as "; the address is 4 bytes past the end of
// argument 2 (float32, 4000 bytes)".
std::string faultPlace(const void* address, std::span<const KernelArgument> args) {
  constexpr std::intptr_t kNear = 2 * 4096; // the guard page and the unused part of the first
  const auto at = reinterpret_cast<std::intptr_t>(address);
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind != KernelArgument::Kind::Array || args[i].array == nullptr)
      continue;
    const AnyDeviceArray& a = *args[i].array;
    const auto begin = reinterpret_cast<std::intptr_t>(a.device_data());
    const std::intptr_t end = begin + a.nbytes();
    const std::string which = "argument " + std::to_string(i) + " (" +
                              std::string(dtype_name(a.dtype())) + ", " +
                              std::to_string(a.nbytes()) + " bytes)";
    if (at == end)
      return "; the address is just past the end of " + which;
    if (at > end && at < end + kNear)
      return "; the address is " + std::to_string(at - end) + " bytes past the end of " + which;
    if (at < begin && at >= begin - kNear)
      return "; the address is " + std::to_string(begin - at) + " bytes before the start of " +
             which;
  }
  return "";
}

} // namespace

void launchOnCpu(KernelState& k, const LaunchShape& shape, std::size_t shared_bytes,
                 std::span<const KernelArgument> args) {
  std::shared_ptr<CpuKernelInstance> instance = cpuInstanceFor(k, args, &shape.block);
  const NvtxRange range(NvtxRangeKind::Launch, [&] { return instance->description; });
  LaunchArguments arguments(args.size());
  for (size_t i = 0; i < args.size(); ++i)
    arguments.set(i, args[i], instance->params[i]);
  const cpu::Dim3 grid{static_cast<std::uint32_t>(shape.grid.x),
                       static_cast<std::uint32_t>(shape.grid.y),
                       static_cast<std::uint32_t>(shape.grid.z)};
  const cpu::Dim3 block{static_cast<std::uint32_t>(shape.block.x),
                        static_cast<std::uint32_t>(shape.block.y),
                        static_cast<std::uint32_t>(shape.block.z)};
  try {
    cpu::runKernel(instance->entry, grid, block, instance->static_shared_bytes, shared_bytes,
                   arguments.pointers());
  } catch (const cpu::KernelFaultError& e) {
    throw Error(ErrorKind::Kernel, e.what() + faultPlace(e.fault().address, args));
  }
}

} // namespace pyk::detail
