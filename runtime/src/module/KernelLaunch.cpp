// KernelLaunch: a launch's arguments typed as numba types them, the specialization found or
// compiled, the arguments laid out as the generated entry points read them, and the launch. On the
// CPU backend: CpuEmitter, the host compiler through the disk cache, dlopen, the CPU engine. On
// CUDA: CudaEmitter, NVRTC through the disk cache, cuModuleLoadData, cuLaunchKernel; a launch of
// a specialization already loaded finds it by its packed argument signature and lays the
// arguments out on the stack, allocating nothing.
#include <complex>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>

#include "codegen/CpuEmitter.h"
#include "codegen/CudaEmitter.h"
#include "cpu/CpuEngine.h"
#include "cpu/HostCompiler.h"
#include "cuda/CudaCompiler.h"
#include "diag/DiagnosticEngine.h"
#include "module/LaunchValidation.h"
#include "module/ModuleState.h"
#include "module/ScalarConversion.h"
#include "pyk/device.hpp"
#include "sema/TypeInference.h"

namespace pyk {

using detail::convertScalar;
using detail::scalarKindOf;
using sema::ArrayLayout;
using sema::NumbaType;
using sema::ScalarKind;

namespace {

// numba's typeof: C when C-contiguous (1-D arrays included), F when only F-contiguous, else A.
ArrayLayout layoutOf(const AnyDeviceArray& a) {
  auto contiguous = [&](bool c) {
    std::int64_t expected = static_cast<std::int64_t>(a.itemsize());
    for (int i = 0; i < a.ndim(); ++i) {
      const int d = c ? a.ndim() - 1 - i : i;
      if (a.shape()[d] != 1 && a.strides()[d] != expected)
        return false;
      expected *= a.shape()[d];
    }
    return true;
  };
  if (contiguous(true))
    return ArrayLayout::C;
  if (contiguous(false))
    return ArrayLayout::F;
  return ArrayLayout::A;
}

// numba's Record type of a structured dtype.
NumbaType recordTypeOf(const RecordDtype& record) {
  sema::RecordLayout layout;
  for (const RecordField& f : record.fields())
    layout.fields.push_back({f.name, scalarKindOf(f.dtype), f.offset});
  layout.size = record.itemsize();
  layout.aligned = record.aligned();
  return NumbaType::record(std::move(layout));
}

// numba's typeof: arrays as array(dtype, ndim, layout), an array of records as
// array(Record(...), ndim, layout); scalars by their C++ type.
NumbaType typeOf(const KernelArgument& a) {
  if (a.kind == KernelArgument::Kind::Array && a.array->record() != nullptr)
    return NumbaType::recordArray(recordTypeOf(*a.array->record()), a.array->ndim(),
                                  layoutOf(*a.array));
  if (a.kind == KernelArgument::Kind::Array)
    return NumbaType::array(scalarKindOf(a.dtype), a.array->ndim(), layoutOf(*a.array));
  return NumbaType::scalar(scalarKindOf(a.dtype));
}

std::string describeTypes(const std::vector<NumbaType>& types) {
  std::string out = "(";
  for (size_t i = 0; i < types.size(); ++i)
    out += (i ? ", " : "") + types[i].str();
  return out + ")";
}

// Whether an argument of type `arg` may be passed for a parameter of type `param` (numba converts
// scalars; arrays need their dtype and rank, and a layout the parameter accepts).
bool accepts(const NumbaType& param, const NumbaType& arg) {
  if (param.isScalar() && arg.isScalar())
    return true;
  if (param.isArray() && arg.isArray()) {
    const bool sameItem = param.isRecordArray() || arg.isRecordArray()
                              ? param.isRecordArray() && arg.isRecordArray() &&
                                    param.recordLayout() == arg.recordLayout()
                              : param.scalarKind() == arg.scalarKind();
    return sameItem && param.ndim() == arg.ndim() &&
           (param.layout() == ArrayLayout::A || param.layout() == arg.layout());
  }
  return false;
}

bool environmentFlag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::string(v) != "0";
}

std::string describeSignatures(const sema::CompiledFunction& f) {
  std::string known;
  for (const sema::FunctionSignature& s : f.signatures)
    known += "\n  " + s.spelling();
  return known;
}

// A gufunc kernel takes each operand with the loop dimension first: for an array parameter of
// rank r an array of rank r + 1, for a scalar parameter a 1-D array (one value per loop index). It
// is typed by the first signature whose dtypes and ranks the arrays have.
std::vector<NumbaType> gufuncSpecializationParams(const detail::KernelState& k,
                                                  const std::vector<NumbaType>& argTypes,
                                                  std::optional<NumbaType>& returnType) {
  const sema::CompiledFunction& f = *k.function;
  const std::string where = k.module->file.path() + ": ";
  if (argTypes.size() != f.scope.params.size())
    throw Error(ErrorKind::InvalidArgument, where + "the gufunc kernel of `" + f.name + "` takes " +
                                                std::to_string(f.scope.params.size()) +
                                                " arrays; " + std::to_string(argTypes.size()) +
                                                " arguments given");
  for (size_t i = 0; i < argTypes.size(); ++i)
    if (!argTypes[i].isArray())
      throw Error(ErrorKind::InvalidArgument,
                  where + "argument " + std::to_string(i) + " of the gufunc kernel of `" + f.name +
                      "` must be an array (the loop dimension, then the core dimensions), not " +
                      argTypes[i].str());
  for (const sema::FunctionSignature& s : f.signatures) {
    bool ok = s.params.size() == argTypes.size();
    for (size_t i = 0; i < argTypes.size() && ok; ++i) {
      const NumbaType& p = s.params[i];
      ok = p.scalarKind() == argTypes[i].scalarKind() &&
           argTypes[i].ndim() == (p.isArray() ? p.ndim() + 1 : 1);
    }
    if (ok) {
      returnType = s.returnType;
      return s.params;
    }
  }
  throw Error(ErrorKind::InvalidArgument,
              where + "no signature of the gufunc `" + f.name + "` fits the kernel arguments " +
                  describeTypes(argTypes) +
                  " (each with a loop dimension first); it has:" + describeSignatures(f));
}

// The parameter types of the specialization a launch with `args` runs.
std::vector<NumbaType> specializationParams(const detail::KernelState& k,
                                            std::span<const KernelArgument> args,
                                            std::optional<NumbaType>& returnType) {
  const sema::CompiledFunction& f = *k.function;
  const std::string where = k.module->file.path() + ": ";
  std::vector<NumbaType> argTypes;
  for (const KernelArgument& a : args)
    argTypes.push_back(typeOf(a));
  const bool ufunc = f.kind == sema::CompiledFunctionKind::Vectorize;
  if (f.kind == sema::CompiledFunctionKind::GuVectorize)
    return gufuncSpecializationParams(k, argTypes, returnType);
  // A ufunc kernel takes its inputs and its output, 1-D arrays; it is typed for their dtypes.
  std::vector<NumbaType> wanted;
  if (ufunc) {
    if (args.size() != f.scope.params.size() + 1)
      throw Error(ErrorKind::InvalidArgument, where + "the ufunc `" + f.name + "` takes " +
                                                  std::to_string(f.scope.params.size()) +
                                                  " input arrays and an output array; " +
                                                  std::to_string(args.size()) + " arguments given");
    for (size_t i = 0; i < args.size(); ++i)
      if (!argTypes[i].isArray() || argTypes[i].ndim() != 1)
        throw Error(ErrorKind::InvalidArgument,
                    where + "argument " + std::to_string(i) + " of the ufunc `" + f.name +
                        "` must be a 1-D array, not " + argTypes[i].str());
    for (size_t i = 0; i + 1 < args.size(); ++i)
      wanted.push_back(NumbaType::scalar(argTypes[i].scalarKind()));
  } else {
    if (args.size() != f.scope.params.size()) {
      std::string names;
      for (const std::string& p : f.scope.params)
        names += (names.empty() ? "" : ", ") + p;
      throw Error(ErrorKind::InvalidArgument, where + "the kernel `" + f.name + "` takes " +
                                                  std::to_string(f.scope.params.size()) +
                                                  " arguments (" + names + "); " +
                                                  std::to_string(args.size()) + " given");
    }
    wanted = argTypes;
  }
  if (f.signatures.empty())
    return wanted;
  for (const sema::FunctionSignature& s : f.signatures) {
    if (s.params.size() != wanted.size())
      continue;
    bool ok = true;
    for (size_t i = 0; i < wanted.size() && ok; ++i)
      ok = ufunc ? s.params[i] == wanted[i] : accepts(s.params[i], wanted[i]);
    if (ok && ufunc && s.returnType &&
        !(s.returnType->isScalar() && s.returnType->scalarKind() == argTypes.back().scalarKind()))
      ok = false;
    if (ok) {
      returnType = s.returnType;
      return s.params;
    }
  }
  throw Error(ErrorKind::InvalidArgument, where + "no signature of `" + f.name +
                                              "` accepts the arguments " + describeTypes(argTypes) +
                                              "; it has:" + describeSignatures(f));
}

// Types `k` for `params` and hands the specialization (with the set of those it calls, and the
// diagnostics) to `emit`, under the module's compile lock and on a large stack; returns its
// description. Errors of either step are thrown as one located pyk::Error (Compile).
template <typename Emit>
std::string specializeAndEmit(detail::KernelState& k, const std::vector<NumbaType>& params,
                              const std::optional<NumbaType>& returnType, Emit&& emit) {
  detail::ModuleState& m = *k.module;
  std::lock_guard lock(m.compileMutex);
  DiagnosticEngine diags(&m.file);
  sema::SpecializationSet set;
  std::string description;
  runWithLargeStack([&] {
    const sema::Specialization* spec =
        sema::specialize(m.resolved, *k.function, params, set, diags, returnType);
    if (spec == nullptr || diags.hasErrors())
      return;
    description = spec->describe();
    emit(*spec, set, diags);
  });
  if (diags.hasErrors()) {
    std::ostringstream out;
    diags.render(out, false);
    throw Error(ErrorKind::Compile, out.str());
  }
  return description;
}

// What a compiled instance's entry point reads: the kernel's parameters, or, for a (g)ufunc's
// kernel, its arrays (numba's `A` layout, one per argument).
std::vector<NumbaType> entryParameters(const detail::KernelState& k,
                                       std::span<const KernelArgument> args,
                                       const std::vector<NumbaType>& params) {
  if (k.function->kind != sema::CompiledFunctionKind::Vectorize &&
      k.function->kind != sema::CompiledFunctionKind::GuVectorize)
    return params;
  std::vector<NumbaType> arrays;
  for (const KernelArgument& a : args)
    arrays.push_back(NumbaType::array(scalarKindOf(a.dtype), a.array->ndim(), ArrayLayout::A));
  return arrays;
}

// `block`: the launch's block shape. A split-mode kernel is compiled once per block shape (its
// trip counts become constants); other kernels once for all. Without a shape (asking only for the
// mode), a split kernel is compiled for any shape.
std::shared_ptr<detail::CpuKernelInstance>
instanceFor(detail::KernelState& k, std::span<const KernelArgument> args, const Dim3* block) {
  std::optional<NumbaType> returnType;
  std::vector<NumbaType> params = specializationParams(k, args, returnType);
  // PYK_BOUNDSCHECK and PYK_CPU_MODE change the generated code: part of the key.
  const std::string typesKey =
      describeTypes(params) + (environmentFlag("PYK_BOUNDSCHECK") ? " boundscheck" : "") +
      (std::getenv("PYK_CPU_MODE") ? std::string(" ") + std::getenv("PYK_CPU_MODE") : "");
  const std::string shapeKey = block == nullptr
                                   ? " any block"
                                   : " block " + std::to_string(block->x) + "," +
                                         std::to_string(block->y) + "," + std::to_string(block->z);
  std::string key = typesKey;
  {
    std::lock_guard lock(k.mutex);
    if (k.shapedTypes.count(typesKey))
      key += shapeKey;
    if (auto it = k.instances.find(key); it != k.instances.end())
      return it->second;
  }
  codegen::CpuEmitOptions options;
  options.forceFibers =
      std::getenv("PYK_CPU_MODE") != nullptr && std::string(std::getenv("PYK_CPU_MODE")) == "fiber";
  options.boundsCheck = environmentFlag("PYK_BOUNDSCHECK");
  if (block != nullptr) {
    options.blockShape[0] = static_cast<std::uint32_t>(block->x);
    options.blockShape[1] = static_cast<std::uint32_t>(block->y);
    options.blockShape[2] = static_cast<std::uint32_t>(block->z);
  }
  codegen::CpuUnit unit;
  const std::string description =
      specializeAndEmit(k, params, returnType, [&](const auto& spec, const auto&, auto& diags) {
        unit = codegen::emitCpu(k.module->resolved, k.module->file, spec, diags, options);
      });
  // A cached object that passes the cache's checks but does not load (another system's library,
  // say) is rebuilt once, not reported.
  std::optional<cpu::SharedObject> object;
  const std::string bytes = cpu::HostCompiler::shared().build(unit.source, description);
  try {
    object.emplace(cpu::SharedObject::fromBytes(bytes, description));
  } catch (const Error&) {
    object.emplace(cpu::SharedObject::fromBytes(
        cpu::HostCompiler::shared().build(unit.source, description, true), description));
  }
  auto instance = std::make_shared<detail::CpuKernelInstance>(
      detail::CpuKernelInstance{description,
                                std::string(codegen::nameOf(unit.mode)) +
                                    (unit.fiberReason.empty() ? "" : " (" + unit.fiberReason + ")"),
                                std::move(*object),
                                {},
                                static_cast<std::size_t>(unit.staticSharedBytes),
                                {}});
  instance->entry.name = k.function->name.c_str();
  instance->entry.mode =
      unit.blockEntry.empty() ? cpu::ExecutionMode::Fiber : cpu::ExecutionMode::Loop;
  instance->entry.cooperative = unit.cooperative;
  instance->entry.blockEntry = unit.blockEntry.empty()
                                   ? nullptr
                                   : reinterpret_cast<void (*)(cpu::Block&, void**)>(
                                         instance->object.symbol(unit.blockEntry));
  instance->entry.threadEntry =
      reinterpret_cast<void (*)(cpu::Thread&, void**)>(instance->object.symbol(unit.threadEntry));
  if (instance->entry.threadEntry == nullptr ||
      (!unit.blockEntry.empty() && instance->entry.blockEntry == nullptr))
    throw Error(ErrorKind::Internal, description + ": the compiled kernel lacks its entry points");
  instance->params = entryParameters(k, args, params);
  std::lock_guard lock(k.mutex);
  if (unit.mode == codegen::CpuExecutionMode::Split) {
    k.shapedTypes.insert(typesKey);
    key = typesKey + shapeKey;
  }
  auto [it, inserted] = k.instances.emplace(key, instance);
  return it->second;
}

// ---- CUDA ------------------------------------------------------------------------------------

// The packed argument types of a launch; false when it has too many arguments to pack, or an
// array of records (whose layout the code cannot hold).
bool signatureOf(std::span<const KernelArgument> args, detail::ArgumentSignature& out) {
  if (args.size() > static_cast<size_t>(detail::ArgumentSignature::kMaxArguments))
    return false;
  for (const KernelArgument& a : args)
    if (a.kind == KernelArgument::Kind::Array && a.array->record() != nullptr)
      return false;
  out.count = static_cast<int>(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArgument& a = args[i];
    std::uint16_t code = static_cast<std::uint16_t>(static_cast<unsigned>(a.dtype) << 1);
    if (a.kind == KernelArgument::Kind::Array)
      code |= static_cast<std::uint16_t>(1u | static_cast<unsigned>(a.array->ndim()) << 6 |
                                         static_cast<unsigned>(layoutOf(*a.array)) << 10);
    out.codes[i] = code;
  }
  return true;
}

} // namespace

namespace detail {
CudaKernelInstance::~CudaKernelInstance() {
  if (module == nullptr)
    return;
  cuda::releaseInContext(device->context, [&](const cuda::CudaDriver& driver) {
    (void)driver.cuModuleUnload(module);
  });
}
} // namespace detail

namespace {

// The specialization for `args` compiled and loaded on `device`: found by signature, else by
// its full key, else built (front end, CudaEmitter, NVRTC through the disk cache, module load).
detail::CudaKernelInstance& cudaInstanceFor(detail::KernelState& k,
                                            std::span<const KernelArgument> args,
                                            const cuda::DeviceContext& device) {
  detail::ArgumentSignature signature;
  const bool packed = signatureOf(args, signature);
  if (packed) {
    std::lock_guard lock(k.mutex);
    for (const detail::KernelState::RecentCuda& r : k.recentCuda)
      if (r.device == &device && r.signature == signature)
        return *r.instance;
  }
  std::optional<NumbaType> returnType;
  const std::vector<NumbaType> params = specializationParams(k, args, returnType);
  const std::string key = "device " + std::to_string(device.id) + " " + describeTypes(params);
  auto remember = [&](detail::CudaKernelInstance* instance) {
    if (packed)
      k.recentCuda.push_back({signature, &device, instance});
    return instance;
  };
  {
    std::lock_guard lock(k.mutex);
    if (auto it = k.cudaInstances.find(key); it != k.cudaInstances.end())
      return *remember(it->second.get());
  }
  codegen::EmittedUnit unit;
  const std::string description =
      specializeAndEmit(k, params, returnType, [&](const auto& spec, const auto& set, auto& diags) {
        unit = codegen::emitCuda(k.module->resolved, k.module->file, set, spec, diags);
      });
  auto instance = std::make_shared<detail::CudaKernelInstance>();
  instance->description = description;
  instance->source = unit.source;
  instance->device = &device;
  instance->cooperative = unit.cooperative;
  const cuda::LoadedModule loaded =
      cuda::compileAndLoad(device, unit.source, unit.entryPoint, description,
                           k.function->options.fastmath.value_or(false));
  instance->module = loaded.module;
  instance->function = loaded.function;
  instance->target = loaded.target;
  const cuda::CudaDriver& driver = *cuda::CudaDriver::shared();
  driver.check(driver.cuFuncGetAttribute(&instance->maxThreadsPerBlock,
                                         cuda::kFunctionMaxThreadsPerBlock, loaded.function),
               "cuFuncGetAttribute", "kernel " + description);
  driver.check(driver.cuFuncGetAttribute(&instance->staticSharedBytes,
                                         cuda::kFunctionSharedSizeBytes, loaded.function),
               "cuFuncGetAttribute", "kernel " + description);
  instance->dynamicSharedAllowed =
      std::max(0, device.maxSharedBytesPerBlock - instance->staticSharedBytes);
  instance->params = entryParameters(k, args, params);
  std::lock_guard lock(k.mutex);
  auto [it, inserted] = k.cudaInstances.emplace(key, std::move(instance));
  return *remember(it->second.get());
}

// One argument's bytes as the entry point reads it: pyk::Array (data pointer, shape, strides in
// bytes, all 64-bit) or the scalar converted to the parameter's type.
constexpr size_t kSlotBytes = 8 + 16 * 8;
struct alignas(16) ArgumentSlot {
  unsigned char bytes[kSlotBytes];
};

void launchOnCuda(detail::KernelState& k, const cuda::DeviceContext& device,
                  const LaunchShape& shape, std::size_t sharedBytes,
                  std::span<const KernelArgument> args, const Stream& stream) {
  detail::CudaKernelInstance& instance = cudaInstanceFor(k, args, device);
  const std::int64_t threads = shape.block.x * shape.block.y * shape.block.z;
  if (threads > instance.maxThreadsPerBlock)
    throw Error(ErrorKind::InvalidLaunch,
                "kernel " + instance.description + ": a block of " + std::to_string(threads) +
                    " threads is more than this kernel can run on device " +
                    std::to_string(device.id) + " (" + std::to_string(instance.maxThreadsPerBlock) +
                    ", limited by its registers)");
  const cuda::CudaDriver& driver = *cuda::CudaDriver::shared();
  if (static_cast<std::int64_t>(sharedBytes) > instance.dynamicSharedAllowed.load()) {
    const std::int64_t limit = device.maxSharedBytesPerBlockOptin - instance.staticSharedBytes;
    if (static_cast<std::int64_t>(sharedBytes) > limit)
      throw Error(ErrorKind::InvalidLaunch,
                  "kernel " + instance.description + ": " + std::to_string(sharedBytes) +
                      " bytes of dynamic shared memory, with its " +
                      std::to_string(instance.staticSharedBytes) + " static bytes, exceed device " +
                      std::to_string(device.id) + "'s " +
                      std::to_string(device.maxSharedBytesPerBlockOptin) + " bytes per block");
    driver.check(driver.cuFuncSetAttribute(instance.function,
                                           cuda::kFunctionMaxDynamicSharedSizeBytes,
                                           static_cast<int>(sharedBytes)),
                 "cuFuncSetAttribute", "kernel " + instance.description);
    instance.dynamicSharedAllowed = static_cast<int>(sharedBytes);
  }
  // The arguments, on the stack (a launch of more than 32 arguments uses the heap).
  ArgumentSlot inlineSlots[detail::ArgumentSignature::kMaxArguments];
  void* inlinePointers[detail::ArgumentSignature::kMaxArguments];
  std::vector<ArgumentSlot> heapSlots;
  std::vector<void*> heapPointers;
  ArgumentSlot* slots = inlineSlots;
  void** pointers = inlinePointers;
  if (args.size() > static_cast<size_t>(detail::ArgumentSignature::kMaxArguments)) {
    heapSlots.resize(args.size());
    heapPointers.resize(args.size());
    slots = heapSlots.data();
    pointers = heapPointers.data();
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const NumbaType& p = instance.params[i];
    unsigned char* out = slots[i].bytes;
    if (p.isArray()) {
      const AnyDeviceArray& a = *args[i].array;
      if (a.device_id() != device.id && a.memory_kind() != MemoryKind::Managed)
        throw Error(ErrorKind::InvalidArgument,
                    "kernel " + instance.description + ": argument " + std::to_string(i) +
                        " is in the memory of device " + std::to_string(a.device_id()) +
                        ", but the launch runs on device " + std::to_string(device.id) +
                        " (select_device picks the device a thread launches on)");
      void* data = a.device_data();
      std::memcpy(out, &data, sizeof data);
      const int n = a.ndim();
      std::memcpy(out + 8, a.shape().data(), 8 * static_cast<size_t>(n));
      std::memcpy(out + 8 + 8 * n, a.strides().data(), 8 * static_cast<size_t>(n));
    } else {
      convertScalar(args[i], p.scalarKind(), out);
    }
    pointers[i] = out;
  }
  const auto gx = static_cast<unsigned>(shape.grid.x), gy = static_cast<unsigned>(shape.grid.y),
             gz = static_cast<unsigned>(shape.grid.z);
  const auto bx = static_cast<unsigned>(shape.block.x), by = static_cast<unsigned>(shape.block.y),
             bz = static_cast<unsigned>(shape.block.z);
  const auto cuStream = static_cast<cuda::CUstream>(stream.handle());
  cuda::CudaDriver::noteLaunch(&instance.description);
  if (!instance.cooperative) {
    const cuda::CUresult r =
        driver.cuLaunchKernel(instance.function, gx, gy, gz, bx, by, bz,
                              static_cast<unsigned>(sharedBytes), cuStream, pointers, nullptr);
    if (r != cuda::kCudaSuccess)
      driver.check(r, "cuLaunchKernel", "kernel " + instance.description);
    return;
  }
  // grid.sync() needs every block resident at once.
  int perMultiprocessor = 0;
  driver.check(driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                   &perMultiprocessor, instance.function, static_cast<int>(threads), sharedBytes),
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
                                       static_cast<unsigned>(sharedBytes), cuStream, pointers);
  if (r != cuda::kCudaSuccess)
    driver.check(r, "cuLaunchCooperativeKernel", "kernel " + instance.description);
}

} // namespace

const std::string& Kernel::name() const {
  return state_->function->name;
}

std::string Kernel::executionMode(std::span<const KernelArgument> args) const {
  return instanceFor(*state_, args, nullptr)->mode;
}

namespace {

void launchOnCpu(detail::KernelState& k, const LaunchShape& shape, std::size_t sharedBytes,
                 std::span<const KernelArgument> args) {
  std::shared_ptr<detail::CpuKernelInstance> instance = instanceFor(k, args, &shape.block);
  // Each argument as the generated code's C++ type: an array as pyk::Array (data pointer, shape,
  // strides in bytes, all 64-bit), a scalar as itself.
  struct alignas(16) Slot {
    unsigned char bytes[8 + 16 * 8];
  };
  std::vector<Slot> slots(args.size());
  std::vector<void*> pointers(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const NumbaType& p = instance->params[i];
    unsigned char* out = slots[i].bytes;
    if (p.isArray()) {
      const AnyDeviceArray& a = *args[i].array;
      void* data = a.device_data();
      std::memcpy(out, &data, sizeof data);
      for (int d = 0; d < a.ndim(); ++d) {
        std::memcpy(out + 8 + 8 * d, &a.shape()[d], 8);
        std::memcpy(out + 8 + 8 * (a.ndim() + d), &a.strides()[d], 8);
      }
    } else {
      convertScalar(args[i], p.scalarKind(), out);
    }
    pointers[i] = out;
  }
  const cpu::Dim3 grid{static_cast<std::uint32_t>(shape.grid.x),
                       static_cast<std::uint32_t>(shape.grid.y),
                       static_cast<std::uint32_t>(shape.grid.z)};
  const cpu::Dim3 block{static_cast<std::uint32_t>(shape.block.x),
                        static_cast<std::uint32_t>(shape.block.y),
                        static_cast<std::uint32_t>(shape.block.z)};
  cpu::runKernel(instance->entry, grid, block, instance->staticSharedBytes, sharedBytes,
                 pointers.data());
}

// The backend a launch runs on: its arrays' (all on one), else the current one.
Backend launchBackend(const std::string& kernel, std::span<const KernelArgument> args) {
  const AnyDeviceArray* first = nullptr;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind != KernelArgument::Kind::Array)
      continue;
    if (args[i].array->empty())
      throw Error(ErrorKind::InvalidArgument, "kernel `" + kernel + "`: argument " +
                                                  std::to_string(i) +
                                                  " is an empty (default-constructed) array");
    if (first == nullptr)
      first = args[i].array;
    else if (args[i].array->backend() != first->backend())
      throw Error(ErrorKind::InvalidArgument,
                  "kernel `" + kernel + "`: argument " + std::to_string(i) +
                      " is an array on the " + backendName(args[i].array->backend()) +
                      " backend, but an earlier one is on the " + backendName(first->backend()) +
                      " backend; a launch runs where all its arrays are");
  }
  return first != nullptr ? first->backend() : currentBackend();
}

} // namespace

void Kernel::launchWith(const LaunchShape& shape, std::size_t sharedBytes,
                        std::span<const KernelArgument> args, const Stream& stream) const {
  if (launchBackend(name(), args) == Backend::Cuda) {
    const cuda::DeviceContext& device = cuda::currentDevice();
    detail::validateLaunch(name(), shape, sharedBytes,
                           static_cast<std::size_t>(device.maxSharedBytesPerBlockOptin));
    launchOnCuda(*state_, device, shape, sharedBytes, args, stream);
  } else {
    detail::validateLaunch(name(), shape, sharedBytes);
    launchOnCpu(*state_, shape, sharedBytes, args);
  }
}

std::string Kernel::cudaSource(std::span<const KernelArgument> args) const {
  return cudaInstanceFor(*state_, args, cuda::currentDevice()).source;
}

std::string Kernel::cudaTarget(std::span<const KernelArgument> args) const {
  return cudaInstanceFor(*state_, args, cuda::currentDevice()).target;
}

void* Kernel::cudaFunction(std::span<const KernelArgument> args) const {
  return cudaInstanceFor(*state_, args, cuda::currentDevice()).function;
}

} // namespace pyk
