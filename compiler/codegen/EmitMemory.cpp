// EmitMemory: the arrays a kernel makes, as C++ — `cuda.shared.array` (static shared storage
// placed at an offset of the block's shared memory, or the dynamic shared buffer for size 0),
// `cuda.local.array` (a C array per thread), `cuda.const.array_like` (the frozen module array).
#include "codegen/UnitEmitter.h"

namespace pyk::codegen {

std::string UnitEmitter::arrayConstructor(const sema::IntrinsicInfo& info, const ast::Call* c,
                                          const NumbaType* t) {
  if (info.id == sema::Intrinsic::ConstArrayLike) {
    if (t == nullptr)
      return "0";
    return expr(c->args[0]); // the frozen module array is already a constant view
  }
  const bool shared = info.id == sema::Intrinsic::SharedArray;
  const ast::Expr* shapeArg = c->args.empty() ? nullptr : c->args[0];
  for (const ast::Keyword& k : c->keywords)
    if (k.arg == "shape")
      shapeArg = k.value;
  std::vector<int64_t> shape = shapeArg ? constantShape(shapeArg) : std::vector<int64_t>{};
  if (t == nullptr || shape.empty()) {
    unsupported(c->range, "this array");
    return "0";
  }
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  const std::string item = elementCpp(*t); // a scalar, or a record's struct
  if (count == 0 && shared)
    return target_.dynamicSharedArray(item);
  if (count == 0) {
    unsupported(c->range, "a local array of size 0");
    return "0";
  }
  std::string name = temp(shared ? "shared" : "local");
  if (shared)
    line(target_.sharedStorage(item, name, count, sharedOffsetOf(c, count * itemBytes(*t))));
  else
    line(target_.localStorage(item, name, count, count * itemBytes(*t)));
  return arrayView(name, *t, shape);
}

int64_t UnitEmitter::sharedOffsetOf(const ast::Call* call, int64_t bytes) {
  // Per specialization: a device function specialized twice (for two shapes, two dtypes) makes
  // two arrays from one call.
  const std::pair<const Specialization*, const ast::Call*> key{spec_, call};
  if (auto it = sharedOffsets_.find(key); it != sharedOffsets_.end())
    return it->second;
  const int64_t offset = (sharedBytes_ + 15) / 16 * 16;
  sharedBytes_ = offset + bytes;
  sharedOffsets_.emplace(key, offset);
  return offset;
}

} // namespace pyk::codegen
