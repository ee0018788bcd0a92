// Intrinsic: numba's device API as an enum (thread indexing, barriers, atomics, warp operations,
// math, cmath, numpy's scalar functions, the stdlib's random functions, the builtins), each
// declared once in Intrinsics.def with its kind, arity, typing rule, spellings and properties.
// Name resolution turns every reference into its Intrinsic; nothing after it compares names.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace pyk::sema {

enum class Intrinsic : uint16_t {
  None, // not an intrinsic
#define INTRINSIC(Id, Name, Kind, Typing, MinArgs, MaxArgs, Value, Cuda, Cpu, Flags) Id,
#include "sema/catalog/Intrinsics.def"
};

enum class IntrinsicKind : uint8_t {
  Value,    // a device value read as an attribute or name: `cuda.threadIdx.x`, `cuda.warpsize`
  Constant, // a module constant: `math.pi`
  Function, // called: `cuda.syncthreads()`, `math.sin(x)`, `range(n)`
  Library,  // a device function of pyk's stdlib, written in pyk (`numba.cuda.random`)
};

// The module an intrinsic belongs to (from its qualified name).
enum class IntrinsicModule : uint8_t { Builtin, NumbaCuda, Math, Cmath, Numpy, Operator };

// How a use of the intrinsic is typed: each rule is implemented once, in the Type*.cpp of its
// family (familyOf; TypeCalls.cpp dispatches), with numba's overload cases of the math and builtin
// rules in TypeRules.cpp.
enum class IntrinsicTyping : uint8_t {
  Int32Value,       // threadIdx.x ... warpsize: int32
  Float64Constant,  // math.pi ...: float64
  HostConstant,     // numpy.pi, cmath.pi: folded in module constants, not a value in kernels yet
  ArrayConstructor, // cuda.shared.array / local.array(shape, dtype): a C-contiguous array
  ConstArrayLike,   // cuda.const.array_like(module array): a read-only copy
  GridIndex,        // cuda.grid(n) / gridsize(n): int64, or a UniTuple of n int64
  ThisGrid,         // cuda.cg.this_grid(): the grid group (whose .sync() is a grid barrier)
  Void,             // barriers and fences: none
  BarrierPredicate, // syncthreads_count/and/or(pred): int32
  AtomicArithmetic, // add sub max min nanmax nanmin: integers of 32+ bits and floats
  AtomicBitwise,    // and_ or_ xor exch: integers of 32+ bits
  AtomicIncDec,     // inc dec: uint32, uint64
  AtomicCas,        // cas(array, index, old, value): integers of 32+ bits
  AtomicCompareAndSwap, // compare_and_swap(array, old, value): element 0
  CacheHintLoad,        // ldca ldcg ldcs ldlu ldcv(array, index): the element's type
  CacheHintStore,       // stcg stcs stwb stwt(array, index, value): none
  LaneMask,             // activemask(), lanemask_lt(): uint32
  Vote,                 // all_sync / any_sync / eq_sync(mask, pred): boolean
  Ballot,               // ballot_sync(mask, pred): int32
  Shuffle,              // shfl_*_sync(mask, value, lane): the value's type (32/64-bit)
  MatchAny,             // match_any_sync(mask, value): int32
  MatchAll,             // match_all_sync(mask, value): (int32, boolean)
  BitCount,             // popc, clz: the integer's type
  FirstSet,             // ffs: uint32
  BitReverse,           // brev: uint32 or uint64
  SameFloat,            // fma, cbrt: float32 or float64 arguments of one type, that type
  Select,               // selp(pred, a, b): a and b unified
  Half,                 // cuda.fp16's hadd ... hfma: float16 arguments, float16
  HalfPredicate,        // cuda.fp16's heq ... hle: float16 arguments, boolean
  MathUnary,            // numba's unary float cases (float32 stays float32, integers float64)
  MathClassify,         // isinf isnan isfinite: boolean
  MathFrexp,            // (float, int32)
  MathModf,             // (float, float)
  MathAtan2,            // atan2, hypot
  MathBinary,           // copysign, fmod, remainder
  MathPow,              // math.pow: (f, f) or (f, int32)
  MathLdexp,            // (float, int32)
  CmathComplex,         // a complex result
  CmathPhase,           // a float
  CmathPolar,           // (float, float)
  CmathClassify,        // boolean
  CmathRect,            // complex from two reals
  Range,                // `for i in range(...)`: numba's range_state32/64 selection
  Enumerate,            // `for i, x in enumerate(seq)`
  Zip,                  // `for a, b in zip(s, t)`
  Len,                  // len(array or tuple): int64
  Print,                // print(...): none
  Abs,
  MinMax,
  Round,
  IntCast,
  FloatCast,
  BoolCast,
  ComplexCast,
  BuiltinPow,
  Divmod,
  BuiltinSum,        // sum(iterable, start=0): numba's overload, an accumulator of one type
  VectorConstructor, // cuda.float32x4(...) ...: the vector type (sema/catalog/VectorTypes.h)
  TupleCopy,         // tuple() / tuple(t) of a tuple: the empty tuple, or t's own type
  RealImag,          // numpy.real / numpy.imag: x.real / x.imag (a float view of a complex array)
  BufferPointer,     // cffi's ffi.from_buffer(array): CPointer(dtype) of a contiguous array
  OperatorFunction,  // operator.add, operator.lt, operator.neg, ...: the operator they are
  Libdevice,       // numba.cuda.libdevice.*: the function's one signature (LibdeviceFunctions.def)
  LibraryFunction, // typed as a call of the stdlib's pyk function
  NumpyUfunc,  // a numpy ufunc on scalars, or on arrays into an output array (sema/catalog/Ufunc.h)
  NotYetTyped, // accepted by name resolution; typing rejects every call, saying so
};

// The families of typing rules, which typing and emission dispatch on (a file of each).
enum class IntrinsicFamily : uint8_t {
  Value,           // Int32Value, Float64Constant, HostConstant
  ThreadModel,     // GridIndex, ThisGrid, Void (barriers, fences), BarrierPredicate
  Memory,          // ArrayConstructor, ConstArrayLike
  Atomic,          // Atomic*
  CacheHint,       // CacheHintLoad, CacheHintStore: addressed as atomics are
  Warp,            // LaneMask, Vote, Ballot, Shuffle, MatchAny, MatchAll
  IntegerAndFloat, // BitCount, FirstSet, BitReverse, SameFloat, Select, Half, HalfPredicate
  Math,            // Math*
  Cmath,           // Cmath*
  Iteration,       // Range, Enumerate, Zip
  Vector,          // VectorConstructor
  Builtin,         // Len, Print, Abs, MinMax, Round, the casts, BuiltinPow, Divmod, RealImag,
                   // BufferPointer, OperatorFunction
  Libdevice,       // Libdevice
  Library,         // LibraryFunction
  Ufunc,           // NumpyUfunc
  NotYetTyped,
};
IntrinsicFamily familyOf(IntrinsicTyping typing);

namespace intrinsic_flags {
inline constexpr uint32_t Barrier = 1u << 0;
inline constexpr uint32_t WarpCollective = 1u << 1;
inline constexpr uint32_t ThreadIndex = 1u << 2;
inline constexpr uint32_t BlockUniform = 1u << 3;
inline constexpr uint32_t ThreadPure = 1u << 4;
inline constexpr uint32_t NonNegative = 1u << 5;
inline constexpr uint32_t HostOnly = 1u << 6;
inline constexpr uint32_t BlockReduction = 1u << 7;
inline constexpr uint32_t GatherableAtomic = 1u << 8;
inline constexpr uint32_t MemoryFence = 1u << 9;
} // namespace intrinsic_flags

// One row of Intrinsics.def.
struct IntrinsicInfo {
  Intrinsic id;
  std::string_view name; // canonical qualified name, or the builtin's bare name
  IntrinsicKind kind;
  IntrinsicTyping typing;
  int minArgs;
  int maxArgs; // -1: any number
  double value;
  std::string_view cuda; // the CUDA spelling ("" where composed)
  std::string_view cpu;  // the CPU backend's spelling
  uint32_t flags;

  bool has(uint32_t flag) const { return (flags & flag) != 0; }
  bool acceptsArgumentCount(size_t n) const {
    return static_cast<int>(n) >= minArgs && (maxArgs < 0 || static_cast<int>(n) <= maxArgs);
  }
  // The last component of the name: `syncthreads` for `numba.cuda.syncthreads`.
  std::string_view member() const { return name.substr(name.rfind('.') + 1); }
  // The name as numba users write it: `cuda.syncthreads` for `numba.cuda.syncthreads`.
  std::string_view shortName() const { return name.starts_with("numba.") ? name.substr(6) : name; }
};

// The row of `id` (not None).
const IntrinsicInfo& intrinsicInfo(Intrinsic id);
// Every row, in the table's order.
std::span<const IntrinsicInfo> allIntrinsics();
// The intrinsic a canonical qualified name (or a builtin's name) denotes, or None.
Intrinsic intrinsicNamed(std::string_view name);

// A libdevice function's prototype (LibdeviceFunctions.def's codes: f float32, d float64, i int32,
// l int64, h int16, v void): __nv_<name> returns `result` and writes `outputs` through pointers
// after its `values`.
struct LibdeviceSignature {
  char result;
  std::string_view values;
  std::string_view outputs;
};
// The prototype of a Libdevice intrinsic; null for any other.
const LibdeviceSignature* libdeviceSignature(Intrinsic id);

// The module `id` belongs to: `math` for math.sin, Builtin for range.
IntrinsicModule moduleOf(Intrinsic id);

// The axis of a thread, block, block-size or grid-size index: 0, 1, 2 for .x, .y, .z of
// threadIdx, blockIdx, blockDim, gridDim; -1 for any other intrinsic.
int indexAxis(Intrinsic id);
// threadIdx.<axis>, blockIdx.<axis>, blockDim.<axis>, gridDim.<axis>.
Intrinsic threadIdx(int axis);
Intrinsic blockIdx(int axis);
Intrinsic blockDim(int axis);
Intrinsic gridDim(int axis);
// Whether `id` is threadIdx.x, .y or .z.
bool isThreadIdx(Intrinsic id);

} // namespace pyk::sema
