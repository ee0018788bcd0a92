// ThreadModelScan: a walk over each function of the module for the intrinsics whose properties
// (Intrinsics.def) say they synchronise a block or a warp.
#include "codegen/cpu/ThreadModelScan.h"

#include <set>

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

std::set<const ir::Function*> functionsCalledBy(const ir::Function& kernel) {
  std::set<const ir::Function*> reached;
  std::vector<const ir::Function*> work{&kernel};
  while (!work.empty()) {
    const ir::Function* f = work.back();
    work.pop_back();
    ir::forEachNode(f->body, [&](const ir::Node* n) {
      if (const auto* c = n->as<ir::Call>(); c != nullptr && reached.insert(c->callee).second)
        work.push_back(c->callee);
    });
  }
  return reached;
}

std::vector<ThreadModelUse> scanThreadModel(const ir::Module& module, const ir::Function& kernel) {
  const std::set<const ir::Function*> reached = functionsCalledBy(kernel);
  auto use = [](const ir::Function* f) {
    return ThreadModelUse{f, firstIntrinsicCall(f->body, sema::intrinsic_flags::WarpCollective),
                          firstIntrinsicCall(f->body, sema::intrinsic_flags::Barrier)};
  };
  std::vector<ThreadModelUse> uses{use(&kernel)};
  for (const auto& f : module.functions())
    if (f.get() != &kernel && reached.count(f.get()))
      uses.push_back(use(f.get()));
  return uses;
}

} // namespace pyk::codegen
