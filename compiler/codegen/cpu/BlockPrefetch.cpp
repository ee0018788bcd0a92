// BlockPrefetch: the arrays a kernel reads at its grid index (BlockPrefetch.h).
#include "codegen/cpu/BlockPrefetch.h"

#include <map>
#include <set>

#include "codegen/cpu/VariableUses.h"

namespace pyk::codegen {

namespace {

bool isIntrinsicValue(const ir::Expr* e, sema::Intrinsic i) {
  const auto* v = unconverted(e)->as<ir::IntrinsicValue>();
  return v != nullptr && v->intrinsic == i;
}

// Recognises the grid index on x: `cuda.grid(1)`, `blockIdx.x * blockDim.x + threadIdx.x` (in
// any order), and the locals assigned only that.
class GridIndexX {
public:
  explicit GridIndexX(const ir::Function& f) : f_(f), assigned_(assignedValues(f)) {}

  bool is(const ir::Expr* e, int depth = 0) const {
    e = unconverted(e);
    if (const auto* c = e->as<ir::IntrinsicCall>())
      return c->intrinsic == sema::Intrinsic::Grid && c->type.isScalar();
    if (const auto* b = e->as<ir::Binary>(); b != nullptr && b->op == ir::BinaryOp::Add)
      return (blockOffset(b->lhs) && isIntrinsicValue(b->rhs, sema::Intrinsic::ThreadIdxX)) ||
             (blockOffset(b->rhs) && isIntrinsicValue(b->lhs, sema::Intrinsic::ThreadIdxX));
    if (const auto* r = e->as<ir::Read>(); r != nullptr && depth < 8) {
      const ir::Version& v = f_.versions[r->variable.version];
      const auto it = assigned_.find(r->variable.version);
      return v.kind == ir::Version::Kind::Def && it != assigned_.end() && is(it->second, depth + 1);
    }
    return false;
  }

private:
  static bool blockOffset(const ir::Expr* e) {
    const auto* m = unconverted(e)->as<ir::Binary>();
    return m != nullptr && m->op == ir::BinaryOp::Mult &&
           ((isIntrinsicValue(m->lhs, sema::Intrinsic::BlockIdxX) &&
             isIntrinsicValue(m->rhs, sema::Intrinsic::BlockDimX)) ||
            (isIntrinsicValue(m->lhs, sema::Intrinsic::BlockDimX) &&
             isIntrinsicValue(m->rhs, sema::Intrinsic::BlockIdxX)));
  }

  const ir::Function& f_;
  std::map<size_t, const ir::Expr*> assigned_;
};

} // namespace

std::vector<sema::VariableId> arraysReadAtGridIndex(const ir::Function& kernel) {
  if (kernel.kind != types::CompiledFunctionKind::Kernel)
    return {};
  const GridIndexX gridIndex(kernel);
  std::set<sema::VariableId> read;
  ir::forEachNode(kernel.body, [&](const ir::Node* n) {
    const auto* e = n->as<ir::ArrayElement>();
    if (e == nullptr || e->indices.size() != 1)
      return;
    const auto* array = e->array->as<ir::Read>();
    if (array == nullptr || !kernel.variables[array->variable.variable].parameter)
      return;
    const types::NumbaType& t = e->array->type;
    if (t.isArray() && t.ndim() == 1 && t.layout() != types::ArrayLayout::A &&
        gridIndex.is(e->indices[0]))
      read.insert(array->variable.variable);
  });
  return {read.begin(), read.end()};
}

} // namespace pyk::codegen
