// ModuleApiCatalog: what the modules a numba.cuda script imports (numba, numba.cuda, numba.types,
// math, cmath, numpy) export, by qualified name, and which of it device code may use.
#include "sema/catalog/ModuleApiCatalog.h"

#include <algorithm>
#include <unordered_map>

#include "base/LinkedSource.h"
#include "sema/catalog/VectorTypes.h"

namespace pyk::sema {

namespace {

constexpr const char* kCudaNamespaces[] = {"threadIdx", "blockIdx", "blockDim", "gridDim",
                                           "shared",    "local",    "const",    "atomic",
                                           "cg",        "fp16",     "random"};

// numba.cuda's host API.
constexpr const char* kCudaHostFunctions[] = {"to_device",
                                              "device_array",
                                              "device_array_like",
                                              "pinned_array",
                                              "pinned_array_like",
                                              "mapped_array",
                                              "mapped_array_like",
                                              "managed_array",
                                              "synchronize",
                                              "stream",
                                              "default_stream",
                                              "legacy_default_stream",
                                              "per_thread_default_stream",
                                              "external_stream",
                                              "event",
                                              "select_device",
                                              "get_current_device",
                                              "current_context",
                                              "close",
                                              "gpus",
                                              "detect",
                                              "is_available",
                                              "is_supported_version",
                                              "list_devices",
                                              "profile_start",
                                              "profile_stop",
                                              "profiling",
                                              "pinned",
                                              "mapped",
                                              "defer_cleanup",
                                              "compile",
                                              "compile_ptx",
                                              "compile_ptx_for_current_device",
                                              "compile_for_current_device",
                                              "declare_device",
                                              "CUSource",
                                              "PTXSource",
                                              "Cubin",
                                              "Fatbin",
                                              "Object",
                                              "Archive",
                                              "LTOIR",
                                              "from_cuda_array_interface",
                                              "as_cuda_array",
                                              "is_cuda_array",
                                              "is_float16_supported",
                                              "reduce",
                                              "Reduce",
                                              "device_array_like",
                                              "random.create_xoroshiro128p_states",
                                              "random.init_xoroshiro128p_states",
                                              "random.xoroshiro128p_dtype",
                                              "random.xoroshiro128p_type",
                                              "random.init_xoroshiro128p_states_cpu",
                                              "cudadrv",
                                              "errors",
                                              "simulator",
                                              "runtime",
                                              "driver",
                                              "config"};

// Everything Python's math module exports (3.8 to 3.13).
constexpr const char* kPythonMathMembers[] = {
    "acos",    "acosh",    "asin",     "asinh",   "atan",      "atan2",   "atanh",     "cbrt",
    "ceil",    "comb",     "copysign", "cos",     "cosh",      "degrees", "dist",      "e",
    "erf",     "erfc",     "exp",      "exp2",    "expm1",     "fabs",    "factorial", "floor",
    "fma",     "fmod",     "frexp",    "fsum",    "gamma",     "gcd",     "hypot",     "inf",
    "isclose", "isfinite", "isinf",    "isnan",   "isqrt",     "lcm",     "ldexp",     "lgamma",
    "log",     "log10",    "log1p",    "log2",    "modf",      "nan",     "nextafter", "perm",
    "pi",      "pow",      "prod",     "radians", "remainder", "sin",     "sinh",      "sqrt",
    "sumprod", "tan",      "tanh",     "tau",     "trunc",     "ulp"};

constexpr const char* kPythonCmathMembers[] = {
    "acos",  "acosh", "asin",    "asinh",    "atan",  "atanh", "cos",  "cosh",  "e",    "exp",
    "inf",   "infj",  "isclose", "isfinite", "isinf", "isnan", "log",  "log10", "nan",  "nanj",
    "phase", "pi",    "polar",   "rect",     "sin",   "sinh",  "sqrt", "tan",   "tanh", "tau"};

// numpy functions that build or reduce arrays: host code only.
constexpr const char* kNumpyHostFunctions[] = {"array",
                                               "asarray",
                                               "zeros",
                                               "ones",
                                               "empty",
                                               "full",
                                               "zeros_like",
                                               "ones_like",
                                               "empty_like",
                                               "full_like",
                                               "arange",
                                               "linspace",
                                               "logspace",
                                               "meshgrid",
                                               "eye",
                                               "identity",
                                               "concatenate",
                                               "stack",
                                               "vstack",
                                               "hstack",
                                               "reshape",
                                               "transpose",
                                               "copy",
                                               "sum",
                                               "prod",
                                               "mean",
                                               "std",
                                               "var",
                                               "min",
                                               "max",
                                               "amin",
                                               "amax",
                                               "argmin",
                                               "argmax",
                                               "sort",
                                               "argsort",
                                               "dot",
                                               "matmul",
                                               "outer",
                                               "allclose",
                                               "isclose",
                                               "array_equal",
                                               "testing",
                                               "random",
                                               "save",
                                               "load",
                                               "savetxt",
                                               "loadtxt",
                                               "fromfile",
                                               "dtype",
                                               "ndarray",
                                               "where",
                                               "cumsum",
                                               "diff",
                                               "histogram",
                                               "unique",
                                               "clip",
                                               "round",
                                               "around",
                                               "set_printoptions",
                                               "finfo",
                                               "iinfo",
                                               "linalg",
                                               "fft",
                                               "float_",
                                               "asfortranarray",
                                               "ascontiguousarray"};

class Catalog {
public:
  Catalog() {
    for (const char* m :
         {"numba", "numba.cuda", "numba.types", "math", "cmath", "numpy", "operator"})
      add(m, ApiKind::Module);
    add("numba.cuda.libdevice", ApiKind::Module);
    // cffi, for numba's `ffi = cffi.FFI()` whose from_buffer kernels call (the instance is bound
    // as the module `cffi.ffi`: ModuleResolver).
    add("cffi", ApiKind::Module);
    add("cffi.ffi", ApiKind::Module);
    add("cffi.FFI", ApiKind::HostFunction);
    add("numba.cuda.fp16", ApiKind::Module);
    for (const char* n : kCudaNamespaces)
      add(std::string("numba.cuda.") + n, ApiKind::Module);
    for (const char* n : kCudaHostFunctions)
      add(std::string("numba.cuda.") + n, ApiKind::HostFunction);
    auto decorator = [&](const std::string& name, NumbaDecorator which) {
      add(name, ApiKind::Decorator);
      entities_[name].decorator = which;
    };
    decorator("numba.cuda.jit", NumbaDecorator::CudaJit);
    for (const char* prefix : {"numba.", "numba.np.ufunc."}) {
      decorator(std::string(prefix) + "vectorize", NumbaDecorator::Vectorize);
      decorator(std::string(prefix) + "guvectorize", NumbaDecorator::GuVectorize);
    }
    for (const char* n : {"jit", "njit", "generated_jit", "cfunc", "stencil", "jit_module"})
      decorator(std::string("numba.") + n, NumbaDecorator::CpuJit);
    for (const char* n : {"typeof", "from_dtype", "prange", "config", "objmode", "literally",
                          "literal_unroll", "set_num_threads", "get_num_threads", "errors", "core",
                          "np", "typed", "experimental", "extending"})
      add(std::string("numba.") + n, ApiKind::HostFunction);
    for (const std::string& n : numbaTypeNames()) {
      ApiEntity e{ApiKind::Type, "numba." + n, NumbaType(), 0};
      if (auto scalar = scalarKindNamed(n))
        e.type = NumbaType::scalar(*scalar);
      entities_[e.qualifiedName] = e;
    }
    // The C names numba gives its vector types (`numba.cuda.float4` is float32x4): the same
    // constructor.
    for (const VectorAlias& alias : vectorAliases())
      for (int count = 1; count <= 4; ++count) {
        ApiEntity e{ApiKind::DeviceFunction,
                    "numba.cuda." + std::string(alias.alias) + std::to_string(count), NumbaType(),
                    0, vectorConstructor(alias.base, count)};
        entities_[e.qualifiedName] = e;
      }
    for (const char* n : {"UniTuple", "Tuple", "Array", "CPointer"})
      add(std::string("numba.types.") + n, ApiKind::TypeConstructor);
    for (const char* n : kNumpyHostFunctions)
      add(std::string("numpy.") + n, ApiKind::HostFunction);
    entities_["numpy.array"].hostCall = HostCall::NumpyArray;
    entities_["numpy.asarray"].hostCall = HostCall::NumpyArray;
    entities_["numpy.dtype"].hostCall = HostCall::NumpyDtype;
    entities_["numba.from_dtype"].hostCall = HostCall::NumbaFromDtype;
    entities_["numba.cuda.declare_device"].hostCall = HostCall::DeclareDevice;
    for (const types::LinkedCodeKindInfo& kind : types::kLinkedCodeKinds)
      entities_["numba.cuda." + std::string(kind.numbaClass)].hostCall = HostCall::LinkableCode;
    entities_["numpy.zeros"].hostCall = HostCall::NumpyZeros;
    entities_["numpy.ones"].hostCall = HostCall::NumpyOnes;
    entities_["numpy.full"].hostCall = HostCall::NumpyFull;
    entities_["numpy.arange"].hostCall = HostCall::NumpyArange;
    entities_["numpy.linspace"].hostCall = HostCall::NumpyLinspace;
    for (const char* n : {"numpy.asfortranarray", "numpy.ascontiguousarray", "numpy.copy"})
      entities_[n].hostCall = HostCall::NumpyLayoutCopy;
    // numba's device API, from the intrinsic table (builtins are not module members).
    for (const IntrinsicInfo& row : allIntrinsics()) {
      if (row.name.find('.') == std::string_view::npos || row.has(intrinsic_flags::HostOnly))
        continue;
      ApiEntity e{row.kind == IntrinsicKind::Value      ? ApiKind::DeviceValue
                  : row.kind == IntrinsicKind::Constant ? ApiKind::Constant
                                                        : ApiKind::DeviceFunction,
                  std::string(row.name), NumbaType(), row.value, row.id};
      entities_[e.qualifiedName] = e;
    }
    for (const char* n :
         {"bool_",     "bool",    "int8",       "int16",   "int32",  "int64",   "intp",
          "intc",      "int_",    "uint8",      "uint16",  "uint32", "uint64",  "uintp",
          "uintc",     "uint",    "byte",       "ubyte",   "short",  "ushort",  "longlong",
          "ulonglong", "float16", "half",       "float32", "single", "float64", "double",
          "complex64", "csingle", "complex128", "cdouble"}) {
      ApiEntity e{ApiKind::Type, "numpy." + std::string(n),
                  NumbaType::scalar(*numpyScalarKindNamed(n)), 0};
      entities_[e.qualifiedName] = e;
    }
  }

  const ApiEntity* find(std::string_view name) const {
    auto it = entities_.find(std::string(name));
    return it == entities_.end() ? nullptr : &it->second;
  }

  std::vector<std::string> members(std::string_view module) const {
    std::vector<std::string> out;
    std::string prefix = std::string(module) + ".";
    for (const auto& [name, entity] : entities_)
      if (name.starts_with(prefix) && name.find('.', prefix.size()) == std::string::npos)
        out.push_back(name.substr(prefix.size()));
    std::sort(out.begin(), out.end());
    return out;
  }

private:
  void add(const std::string& name, ApiKind kind) {
    entities_[name] = ApiEntity{kind, name, NumbaType(), 0};
  }

  std::unordered_map<std::string, ApiEntity> entities_;
};

const Catalog& catalog() {
  static const Catalog instance;
  return instance;
}

} // namespace

std::string canonicalApiName(std::string_view qualifiedName) {
  std::string name(qualifiedName);
  auto replacePrefix = [&](std::string_view from, std::string_view to) {
    if (name == from || name.starts_with(std::string(from) + ".")) {
      name = std::string(to) + name.substr(from.size());
      return true;
    }
    return false;
  };
  replacePrefix("numba.core.types", "numba.types");
  replacePrefix("numba.cuda.types", "numba.types"); // numba-cuda's own copy of numba.types
  if (name.starts_with("numba.types.")) {
    std::string member = name.substr(12);
    if (member.find('.') == std::string::npos &&
        (scalarKindNamed(member) || isVoidTypeName(member)))
      name = "numba." + member;
  }
  return name;
}

const ApiEntity* findApi(std::string_view qualifiedName) {
  return catalog().find(qualifiedName);
}

std::optional<ApiEntity> lookupApi(std::string_view qualifiedName) {
  if (const ApiEntity* e = catalog().find(qualifiedName))
    return *e;
  return std::nullopt;
}

bool isCatalogedModule(std::string_view qualifiedName) {
  const ApiEntity* e = catalog().find(qualifiedName);
  return e != nullptr && e->kind == ApiKind::Module;
}

std::vector<std::string> apiMembers(std::string_view module) {
  return catalog().members(module);
}

HostArrayEffect hostArrayEffect(std::string_view qualifiedName) {
  static const char* const kMakesNewArray[] = {
      "numpy.zeros",     "numpy.ones",       "numpy.full", "numpy.empty",      "numpy.arange",
      "numpy.linspace",  "numpy.array",      "numpy.copy", "numpy.zeros_like", "numpy.ones_like",
      "numpy.full_like", "numpy.empty_like", "numpy.eye",  "numpy.identity"};
  // Not numpy's ufuncs: a positional output argument changes it.
  static const char* const kReadsOnly[] = {"numpy.sum",
                                           "numpy.mean",
                                           "numpy.max",
                                           "numpy.min",
                                           "numpy.amax",
                                           "numpy.amin",
                                           "numpy.prod",
                                           "numpy.std",
                                           "numpy.var",
                                           "numpy.allclose",
                                           "numpy.array_equal",
                                           "numpy.asarray",
                                           "numpy.ascontiguousarray",
                                           "numpy.shape",
                                           "numpy.size",
                                           "numpy.ndim",
                                           "numpy.save",
                                           "numpy.testing.assert_allclose",
                                           "numpy.testing.assert_array_equal",
                                           "numpy.testing.assert_equal",
                                           "numpy.testing.assert_almost_equal",
                                           "numba.cuda.to_device",
                                           "numba.cuda.device_array_like",
                                           "numba.cuda.pinned_array_like",
                                           "numba.cuda.mapped_array_like"};
  for (const char* name : kMakesNewArray)
    if (qualifiedName == name)
      return HostArrayEffect::MakesNewArray;
  for (const char* name : kReadsOnly)
    if (qualifiedName == name)
      return HostArrayEffect::ReadsOnly;
  return HostArrayEffect::Unknown;
}

bool isPythonMathMember(std::string_view module, std::string_view name) {
  if (module == "math") {
    for (const char* m : kPythonMathMembers)
      if (name == m)
        return true;
  } else if (module == "cmath") {
    for (const char* m : kPythonCmathMembers)
      if (name == m)
        return true;
  }
  return false;
}

} // namespace pyk::sema
