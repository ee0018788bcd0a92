// ThreadModelScan: a walk over each function of the module for the intrinsics whose properties
// (Intrinsics.def) say they synchronise a block or a warp.
#include "codegen/cpu/ThreadModelScan.h"

namespace pyk::codegen {

const ir::IntrinsicCall* firstIntrinsicCall(const ir::Node* n, uint32_t flag) {
  const ir::IntrinsicCall* found = nullptr;
  ir::forEachNode(n, [&](const ir::Node* x) {
    if (found == nullptr)
      if (const auto* c = x->as<ir::IntrinsicCall>();
          c != nullptr && sema::intrinsicInfo(c->intrinsic).has(flag))
        found = c;
  });
  return found;
}

const ir::IntrinsicCall* firstIntrinsicCall(const std::vector<ir::Stmt*>& body, uint32_t flag) {
  for (const ir::Stmt* s : body)
    if (const ir::IntrinsicCall* c = firstIntrinsicCall(s, flag))
      return c;
  return nullptr;
}

std::string intrinsicNameOf(const ir::IntrinsicCall* c) {
  return std::string(sema::intrinsicInfo(c->intrinsic).shortName());
}

std::vector<ThreadModelUse> scanThreadModel(const ir::Module& module) {
  std::vector<ThreadModelUse> uses;
  for (const auto& f : module.functions())
    uses.push_back({f.get(), firstIntrinsicCall(f->body, sema::intrinsic_flags::WarpCollective),
                    firstIntrinsicCall(f->body, sema::intrinsic_flags::Barrier)});
  return uses;
}

} // namespace pyk::codegen
