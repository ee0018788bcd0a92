// ModuleApiCatalog: what the modules a numba.cuda script imports (numba, numba.cuda, numba.types,
// math, cmath, numpy) export, by qualified name, and which of it device code may use.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/NumbaType.h"
#include "sema/catalog/Intrinsic.h"

namespace pyk::sema {

enum class ApiKind : uint8_t {
  Module,          // a namespace: `numba.cuda`, `numba.cuda.atomic`, `math`, `numba.cuda.threadIdx`
  OpaqueModule,    // a namespace whose members pyk does not check (`numba.cuda.libdevice`)
  DeviceFunction,  // callable in device code: `numba.cuda.syncthreads`, `math.sqrt`, `numpy.sin`
  DeviceValue,     // a value in device code: `numba.cuda.threadIdx.x`, `numba.cuda.warpsize`
  Constant,        // `math.pi`, `numpy.inf`
  Type,            // a scalar type object: `numba.float32`, `numpy.int32`, `numba.void`
  TypeConstructor, // `numba.types.UniTuple`, `numba.types.Tuple`, `numba.types.Array`
  Decorator,       // `numba.cuda.jit`, `numba.vectorize`, `numba.guvectorize`, `numba.njit`
  HostFunction,    // host-only API: `numba.cuda.to_device`, `numpy.zeros`, ...
};

// What a numba decorator makes of the function under it.
enum class NumbaDecorator : uint8_t {
  None,        // not a numba decorator
  CudaJit,     // numba.cuda.jit
  Vectorize,   // numba.vectorize
  GuVectorize, // numba.guvectorize
  CpuJit,      // numba.jit, numba.njit, ...: compiled for the CPU by numba; host code to pyk
};

// Host calls the constant folder evaluates in module-level code (numpy arrays and dtypes).
enum class HostCall : uint8_t {
  None,
  NumpyArray,      // numpy.array / numpy.asarray of nested literals
  NumpyDtype,      // numpy.dtype([...]): a record dtype
  NumbaFromDtype,  // numba.from_dtype(dtype): its numba type
  NumpyZeros,      // numpy.zeros(shape, dtype=float64)
  NumpyOnes,       // numpy.ones(shape, dtype=float64)
  NumpyFull,       // numpy.full(shape, fill_value, dtype=)
  NumpyArange,     // numpy.arange([start,] stop[, step], dtype=)
  NumpyLinspace,   // numpy.linspace(start, stop, num=50)
  NumpyLayoutCopy, // numpy.asfortranarray / ascontiguousarray / copy of an array: its items
  DeclareDevice,   // numba.cuda.declare_device(name, sig, link=, abi=): a CUDA C++ function
  LinkableCode,    // numba.cuda.CUSource(text, name=) and the other code to link from memory
};

struct ApiEntity {
  ApiKind kind = ApiKind::Module;
  std::string qualifiedName; // canonical: `numba.float32`, not `numba.types.float32`
  NumbaType type;            // Type: the type (void for `numba.void`)
  double constantValue = 0;  // Constant: the value (math.pi, numpy.inf, ...)
  // DeviceFunction, DeviceValue, Constant: the intrinsic (Intrinsics.def) it is.
  Intrinsic intrinsic = Intrinsic::None;
  // HostFunction: what the constant folder makes of a call, if anything.
  HostCall hostCall = HostCall::None;
  // Decorator: which numba decorator.
  NumbaDecorator decorator = NumbaDecorator::None;
};

// The canonical spelling of a qualified name: `numba.core.types.X` and `numba.types.X` become
// `numba.X` for scalar types; `numba.core.types` becomes `numba.types`.
std::string canonicalApiName(std::string_view qualifiedName);

// The entity a canonical qualified name denotes, if the catalog knows it.
std::optional<ApiEntity> lookupApi(std::string_view qualifiedName);
// The same, as the catalog's own entry (alive for the whole process), or null.
const ApiEntity* findApi(std::string_view qualifiedName);

// Whether `qualifiedName` is a module the catalog describes (so an unknown member is an error),
// as opposed to one it knows nothing about (`matplotlib.pyplot`).
bool isCatalogedModule(std::string_view qualifiedName);

// The last components of every member of `module`, for did-you-mean.
std::vector<std::string> apiMembers(std::string_view module);

// What a host function of numpy's or numba's does with the arrays it is given, as the module's
// running code needs to know it (sema/fold/ModuleExecution): makes a new array of its own (and
// changes none it is given), reads its arguments and changes none (without `out=`), or unknown.
enum class HostArrayEffect : uint8_t { Unknown, MakesNewArray, ReadsOnly };
HostArrayEffect hostArrayEffect(std::string_view qualifiedName);

// Whether `name` is a member of Python's own `math` / `cmath` module (so that a member numba.cuda
// does not support can be told from a misspelling).
bool isPythonMathMember(std::string_view module, std::string_view name);

} // namespace pyk::sema
