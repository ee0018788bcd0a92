// grid_group.h: the value `cuda.cg.this_grid()` gives, whose one operation is the grid barrier.
#pragma once

namespace pyk {

// `cuda.cg.this_grid()`: the whole grid as a group; its one operation, `.sync()`, is emitted as
// grid_sync() (cuda/grid_barrier.h on the device, cpu/barriers.h on the CPU).
struct GridGroup {};

} // namespace pyk
