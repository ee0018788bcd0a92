// TypeWarp: typing of numba.cuda's warp operations — activemask and lanemask_lt (uint32),
// all_sync/any_sync/eq_sync (boolean), ballot_sync (int32), shfl_*_sync (the value's type, a 32-
// or 64-bit integer or float), match_any_sync (int32) and match_all_sync ((int32, boolean)).
#include "sema/typing/FunctionTyper.h"

namespace pyk::sema {

OptType FunctionTyper::warpOperation(const IntrinsicInfo& info, const ast::Call* c,
                                     const std::vector<NumbaType>& args) {
  auto bad = [&] { return badArguments(info.name, c, args); };
  const NumbaType i32 = NumbaType::scalar(ScalarKind::Int32);
  const NumbaType boolean = NumbaType::scalar(ScalarKind::Boolean);
  const bool maskAndPredicate = args.size() == 2 && isIntegerType(args[0]) && args[1].isScalar();
  switch (info.typing) {
  case IntrinsicTyping::LaneMask:
    return args.empty() ? OptType(NumbaType::scalar(ScalarKind::UInt32)) : bad();
  case IntrinsicTyping::Vote:
    return maskAndPredicate ? OptType(boolean) : bad();
  case IntrinsicTyping::Ballot:
    return maskAndPredicate ? OptType(i32) : bad();
  case IntrinsicTyping::Shuffle: {
    if (args.size() != 3 || !isIntegerType(args[0]) || !isIntegerType(args[2]) ||
        !args[1].isScalar())
      return bad();
    const ScalarKind k = args[1].scalarKind();
    const bool ok = k == ScalarKind::Int32 || k == ScalarKind::Int64 || k == ScalarKind::UInt32 ||
                    k == ScalarKind::UInt64 || k == ScalarKind::Float32 || k == ScalarKind::Float64;
    return ok ? OptType(args[1]) : bad();
  }
  case IntrinsicTyping::MatchAny:
    return args.size() == 2 && args[1].isScalar() ? OptType(i32) : bad();
  case IntrinsicTyping::MatchAll:
    return args.size() == 2 && args[1].isScalar() ? OptType(NumbaType::tuple({i32, boolean}))
                                                  : bad();
  default:
    return bad();
  }
}

} // namespace pyk::sema
