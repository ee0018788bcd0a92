// BlockPrefetch: the arrays a kernel reads at its grid index (BlockPrefetch.h).
#include "codegen/cpu/BlockPrefetch.h"

#include <map>
#include <optional>
#include <set>

#include "codegen/cpu/VariableUses.h"

namespace pyk::codegen {

namespace {

bool isIntrinsicValue(const ir::Expr* e, sema::Intrinsic i) {
  const auto* v = unconverted(e)->as<ir::IntrinsicValue>();
  return v != nullptr && v->intrinsic == i;
}

struct AxisIntrinsics {
  sema::Intrinsic blockIdx, blockDim, threadIdx;
};
constexpr AxisIntrinsics kAxes[2] = {
    {sema::Intrinsic::BlockIdxX, sema::Intrinsic::BlockDimX, sema::Intrinsic::ThreadIdxX},
    {sema::Intrinsic::BlockIdxY, sema::Intrinsic::BlockDimY, sema::Intrinsic::ThreadIdxY}};

// Recognises a thread's grid index on x or y: `cuda.grid(1)` (x), the elements of `cuda.grid(2)`
// unpacked (`col, row = cuda.grid(2)`), `blockIdx.x * blockDim.x + threadIdx.x` (in any order;
// the same on y), and the locals assigned only one of those.
class GridIndex {
public:
  GridIndex(const ir::Function& f, const std::map<size_t, const ir::Expr*>& assigned)
      : f_(f), assigned_(assigned) {
    // The locals `a, b = cuda.grid(2)` gives: element k is the grid index on axis k.
    ir::forEachNode(f.body, [&](const ir::Node* n) {
      const auto* a = n->as<ir::Assign>();
      if (a == nullptr || a->targets.size() != 1)
        return;
      const auto* unpack = a->targets[0]->as<ir::UnpackTarget>();
      const auto* call = unconverted(a->value)->as<ir::IntrinsicCall>();
      if (unpack == nullptr || call == nullptr || call->intrinsic != sema::Intrinsic::Grid)
        return;
      for (size_t k = 0; k < unpack->elements.size() && k < 2; ++k)
        if (const auto* local = unpack->elements[k]->as<ir::LocalTarget>())
          unpacked_[local->variable.version] = static_cast<int>(k);
    });
  }

  // Whether `e` is the grid index on `axis` (0: x, 1: y).
  bool is(const ir::Expr* e, int axis, int depth = 0) const {
    e = unconverted(e);
    if (const auto* c = e->as<ir::IntrinsicCall>())
      return axis == 0 && c->intrinsic == sema::Intrinsic::Grid && c->type.isScalar();
    const AxisIntrinsics& on = kAxes[axis];
    if (const auto* b = e->as<ir::Binary>(); b != nullptr && b->op == ir::BinaryOp::Add)
      return (blockOffset(b->lhs, on) && isIntrinsicValue(b->rhs, on.threadIdx)) ||
             (blockOffset(b->rhs, on) && isIntrinsicValue(b->lhs, on.threadIdx));
    if (const auto* r = e->as<ir::Read>(); r != nullptr && depth < 8) {
      const ir::Version& v = f_.versions[r->variable.version];
      if (v.kind != ir::Version::Kind::Def)
        return false;
      if (const auto it = unpacked_.find(r->variable.version); it != unpacked_.end())
        return it->second == axis;
      const auto it = assigned_.find(r->variable.version);
      return it != assigned_.end() && is(it->second, axis, depth + 1);
    }
    return false;
  }

private:
  static bool blockOffset(const ir::Expr* e, const AxisIntrinsics& on) {
    const auto* m = unconverted(e)->as<ir::Binary>();
    return m != nullptr && m->op == ir::BinaryOp::Mult &&
           ((isIntrinsicValue(m->lhs, on.blockIdx) && isIntrinsicValue(m->rhs, on.blockDim)) ||
            (isIntrinsicValue(m->lhs, on.blockDim) && isIntrinsicValue(m->rhs, on.blockIdx)));
  }

  const ir::Function& f_;
  const std::map<size_t, const ir::Expr*>& assigned_;
  std::map<size_t, int> unpacked_; // version -> axis
};

// The array parameter `e` reads: the parameter itself, or a local only ever given it (a device
// function's parameter in the kernel's copy with the function inlined); nullopt otherwise.
std::optional<sema::VariableId> parameterRead(const ir::Function& kernel,
                                              const std::map<size_t, const ir::Expr*>& assigned,
                                              const ir::Expr* e) {
  for (int depth = 0; depth < 8; ++depth) {
    const auto* r = unconverted(e)->as<ir::Read>();
    if (r == nullptr)
      return std::nullopt;
    if (kernel.variables[r->variable.variable].parameter)
      return r->variable.variable;
    const auto it = assigned.find(r->variable.version);
    if (kernel.versions[r->variable.version].kind != ir::Version::Kind::Def || it == assigned.end())
      return std::nullopt;
    e = it->second;
  }
  return std::nullopt;
}

// The array parameters the elements in `body` read (through locals only ever given one) whose
// access `keep(element, array type)` accepts, in parameter order.
template <typename Keep>
std::vector<sema::VariableId>
argumentsRead(const ir::Function& kernel, const std::vector<ir::Stmt*>& body,
              const std::map<size_t, const ir::Expr*>& assigned, Keep&& keep) {
  std::set<sema::VariableId> read;
  ir::forEachNode(body, [&](const ir::Node* n) {
    const auto* e = n->as<ir::ArrayElement>();
    if (e == nullptr || !e->array->type.isArray())
      return;
    if (const std::optional<sema::VariableId> array = parameterRead(kernel, assigned, e->array);
        array && keep(*e, e->array->type))
      read.insert(*array);
  });
  return {read.begin(), read.end()};
}

bool contiguous1d(const types::NumbaType& t) {
  return t.ndim() == 1 && t.layout() != types::ArrayLayout::A;
}

} // namespace

std::vector<sema::VariableId> arraysReadAtGridIndex(const ir::Function& kernel) {
  if (kernel.kind != types::CompiledFunctionKind::Kernel)
    return {};
  const std::map<size_t, const ir::Expr*> assigned = assignedValues(kernel);
  const GridIndex gridIndex(kernel, assigned);
  return argumentsRead(
      kernel, kernel.body, assigned, [&](const ir::ArrayElement& e, const types::NumbaType& t) {
        // a[x] of a contiguous array; a[y, x] of a C-contiguous one (rows of
        // the block apart).
        if (e.indices.size() == 1)
          return contiguous1d(t) && gridIndex.is(e.indices[0], 0);
        return e.indices.size() == 2 && t.ndim() == 2 && t.layout() == types::ArrayLayout::C &&
               gridIndex.is(e.indices[0], 1) && gridIndex.is(e.indices[1], 0);
      });
}

std::vector<sema::VariableId> arraysReadAtCounter(const ir::Function& kernel,
                                                  const ir::ForRange& loop) {
  const auto* counter = loop.target->as<ir::LocalTarget>();
  if (counter == nullptr)
    return {};
  return argumentsRead(kernel, loop.body, assignedValues(kernel),
                       [&](const ir::ArrayElement& e, const types::NumbaType& t) {
                         const auto* index = e.indices.size() == 1
                                                 ? unconverted(e.indices[0])->as<ir::Read>()
                                                 : nullptr;
                         return index != nullptr &&
                                index->variable.variable == counter->variable.variable &&
                                contiguous1d(t);
                       });
}

} // namespace pyk::codegen
