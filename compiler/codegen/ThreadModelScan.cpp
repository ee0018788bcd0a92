// ThreadModelScan: a walk over each reached function for the intrinsics whose properties
// (Intrinsics.def) say they synchronise a block or a warp.
#include "codegen/ThreadModelScan.h"

namespace pyk::codegen {

const ast::Call* firstIntrinsicCall(const sema::Specialization& spec, const ast::Node* n,
                                    uint32_t flag) {
  const ast::Call* found = nullptr;
  ast::forEachNode(n, [&](const ast::Node* x) {
    if (found == nullptr)
      if (const auto* c = x->as<ast::Call>())
        if (const sema::Intrinsic id = spec.intrinsicOf(c->func);
            id != sema::Intrinsic::None && sema::intrinsicInfo(id).has(flag))
          found = c;
  });
  return found;
}

std::string intrinsicNameOf(const sema::Specialization& spec, const ast::Call* c) {
  return std::string(sema::intrinsicInfo(spec.intrinsicOf(c->func)).shortName());
}

std::vector<ThreadModelUse>
scanThreadModel(const std::vector<const sema::Specialization*>& reached) {
  std::vector<ThreadModelUse> uses;
  for (const sema::Specialization* s : reached)
    uses.push_back({s,
                    firstIntrinsicCall(*s, s->function->def, sema::intrinsic_flags::WarpCollective),
                    firstIntrinsicCall(*s, s->function->def, sema::intrinsic_flags::Barrier)});
  return uses;
}

} // namespace pyk::codegen
