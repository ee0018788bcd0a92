// IntrinsicTableTest: Intrinsics.def is the one declaration of numba's device API — every row
// found by its name, the catalog's device entries all rows of it, spellings where the emitters
// read them, and the properties the CPU backend's analyses rely on set where they must be.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sema/catalog/Intrinsic.h"
#include "sema/catalog/ModuleApiCatalog.h"

namespace {

using pyk::sema::allIntrinsics;
using pyk::sema::ApiKind;
using pyk::sema::Intrinsic;
using pyk::sema::intrinsicInfo;
using pyk::sema::IntrinsicInfo;
using pyk::sema::IntrinsicKind;
using pyk::sema::intrinsicNamed;
using pyk::sema::IntrinsicTyping;
namespace flags = pyk::sema::intrinsic_flags;

TEST(IntrinsicTable, EveryRowIsFoundByItsNameOnce) {
  std::set<std::string> names;
  for (const IntrinsicInfo& row : allIntrinsics()) {
    EXPECT_TRUE(names.insert(std::string(row.name)).second) << row.name << " is declared twice";
    EXPECT_EQ(intrinsicNamed(row.name), row.id) << row.name;
    EXPECT_EQ(&intrinsicInfo(row.id), &row) << row.name;
    EXPECT_TRUE(row.maxArgs < 0 || row.minArgs <= row.maxArgs) << row.name;
  }
  EXPECT_EQ(intrinsicNamed("numba.cuda.no_such_thing"), Intrinsic::None);
  EXPECT_EQ(intrinsicNamed("any"), Intrinsic::None); // a builtin pyk does not type
}

TEST(IntrinsicTable, TheCatalogsDeviceEntriesAreTheTablesRows) {
  for (const IntrinsicInfo& row : allIntrinsics()) {
    const bool builtin = row.name.find('.') == std::string_view::npos;
    const std::optional<pyk::sema::ApiEntity> entity = pyk::sema::lookupApi(row.name);
    if (builtin || row.has(flags::HostOnly)) {
      EXPECT_FALSE(entity.has_value()) << row.name << " must not be a module member";
      continue;
    }
    ASSERT_TRUE(entity.has_value()) << row.name << " is not in the catalog";
    EXPECT_EQ(entity->intrinsic, row.id) << row.name;
    const ApiKind expected = row.kind == IntrinsicKind::Value      ? ApiKind::DeviceValue
                             : row.kind == IntrinsicKind::Constant ? ApiKind::Constant
                                                                   : ApiKind::DeviceFunction;
    EXPECT_EQ(entity->kind, expected) << row.name;
  }
  // And nothing callable in device code is declared anywhere else.
  for (const char* module : {"numba.cuda", "numba.cuda.atomic", "numba.cuda.fp16", "math", "cmath",
                             "numpy", "numba.cuda.random"})
    for (const std::string& member : pyk::sema::apiMembers(module)) {
      const std::string name = std::string(module) + "." + member;
      const std::optional<pyk::sema::ApiEntity> entity = pyk::sema::lookupApi(name);
      const bool device =
          entity && (entity->kind == ApiKind::DeviceFunction ||
                     entity->kind == ApiKind::DeviceValue || entity->kind == ApiKind::Constant);
      if (device) {
        EXPECT_NE(entity->intrinsic, Intrinsic::None) << name << " is not in Intrinsics.def";
      }
    }
}

TEST(IntrinsicTable, ConstantsCarryTheirValues) {
  EXPECT_DOUBLE_EQ(intrinsicInfo(Intrinsic::MathPi).value, 3.141592653589793);
  EXPECT_DOUBLE_EQ(pyk::sema::lookupApi("numpy.e")->constantValue, 2.718281828459045);
  EXPECT_LT(pyk::sema::lookupApi("numpy.NINF")->constantValue, 0);
  EXPECT_EQ(intrinsicInfo(Intrinsic::MathPi).cuda, "3.141592653589793");
}

TEST(IntrinsicTable, ThreadModelOperationsAreSpeltForBothBackends) {
  using pyk::sema::familyOf;
  using pyk::sema::IntrinsicFamily;
  for (const IntrinsicInfo& row : allIntrinsics()) {
    const IntrinsicFamily family = familyOf(row.typing);
    const bool spelt =
        row.typing == IntrinsicTyping::Int32Value ||
        (family == IntrinsicFamily::ThreadModel && row.typing != IntrinsicTyping::GridIndex &&
         row.typing != IntrinsicTyping::ThisGrid) ||
        (family == IntrinsicFamily::Warp && row.id != Intrinsic::EqSync) || // eq_sync: composed
        row.typing == IntrinsicTyping::BitCount || row.typing == IntrinsicTyping::FirstSet ||
        row.typing == IntrinsicTyping::BitReverse;
    if (spelt) {
      EXPECT_FALSE(row.cuda.empty()) << row.name;
      EXPECT_FALSE(row.cpu.empty()) << row.name;
    }
  }
}

TEST(IntrinsicTable, EveryTypingRuleHasItsFamily) {
  using pyk::sema::familyOf;
  using pyk::sema::IntrinsicFamily;
  EXPECT_EQ(familyOf(IntrinsicTyping::Shuffle), IntrinsicFamily::Warp);
  EXPECT_EQ(familyOf(IntrinsicTyping::AtomicCas), IntrinsicFamily::Atomic);
  EXPECT_EQ(familyOf(IntrinsicTyping::MathLdexp), IntrinsicFamily::Math);
  EXPECT_EQ(familyOf(IntrinsicTyping::BarrierPredicate), IntrinsicFamily::ThreadModel);
  for (const IntrinsicInfo& row : allIntrinsics()) {
    const IntrinsicFamily family = familyOf(row.typing);
    const bool value = row.kind == IntrinsicKind::Value || row.kind == IntrinsicKind::Constant;
    EXPECT_EQ(value, family == IntrinsicFamily::Value) << row.name;
    EXPECT_EQ(row.kind == IntrinsicKind::Library, family == IntrinsicFamily::Library) << row.name;
    // Every math function kernels may call is typed by a math rule, and only math's are.
    const bool math = pyk::sema::moduleOf(row.id) == pyk::sema::IntrinsicModule::Math;
    const bool callable = row.kind == IntrinsicKind::Function && !row.has(flags::HostOnly);
    EXPECT_TRUE(!(math && callable) || family == IntrinsicFamily::Math) << row.name;
    EXPECT_TRUE(family != IntrinsicFamily::Math || math) << row.name;
  }
}

TEST(IntrinsicTable, BarriersAndWarpOperationsAreMarked) {
  const std::set<Intrinsic> barriers = {Intrinsic::Syncthreads, Intrinsic::SyncthreadsCount,
                                        Intrinsic::SyncthreadsAnd, Intrinsic::SyncthreadsOr};
  for (const IntrinsicInfo& row : allIntrinsics()) {
    EXPECT_EQ(row.has(flags::Barrier), barriers.count(row.id) == 1) << row.name;
    const bool warp =
        row.typing == IntrinsicTyping::Vote || row.typing == IntrinsicTyping::Ballot ||
        row.typing == IntrinsicTyping::Shuffle || row.typing == IntrinsicTyping::MatchAny ||
        row.typing == IntrinsicTyping::MatchAll || row.id == Intrinsic::Activemask ||
        row.id == Intrinsic::Syncwarp;
    EXPECT_EQ(row.has(flags::WarpCollective), warp) << row.name;
  }
}

TEST(IntrinsicTable, IndexValuesKnowTheirAxisAndUniformity) {
  for (int axis = 0; axis < 3; ++axis) {
    EXPECT_EQ(pyk::sema::indexAxis(pyk::sema::threadIdx(axis)), axis);
    EXPECT_EQ(pyk::sema::indexAxis(pyk::sema::gridDim(axis)), axis);
    EXPECT_TRUE(pyk::sema::isThreadIdx(pyk::sema::threadIdx(axis)));
    EXPECT_FALSE(pyk::sema::isThreadIdx(pyk::sema::blockIdx(axis)));
    EXPECT_TRUE(intrinsicInfo(pyk::sema::threadIdx(axis)).has(flags::ThreadIndex));
    EXPECT_FALSE(intrinsicInfo(pyk::sema::threadIdx(axis)).has(flags::BlockUniform));
    EXPECT_TRUE(intrinsicInfo(pyk::sema::blockDim(axis)).has(flags::BlockUniform));
    EXPECT_TRUE(intrinsicInfo(pyk::sema::blockIdx(axis)).has(flags::NonNegative));
  }
  EXPECT_EQ(pyk::sema::indexAxis(Intrinsic::Laneid), -1);
  EXPECT_EQ(intrinsicInfo(Intrinsic::SyncthreadsCount).shortName(), "cuda.syncthreads_count");
  EXPECT_EQ(intrinsicInfo(Intrinsic::MathSin).shortName(), "math.sin");
}

} // namespace
