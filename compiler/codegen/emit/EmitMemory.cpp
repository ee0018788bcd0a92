// EmitMemory: the arrays a kernel makes, as C++ — `cuda.shared.array` (static shared storage
// placed at an offset of the block's shared memory, or the dynamic shared buffer for size 0) and
// `cuda.local.array` (a C array per thread). (`cuda.const.array_like` is the frozen module
// array itself: lowering gives its value.) On the CPU backend, also a block entry's prefetch of
// the arrays its worker's next blocks read (codegen/cpu/BlockPrefetch.h).
#include <algorithm>

#include "codegen/emit/UnitEmitter.h"

namespace pyk::codegen {

std::string UnitEmitter::visitArrayAllocation(const ir::ArrayAllocation* a) {
  const bool shared = a->intrinsic == sema::Intrinsic::SharedArray;
  int64_t count = 1;
  for (int64_t d : a->shape)
    count *= d;
  const std::string item = elementCpp(a->type); // a scalar, or a record's struct
  if (count == 0 && shared)
    return target_.dynamicSharedArray(item);
  std::string name = temp(shared ? "shared" : "local");
  if (shared)
    line(target_.sharedStorage(item, name, count, sharedOffsetOf(a, count * itemBytes(a->type)),
                               a->alignment));
  else
    line(target_.localStorage(item, name, count, count * itemBytes(a->type), a->alignment));
  return arrayView(name, a->type, a->shape);
}

int64_t UnitEmitter::sharedOffsetOf(const ir::ArrayAllocation* a, int64_t bytes) {
  // Per function specialization: a device function specialized twice (for two shapes, two
  // dtypes) makes two arrays from one call, each a node of its own.
  if (auto it = sharedOffsets_.find(a); it != sharedOffsets_.end())
    return it->second;
  // 16 bytes, or the array's alignment= (the block's shared memory is aligned to the largest one
  // typing allows, base/ArrayAlignment.h).
  const int64_t align = std::max<int64_t>(16, a->alignment);
  const int64_t offset = (sharedBytes_ + align - 1) / align * align;
  sharedBytes_ = offset + bytes;
  sharedOffsets_.emplace(a, offset);
  return offset;
}

void UnitEmitter::prefetchAhead(const ir::Function& kernel,
                                const std::vector<std::string>& argumentNames) {
  for (sema::VariableId v : arraysReadAtGridIndex(kernel))
    line("pyk::cpu::prefetch_ahead(pyk_ctx, " + argumentNames[v] + "); // `" +
         kernel.variableName(v) + "` of the blocks this worker runs next");
}

} // namespace pyk::codegen
