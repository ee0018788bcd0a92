// LaunchValidation: CUDA's launch limits (compute capability 9.0; the same on every pyk backend).
#include "module/LaunchValidation.h"

namespace pyk::detail {

namespace {

constexpr std::int64_t kMaxGrid[3] = {2147483647, 65535, 65535};
constexpr std::int64_t kMaxBlock[3] = {1024, 1024, 64};
constexpr std::int64_t kMaxThreadsPerBlock = 1024;

std::string describe(const Dim3& d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

} // namespace

void validateLaunch(const std::string& kernel, const LaunchShape& shape, std::size_t shared_bytes,
                    std::size_t maxSharedBytes, std::optional<std::int64_t> boundsThreads) {
  const std::int64_t grid[3] = {shape.grid.x, shape.grid.y, shape.grid.z};
  const std::int64_t block[3] = {shape.block.x, shape.block.y, shape.block.z};
  bool ok = shared_bytes <= maxSharedBytes;
  for (int a = 0; a < 3; ++a)
    ok = ok && grid[a] >= 1 && grid[a] <= kMaxGrid[a] && block[a] >= 1 && block[a] <= kMaxBlock[a];
  const std::int64_t limit = boundsThreads.value_or(kMaxThreadsPerBlock);
  if (ok && block[0] * block[1] * block[2] <= limit)
    return; // the common case builds no message
  const std::string prefix = "cannot launch `" + kernel + "`: ";
  const char* axes = "xyz";
  for (int a = 0; a < 3; ++a) {
    if (grid[a] < 1 || grid[a] > kMaxGrid[a])
      throw Error(ErrorKind::InvalidLaunch,
                  prefix + "the grid " + describe(shape.grid) + " has " + std::to_string(grid[a]) +
                      " blocks along " + axes[a] + "; CUDA allows 1 to " +
                      std::to_string(kMaxGrid[a]) + " (maxGridSize." + axes[a] + ")");
    if (block[a] < 1 || block[a] > kMaxBlock[a])
      throw Error(ErrorKind::InvalidLaunch,
                  prefix + "the block " + describe(shape.block) + " has " +
                      std::to_string(block[a]) + " threads along " + axes[a] +
                      "; CUDA allows 1 to " + std::to_string(kMaxBlock[a]) + " (maxThreadsDim." +
                      axes[a] + ")");
  }
  const std::int64_t threads = block[0] * block[1] * block[2];
  if (threads > kMaxThreadsPerBlock)
    throw Error(ErrorKind::InvalidLaunch,
                prefix + "the block " + describe(shape.block) + " has " + std::to_string(threads) +
                    " threads; CUDA allows at most " + std::to_string(kMaxThreadsPerBlock) +
                    " per block (maxThreadsPerBlock)");
  if (threads > limit)
    throw Error(ErrorKind::InvalidLaunch,
                prefix + "the block " + describe(shape.block) + " has " + std::to_string(threads) +
                    " threads; its decorator's launch_bounds allow at most " +
                    std::to_string(limit) + " per block");
  throw Error(ErrorKind::InvalidLaunch,
              prefix + std::to_string(shared_bytes) +
                  " bytes of dynamic shared memory; a block may have at most " +
                  std::to_string(maxSharedBytes) +
                  (maxSharedBytes == 48 * 1024 ? " (sharedMemPerBlock)"
                                               : " on this device (sharedMemPerBlockOptin)"));
}

} // namespace pyk::detail
