// EmitWarp: numba.cuda's warp operations as C++ — lane masks, votes (eq_sync as all-or-none),
// ballots, shuffles and matches — through the backend's thread operations (CUDA's intrinsics; the
// CPU backend's fiber-mode warp).
#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

using sema::Intrinsic;

std::string UnitEmitter::warpOperation(const ir::IntrinsicCall* c) {
  auto op = [&](Intrinsic id, const std::vector<std::string>& args) {
    return target_.threadOperation(id, args);
  };
  // The mask, converted to uint32, and the other arguments as lowering converted them.
  auto arg = [&](size_t i) { return expr(c->args[i]); };
  switch (c->intrinsic) {
  case Intrinsic::Activemask:
    return "static_cast<pyk::uint32>(" + op(c->intrinsic, {}) + ")";
  case Intrinsic::LanemaskLt:
    return op(c->intrinsic, {});
  case Intrinsic::AllSync:
  case Intrinsic::AnySync:
    return "static_cast<bool>(" + op(c->intrinsic, {arg(0), arg(1)}) + ")";
  case Intrinsic::BallotSync:
    return "static_cast<pyk::int32>(" + op(c->intrinsic, {arg(0), arg(1)}) + ")";
  case Intrinsic::ShflSync:
  case Intrinsic::ShflUpSync:
  case Intrinsic::ShflDownSync:
  case Intrinsic::ShflXorSync:
    return op(c->intrinsic, {arg(0), arg(1), arg(2)});
  case Intrinsic::MatchAnySync:
    return "static_cast<pyk::int32>(" + op(c->intrinsic, {arg(0), arg(1)}) + ")";
  case Intrinsic::MatchAllSync: {
    const std::string result = type(c->type);
    return "[&] { int pred = 0; const unsigned int lanes = " +
           op(c->intrinsic, {arg(0), arg(1), "&pred"}) + "; return " + result +
           "{static_cast<pyk::int32>(lanes), pred != 0}; }()";
  }
  case Intrinsic::EqSync: {
    // True when the predicate is the same on every thread of the mask (vote.uni).
    std::string m = temp("mask"), p = temp("p");
    const std::string predicate = arg(1); // emitted before the mask, as operands on the right are
    return "[&] { const pyk::uint32 " + m + " = " + arg(0) + "; const bool " + p + " = " +
           predicate + "; return static_cast<bool>(" + op(Intrinsic::AllSync, {m, p}) + " || !" +
           op(Intrinsic::AnySync, {m, p}) + "); }()";
  }
  default:
    unsupported(c->range, "`" + std::string(sema::intrinsicInfo(c->intrinsic).name) + "`");
    return "0";
  }
}

} // namespace pyk::codegen
