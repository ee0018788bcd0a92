// Intrinsic: the rows of Intrinsics.def as a table, and lookup by name.
#include "sema/catalog/Intrinsic.h"

#include <algorithm>
#include <limits>
#include <numbers>
#include <string>
#include <unordered_map>
#include <vector>

namespace pyk::sema {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using namespace intrinsic_flags;

constexpr IntrinsicInfo kTable[] = {
#define INTRINSIC(Id, Name, Kind, Typing, MinArgs, MaxArgs, Value, Cuda, Cpu, Flags)               \
  IntrinsicInfo{Intrinsic::Id,                                                                     \
                Name,                                                                              \
                IntrinsicKind::Kind,                                                               \
                IntrinsicTyping::Typing,                                                           \
                MinArgs,                                                                           \
                MaxArgs,                                                                           \
                static_cast<double>(Value),                                                        \
                Cuda,                                                                              \
                Cpu,                                                                               \
                static_cast<uint32_t>(Flags)},
#include "sema/catalog/Intrinsics.def"
};

// The table is in enum order: row i is Intrinsic(i + 1).
constexpr bool inEnumOrder() {
  for (size_t i = 0; i < std::size(kTable); ++i)
    if (static_cast<size_t>(kTable[i].id) != i + 1)
      return false;
  return true;
}
static_assert(inEnumOrder());

const std::unordered_map<std::string_view, Intrinsic>& byName() {
  static const auto* map = [] {
    auto* m = new std::unordered_map<std::string_view, Intrinsic>;
    for (const IntrinsicInfo& row : kTable)
      m->emplace(row.name, row.id);
    return m;
  }();
  return *map;
}

constexpr Intrinsic kThreadIdx[] = {Intrinsic::ThreadIdxX, Intrinsic::ThreadIdxY,
                                    Intrinsic::ThreadIdxZ};
constexpr Intrinsic kBlockIdx[] = {Intrinsic::BlockIdxX, Intrinsic::BlockIdxY,
                                   Intrinsic::BlockIdxZ};
constexpr Intrinsic kBlockDim[] = {Intrinsic::BlockDimX, Intrinsic::BlockDimY,
                                   Intrinsic::BlockDimZ};
constexpr Intrinsic kGridDim[] = {Intrinsic::GridDimX, Intrinsic::GridDimY, Intrinsic::GridDimZ};

} // namespace

const IntrinsicInfo& intrinsicInfo(Intrinsic id) {
  return kTable[static_cast<size_t>(id) - 1];
}

std::span<const IntrinsicInfo> allIntrinsics() {
  return kTable;
}

const LibdeviceSignature* libdeviceSignature(Intrinsic id) {
  static const auto* signatures = [] {
    auto* m = new std::unordered_map<Intrinsic, LibdeviceSignature>;
#define LIBDEVICE(Id, Name, Result, Values, Outputs)                                               \
  m->emplace(Intrinsic::Id, LibdeviceSignature{Result[0], Values, Outputs});
#include "sema/catalog/LibdeviceFunctions.def"
#undef LIBDEVICE
    return m;
  }();
  auto it = signatures->find(id);
  return it == signatures->end() ? nullptr : &it->second;
}

Intrinsic intrinsicNamed(std::string_view name) {
  auto it = byName().find(name);
  return it == byName().end() ? Intrinsic::None : it->second;
}

IntrinsicFamily familyOf(IntrinsicTyping typing) {
  using T = IntrinsicTyping;
  using F = IntrinsicFamily;
  switch (typing) {
  case T::Int32Value:
  case T::Float64Constant:
  case T::HostConstant:
    return F::Value;
  case T::GridIndex:
  case T::ThisGrid:
  case T::Void:
  case T::BarrierPredicate:
    return F::ThreadModel;
  case T::ArrayConstructor:
  case T::ConstArrayLike:
    return F::Memory;
  case T::AtomicArithmetic:
  case T::AtomicBitwise:
  case T::AtomicIncDec:
  case T::AtomicCas:
  case T::AtomicCompareAndSwap:
    return F::Atomic;
  case T::CacheHintLoad:
  case T::CacheHintStore:
    return F::CacheHint;
  case T::LaneMask:
  case T::Vote:
  case T::Ballot:
  case T::Shuffle:
  case T::MatchAny:
  case T::MatchAll:
    return F::Warp;
  case T::BitCount:
  case T::FirstSet:
  case T::BitReverse:
  case T::SameFloat:
  case T::Select:
  case T::Half:
  case T::HalfPredicate:
    return F::IntegerAndFloat;
  case T::MathUnary:
  case T::MathClassify:
  case T::MathFrexp:
  case T::MathModf:
  case T::MathAtan2:
  case T::MathBinary:
  case T::MathPow:
  case T::MathLdexp:
    return F::Math;
  case T::CmathComplex:
  case T::CmathPhase:
  case T::CmathPolar:
  case T::CmathClassify:
  case T::CmathRect:
    return F::Cmath;
  case T::Range:
  case T::Enumerate:
  case T::Zip:
    return F::Iteration;
  case T::Len:
  case T::Print:
  case T::Abs:
  case T::MinMax:
  case T::Round:
  case T::IntCast:
  case T::FloatCast:
  case T::BoolCast:
  case T::ComplexCast:
  case T::BuiltinPow:
  case T::Divmod:
  case T::BuiltinSum:
  case T::TupleCopy:
  case T::RealImag:
  case T::BufferPointer:
  case T::OperatorFunction:
    return F::Builtin;
  case T::VectorConstructor:
    return F::Vector;
  case T::Libdevice:
    return F::Libdevice;
  case T::LibraryFunction:
    return F::Library;
  case T::NumpyUfunc:
    return F::Ufunc;
  case T::NotYetTyped:
    return F::NotYetTyped;
  }
  return F::NotYetTyped;
}

IntrinsicModule moduleOf(Intrinsic id) {
  const std::string_view name = intrinsicInfo(id).name;
  if (name.starts_with("numba.cuda."))
    return IntrinsicModule::NumbaCuda;
  if (name.starts_with("math."))
    return IntrinsicModule::Math;
  if (name.starts_with("cmath."))
    return IntrinsicModule::Cmath;
  if (name.starts_with("numpy."))
    return IntrinsicModule::Numpy;
  if (name.starts_with("operator."))
    return IntrinsicModule::Operator;
  return IntrinsicModule::Builtin;
}

int indexAxis(Intrinsic id) {
  for (const Intrinsic* family : {kThreadIdx, kBlockIdx, kBlockDim, kGridDim})
    for (int axis = 0; axis < 3; ++axis)
      if (family[axis] == id)
        return axis;
  return -1;
}

Intrinsic threadIdx(int axis) {
  return kThreadIdx[axis];
}
Intrinsic blockIdx(int axis) {
  return kBlockIdx[axis];
}
Intrinsic blockDim(int axis) {
  return kBlockDim[axis];
}
Intrinsic gridDim(int axis) {
  return kGridDim[axis];
}

bool isThreadIdx(Intrinsic id) {
  return std::find(std::begin(kThreadIdx), std::end(kThreadIdx), id) != std::end(kThreadIdx);
}

} // namespace pyk::sema
