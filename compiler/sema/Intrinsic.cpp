// Intrinsic: the rows of Intrinsics.def as a table, and lookup by name.
#include "sema/Intrinsic.h"

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
#include "sema/Intrinsics.def"
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

Intrinsic intrinsicNamed(std::string_view name) {
  auto it = byName().find(name);
  return it == byName().end() ? Intrinsic::None : it->second;
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
