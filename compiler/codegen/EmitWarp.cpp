// EmitWarp: numba.cuda's warp operations as C++ — lane masks, votes (eq_sync as all-or-none),
// ballots, shuffles and matches — through the backend's thread operations (CUDA's intrinsics; the
// CPU backend's fiber-mode warp).
#include "codegen/UnitEmitter.h"

namespace pyk::codegen {

using sema::Intrinsic;

std::string UnitEmitter::warpOperation(const sema::IntrinsicInfo& info, const ast::Call* c,
                                       const NumbaType& t) {
  const NumbaType u32 = NumbaType::scalar(ScalarKind::UInt32);
  auto op = [&](Intrinsic id, const std::vector<std::string>& args) {
    return target_.threadOperation(id, args);
  };
  auto mask = [&] { return castTo(c->args[0], u32); };
  switch (info.id) {
  case Intrinsic::Activemask:
    return "static_cast<pyk::uint32>(" + op(info.id, {}) + ")";
  case Intrinsic::LanemaskLt:
    return op(info.id, {});
  case Intrinsic::AllSync:
  case Intrinsic::AnySync:
    return "static_cast<bool>(" + op(info.id, {mask(), truthy(c->args[1])}) + ")";
  case Intrinsic::BallotSync:
    return "static_cast<pyk::int32>(" + op(info.id, {mask(), truthy(c->args[1])}) + ")";
  case Intrinsic::ShflSync:
  case Intrinsic::ShflUpSync:
  case Intrinsic::ShflDownSync:
  case Intrinsic::ShflXorSync:
    return op(info.id,
              {mask(), expr(c->args[1]), castTo(c->args[2], NumbaType::scalar(ScalarKind::Int32))});
  case Intrinsic::MatchAnySync:
    return "static_cast<pyk::int32>(" + op(info.id, {mask(), expr(c->args[1])}) + ")";
  case Intrinsic::MatchAllSync:
    return "[&] { int pred = 0; const unsigned int lanes = " +
           op(info.id, {mask(), expr(c->args[1]), "&pred"}) + "; return " + type(t) +
           "{static_cast<pyk::int32>(lanes), pred != 0}; }()";
  case Intrinsic::EqSync: {
    // True when the predicate is the same on every thread of the mask (vote.uni).
    std::string m = temp("mask"), p = temp("p");
    return "[&] { const pyk::uint32 " + m + " = " + mask() + "; const bool " + p + " = " +
           truthy(c->args[1]) + "; return static_cast<bool>(" + op(Intrinsic::AllSync, {m, p}) +
           " || !" + op(Intrinsic::AnySync, {m, p}) + "); }()";
  }
  default:
    unsupported(c->range, "`" + std::string(info.name) + "`");
    return "0";
  }
}

} // namespace pyk::codegen
