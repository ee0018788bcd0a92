// ModuleApiCatalog: what the modules a numba.cuda script imports (numba, numba.cuda, numba.types,
// math, cmath, numpy) export, by qualified name, and which of it device code may use.
#include "sema/ModuleApiCatalog.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_map>

namespace pyk::sema {

namespace {

// numba-cuda's device API (cudadecl.py, stubs.py, random.py, fp16 module). The `random.*` ones are
// device functions of pyk's stdlib (stdlib/numba/cuda/random.pyk, see LibraryModule).
constexpr const char* kCudaDeviceFunctions[] = {"grid",
                                                "gridsize",
                                                "shared.array",
                                                "local.array",
                                                "const.array_like",
                                                "syncthreads",
                                                "syncthreads_count",
                                                "syncthreads_and",
                                                "syncthreads_or",
                                                "syncwarp",
                                                "threadfence",
                                                "threadfence_block",
                                                "threadfence_system",
                                                "atomic.add",
                                                "atomic.sub",
                                                "atomic.and_",
                                                "atomic.or_",
                                                "atomic.xor",
                                                "atomic.max",
                                                "atomic.min",
                                                "atomic.nanmax",
                                                "atomic.nanmin",
                                                "atomic.inc",
                                                "atomic.dec",
                                                "atomic.exch",
                                                "atomic.compare_and_swap",
                                                "atomic.cas",
                                                "all_sync",
                                                "any_sync",
                                                "eq_sync",
                                                "ballot_sync",
                                                "shfl_sync",
                                                "shfl_up_sync",
                                                "shfl_down_sync",
                                                "shfl_xor_sync",
                                                "match_any_sync",
                                                "match_all_sync",
                                                "activemask",
                                                "lanemask_lt",
                                                "popc",
                                                "brev",
                                                "clz",
                                                "ffs",
                                                "fma",
                                                "cbrt",
                                                "selp",
                                                "cg.this_grid",
                                                "fp16.hadd",
                                                "fp16.hsub",
                                                "fp16.hmul",
                                                "fp16.hdiv",
                                                "fp16.hneg",
                                                "fp16.habs",
                                                "fp16.hfma",
                                                "fp16.heq",
                                                "fp16.hne",
                                                "fp16.hgt",
                                                "fp16.hge",
                                                "fp16.hlt",
                                                "fp16.hle",
                                                "fp16.hmax",
                                                "fp16.hmin",
                                                "fp16.hsin",
                                                "fp16.hcos",
                                                "fp16.hlog",
                                                "fp16.hlog10",
                                                "fp16.hlog2",
                                                "fp16.hexp",
                                                "fp16.hexp10",
                                                "fp16.hexp2",
                                                "fp16.hsqrt",
                                                "fp16.hrsqrt",
                                                "fp16.hceil",
                                                "fp16.hfloor",
                                                "fp16.hrcp",
                                                "fp16.htrunc",
                                                "fp16.hrint",
                                                "random.xoroshiro128p_uniform_float32",
                                                "random.xoroshiro128p_uniform_float64",
                                                "random.xoroshiro128p_normal_float32",
                                                "random.xoroshiro128p_normal_float64",
                                                "random.xoroshiro128p_next",
                                                "random.xoroshiro128p_jump",
                                                "random.init_xoroshiro128p_state",
                                                "random.rotl",
                                                "random.uint64_to_unit_float64",
                                                "random.uint64_to_unit_float32"};

constexpr const char* kCudaDeviceValues[] = {
    "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y",
    "blockIdx.z",  "blockDim.x",  "blockDim.y",  "blockDim.z", "gridDim.x",
    "gridDim.y",   "gridDim.z",   "laneid",      "warpsize"};

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

// math functions numba-cuda implements (cudamath.py, mathimpl).
constexpr const char* kMathFunctions[] = {
    "acos", "acosh", "asin",    "asinh", "atan",     "atan2", "atanh",   "ceil",      "copysign",
    "cos",  "cosh",  "degrees", "erf",   "erfc",     "exp",   "expm1",   "fabs",      "floor",
    "fmod", "frexp", "gamma",   "hypot", "isfinite", "isinf", "isnan",   "ldexp",     "lgamma",
    "log",  "log10", "log1p",   "log2",  "modf",     "pow",   "radians", "remainder", "sin",
    "sinh", "sqrt",  "tan",     "tanh",  "trunc"};

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

constexpr const char* kCmathFunctions[] = {"acos", "acosh", "asin",  "asinh",    "atan",  "atanh",
                                           "cos",  "cosh",  "exp",   "isfinite", "isinf", "isnan",
                                           "log",  "log10", "phase", "polar",    "rect",  "sin",
                                           "sinh", "sqrt",  "tan",   "tanh"};

constexpr const char* kPythonCmathMembers[] = {
    "acos",  "acosh", "asin",    "asinh",    "atan",  "atanh", "cos",  "cosh",  "e",    "exp",
    "inf",   "infj",  "isclose", "isfinite", "isinf", "isnan", "log",  "log10", "nan",  "nanj",
    "phase", "pi",    "polar",   "rect",     "sin",   "sinh",  "sqrt", "tan",   "tanh", "tau"};

// numpy functions numba-cuda compiles in kernels (math ufuncs on scalars).
constexpr const char* kNumpyDeviceFunctions[] = {
    "sin",         "cos",           "tan",         "arcsin",      "arccos",       "arctan",
    "arctan2",     "sinh",          "cosh",        "tanh",        "arcsinh",      "arccosh",
    "arctanh",     "exp",           "exp2",        "expm1",       "log",          "log2",
    "log10",       "log1p",         "sqrt",        "cbrt",        "square",       "absolute",
    "abs",         "fabs",          "sign",        "negative",    "positive",     "add",
    "subtract",    "multiply",      "divide",      "true_divide", "floor_divide", "power",
    "float_power", "remainder",     "mod",         "fmod",        "floor",        "ceil",
    "trunc",       "rint",          "isnan",       "isinf",       "isfinite",     "signbit",
    "copysign",    "nextafter",     "hypot",       "deg2rad",     "rad2deg",      "degrees",
    "radians",     "logaddexp",     "logaddexp2",  "maximum",     "minimum",      "fmax",
    "fmin",        "bitwise_and",   "bitwise_or",  "bitwise_xor", "bitwise_not",  "invert",
    "left_shift",  "right_shift",   "logical_and", "logical_or",  "logical_xor",  "logical_not",
    "greater",     "greater_equal", "less",        "less_equal",  "equal",        "not_equal",
    "reciprocal",  "conjugate",     "conj",        "real",        "imag",         "ldexp",
    "frexp",       "modf",          "spacing"};

// numpy functions that build or reduce arrays: host code only.
constexpr const char* kNumpyHostFunctions[] = {
    "array",      "asarray",   "zeros",      "ones",      "empty",       "full",
    "zeros_like", "ones_like", "empty_like", "full_like", "arange",      "linspace",
    "logspace",   "meshgrid",  "eye",        "identity",  "concatenate", "stack",
    "vstack",     "hstack",    "reshape",    "transpose", "copy",        "sum",
    "prod",       "mean",      "std",        "var",       "min",         "max",
    "amin",       "amax",      "argmin",     "argmax",    "sort",        "argsort",
    "dot",        "matmul",    "outer",      "allclose",  "isclose",     "array_equal",
    "testing",    "random",    "save",       "load",      "savetxt",     "loadtxt",
    "fromfile",   "dtype",     "ndarray",    "where",     "cumsum",      "diff",
    "histogram",  "unique",    "clip",       "round",     "around",      "set_printoptions",
    "finfo",      "iinfo",     "linalg",     "fft",       "float_"};

struct Constant {
  const char* name;
  double value;
};

const Constant kMathConstants[] = {{"pi", std::numbers::pi},
                                   {"e", std::numbers::e},
                                   {"tau", 2 * std::numbers::pi},
                                   {"inf", HUGE_VAL},
                                   {"nan", std::nan("")}};

const Constant kNumpyConstants[] = {
    {"pi", std::numbers::pi}, {"e", std::numbers::e}, {"euler_gamma", std::numbers::egamma},
    {"inf", HUGE_VAL},        {"Inf", HUGE_VAL},      {"PINF", HUGE_VAL},
    {"NINF", -HUGE_VAL},      {"infty", HUGE_VAL},    {"nan", std::nan("")},
    {"NaN", std::nan("")},    {"NAN", std::nan("")}};

class Catalog {
public:
  Catalog() {
    for (const char* m : {"numba", "numba.cuda", "numba.types", "math", "cmath", "numpy"})
      add(m, ApiKind::Module);
    add("numba.cuda.libdevice", ApiKind::OpaqueModule);
    add("numba.cuda.fp16", ApiKind::Module);
    for (const char* n : kCudaNamespaces)
      add(std::string("numba.cuda.") + n, ApiKind::Module);
    for (const char* n : kCudaDeviceFunctions)
      add(std::string("numba.cuda.") + n, ApiKind::DeviceFunction);
    for (const char* n : kCudaDeviceValues)
      add(std::string("numba.cuda.") + n, ApiKind::DeviceValue);
    for (const char* n : kCudaHostFunctions)
      add(std::string("numba.cuda.") + n, ApiKind::HostFunction);
    add("numba.cuda.jit", ApiKind::Decorator);
    for (const char* n : {"vectorize", "guvectorize", "jit", "njit", "generated_jit", "cfunc",
                          "stencil", "jit_module"})
      add(std::string("numba.") + n, ApiKind::Decorator);
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
    for (const char* n : {"UniTuple", "Tuple", "Array"})
      add(std::string("numba.types.") + n, ApiKind::TypeConstructor);
    for (const char* n : kMathFunctions)
      add(std::string("math.") + n, ApiKind::DeviceFunction);
    for (const Constant& c : kMathConstants) {
      entities_["math." + std::string(c.name)] =
          ApiEntity{ApiKind::Constant, "math." + std::string(c.name), NumbaType(), c.value};
      entities_["cmath." + std::string(c.name)] =
          ApiEntity{ApiKind::Constant, "cmath." + std::string(c.name), NumbaType(), c.value};
    }
    for (const char* n : kCmathFunctions)
      add(std::string("cmath.") + n, ApiKind::DeviceFunction);
    for (const char* n : kNumpyDeviceFunctions)
      add(std::string("numpy.") + n, ApiKind::DeviceFunction);
    for (const char* n : kNumpyHostFunctions)
      add(std::string("numpy.") + n, ApiKind::HostFunction);
    for (const Constant& c : kNumpyConstants)
      entities_["numpy." + std::string(c.name)] =
          ApiEntity{ApiKind::Constant, "numpy." + std::string(c.name), NumbaType(), c.value};
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
  if (name.starts_with("numba.types.")) {
    std::string member = name.substr(12);
    if (member.find('.') == std::string::npos &&
        (scalarKindNamed(member) || isVoidTypeName(member)))
      name = "numba." + member;
  }
  return name;
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
