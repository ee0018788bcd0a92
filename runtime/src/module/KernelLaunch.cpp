// KernelLaunch: a launch's arguments typed as numba types them, the specialization found or
// compiled (front end, CpuEmitter, host compiler through the disk cache, dlopen), the arguments
// laid out as the generated entry points read them, and the blocks run on the CPU engine.
#include <complex>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>

#include "codegen/CpuEmitter.h"
#include "cpu/CpuEngine.h"
#include "cpu/HostCompiler.h"
#include "diag/DiagnosticEngine.h"
#include "module/LaunchValidation.h"
#include "module/ModuleState.h"
#include "pyk/device.hpp"
#include "sema/TypeInference.h"

namespace pyk {

using sema::ArrayLayout;
using sema::NumbaType;
using sema::ScalarKind;

namespace {

ScalarKind scalarKindOf(Dtype d) {
  switch (d) {
  case Dtype::Bool:
    return ScalarKind::Boolean;
  case Dtype::Int8:
    return ScalarKind::Int8;
  case Dtype::Int16:
    return ScalarKind::Int16;
  case Dtype::Int32:
    return ScalarKind::Int32;
  case Dtype::Int64:
    return ScalarKind::Int64;
  case Dtype::UInt8:
    return ScalarKind::UInt8;
  case Dtype::UInt16:
    return ScalarKind::UInt16;
  case Dtype::UInt32:
    return ScalarKind::UInt32;
  case Dtype::UInt64:
    return ScalarKind::UInt64;
  case Dtype::Float16:
    return ScalarKind::Float16;
  case Dtype::Float32:
    return ScalarKind::Float32;
  case Dtype::Float64:
    return ScalarKind::Float64;
  case Dtype::Complex64:
    return ScalarKind::Complex64;
  case Dtype::Complex128:
    return ScalarKind::Complex128;
  }
  return ScalarKind::Int64;
}

// numba's typeof: C when C-contiguous (1-D arrays included), F when only F-contiguous, else A.
ArrayLayout layoutOf(const AnyDeviceArray& a) {
  auto contiguous = [&](bool c) {
    std::int64_t expected = static_cast<std::int64_t>(dtypeItemsize(a.dtype()));
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

NumbaType typeOf(const KernelArgument& a) {
  if (a.kind == KernelArgument::Kind::Array)
    return NumbaType::array(scalarKindOf(a.dtype), a.array.ndim(), layoutOf(a.array));
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
  if (param.isArray() && arg.isArray())
    return param.scalarKind() == arg.scalarKind() && param.ndim() == arg.ndim() &&
           (param.layout() == ArrayLayout::A || param.layout() == arg.layout());
  return false;
}

// The argument's scalar value as the parameter's type, written to `out`.
void convertScalar(const KernelArgument& a, ScalarKind to, unsigned char* out) {
  long double real = 0, imag = 0;
  std::int64_t signedValue = 0;
  std::uint64_t unsignedValue = 0;
  bool isUnsigned = false;
  auto read = [&](auto v) {
    std::memcpy(&v, a.value, sizeof v);
    using V = decltype(v);
    if constexpr (std::is_same_v<V, std::complex<float>> ||
                  std::is_same_v<V, std::complex<double>>) {
      real = v.real();
      imag = v.imag();
      signedValue = static_cast<std::int64_t>(v.real());
    } else if constexpr (std::is_floating_point_v<V>) {
      real = v;
      signedValue = static_cast<std::int64_t>(v);
    } else if constexpr (std::is_unsigned_v<V>) {
      unsignedValue = v;
      isUnsigned = true;
      real = static_cast<long double>(v);
    } else {
      signedValue = v;
      real = static_cast<long double>(v);
    }
  };
  switch (a.dtype) {
  case Dtype::Bool:
    read(bool{});
    break;
  case Dtype::Int8:
    read(std::int8_t{});
    break;
  case Dtype::Int16:
    read(std::int16_t{});
    break;
  case Dtype::Int32:
    read(std::int32_t{});
    break;
  case Dtype::Int64:
    read(std::int64_t{});
    break;
  case Dtype::UInt8:
    read(std::uint8_t{});
    break;
  case Dtype::UInt16:
    read(std::uint16_t{});
    break;
  case Dtype::UInt32:
    read(std::uint32_t{});
    break;
  case Dtype::UInt64:
    read(std::uint64_t{});
    break;
  case Dtype::Float32:
    read(float{});
    break;
  case Dtype::Float64:
    read(double{});
    break;
  case Dtype::Complex64:
    read(std::complex<float>{});
    break;
  case Dtype::Complex128:
    read(std::complex<double>{});
    break;
  case Dtype::Float16:
    throw Error(ErrorKind::InvalidArgument, "float16 scalar arguments are not supported yet");
  }
  const std::uint64_t bits = isUnsigned ? unsignedValue : static_cast<std::uint64_t>(signedValue);
  auto write = [&](auto v) { std::memcpy(out, &v, sizeof v); };
  const bool fromFloat = a.dtype == Dtype::Float32 || a.dtype == Dtype::Float64 ||
                         a.dtype == Dtype::Complex64 || a.dtype == Dtype::Complex128;
  switch (to) {
  case ScalarKind::Boolean:
    write(static_cast<bool>(real != 0 || imag != 0));
    break;
  case ScalarKind::Int8:
    write(static_cast<std::int8_t>(bits));
    break;
  case ScalarKind::Int16:
    write(static_cast<std::int16_t>(bits));
    break;
  case ScalarKind::Int32:
    write(static_cast<std::int32_t>(bits));
    break;
  case ScalarKind::Int64:
    write(static_cast<std::int64_t>(bits));
    break;
  case ScalarKind::UInt8:
    write(static_cast<std::uint8_t>(bits));
    break;
  case ScalarKind::UInt16:
    write(static_cast<std::uint16_t>(bits));
    break;
  case ScalarKind::UInt32:
    write(static_cast<std::uint32_t>(bits));
    break;
  case ScalarKind::UInt64:
    write(fromFloat ? static_cast<std::uint64_t>(real) : bits);
    break;
  case ScalarKind::Float32:
    write(static_cast<float>(real));
    break;
  case ScalarKind::Float64:
    write(static_cast<double>(real));
    break;
  case ScalarKind::Complex64: {
    const float parts[2] = {static_cast<float>(real), static_cast<float>(imag)};
    std::memcpy(out, parts, sizeof parts);
    break;
  }
  case ScalarKind::Complex128: {
    const double parts[2] = {static_cast<double>(real), static_cast<double>(imag)};
    std::memcpy(out, parts, sizeof parts);
    break;
  }
  default:
    throw Error(ErrorKind::InvalidArgument, "a scalar argument of this type is not supported");
  }
}

bool environmentFlag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::string(v) != "0";
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
    throw Error(ErrorKind::InvalidArgument, where + "launching the @guvectorize function `" +
                                                f.name + "` is not supported by the runtime yet");
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
  std::string known;
  for (const sema::FunctionSignature& s : f.signatures)
    known += "\n  " + s.spelling();
  throw Error(ErrorKind::InvalidArgument, where + "no signature of `" + f.name +
                                              "` accepts the arguments " + describeTypes(argTypes) +
                                              "; it has:" + known);
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
  detail::ModuleState& m = *k.module;
  codegen::CpuUnit unit;
  std::string description;
  {
    std::lock_guard lock(m.compileMutex);
    DiagnosticEngine diags(&m.file);
    sema::SpecializationSet set;
    codegen::CpuEmitOptions options;
    options.forceFibers = std::getenv("PYK_CPU_MODE") != nullptr &&
                          std::string(std::getenv("PYK_CPU_MODE")) == "fiber";
    options.boundsCheck = environmentFlag("PYK_BOUNDSCHECK");
    if (block != nullptr) {
      options.blockShape[0] = static_cast<std::uint32_t>(block->x);
      options.blockShape[1] = static_cast<std::uint32_t>(block->y);
      options.blockShape[2] = static_cast<std::uint32_t>(block->z);
    }
    runWithLargeStack([&] {
      const sema::Specialization* spec =
          sema::specialize(m.resolved, *k.function, params, set, diags, returnType);
      if (spec == nullptr || diags.hasErrors())
        return;
      description = spec->describe();
      unit = codegen::emitCpu(m.resolved, m.file, *spec, diags, options);
    });
    if (diags.hasErrors()) {
      std::ostringstream out;
      diags.render(out, false);
      throw Error(ErrorKind::Compile, out.str());
    }
  }
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
  // What the entry points read: the kernel's parameters, or the ufunc kernel's arrays.
  if (k.function->kind == sema::CompiledFunctionKind::Vectorize) {
    for (const KernelArgument& a : args)
      instance->params.push_back(NumbaType::array(scalarKindOf(a.dtype), 1, ArrayLayout::A));
  } else {
    instance->params = params;
  }
  std::lock_guard lock(k.mutex);
  if (unit.mode == codegen::CpuExecutionMode::Split) {
    k.shapedTypes.insert(typesKey);
    key = typesKey + shapeKey;
  }
  auto [it, inserted] = k.instances.emplace(key, instance);
  return it->second;
}

} // namespace

const std::string& Kernel::name() const {
  return state_->function->name;
}

std::string Kernel::executionMode(std::span<const KernelArgument> args) const {
  return instanceFor(*state_, args, nullptr)->mode;
}

void Kernel::launchWith(const LaunchShape& shape, std::size_t sharedBytes,
                        std::span<const KernelArgument> args) const {
  currentBackend(); // PYK_BACKEND=cuda is an error here, not a silent fallback to the CPU
  detail::validateLaunch(name(), shape, sharedBytes);
  std::shared_ptr<detail::CpuKernelInstance> instance = instanceFor(*state_, args, &shape.block);
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
      const AnyDeviceArray& a = args[i].array;
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

} // namespace pyk
