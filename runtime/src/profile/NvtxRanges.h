// NvtxRanges: NVTX ranges around pyk's compiles and launches, for NVIDIA's profilers (Nsight
// Systems, Nsight Compute), on when PYK_NVTX=1. pyk is its own NVTX v3 client (NvtxClient.cpp):
// the toolkit's header-only NVTX is not in Debian, and the protocol a profiler speaks to its
// clients is small and stable. A profiler names its injection library in NVTX_INJECTION64_PATH;
// without one, a range costs a test of a flag.
#pragma once

#include <string>

namespace pyk::detail {

// What a range marks: its category (named in the profiler) and colour.
enum class NvtxRangeKind {
  Compile, // "compile saxpy(float32, float32[::1], float32[::1]) for sm_90"
  Launch,  // "saxpy(float32, float32[::1], float32[::1])"
};

// Whether PYK_NVTX is on in the settings in force (a load and a compare while they stay).
bool nvtxRangesOn() noexcept;

// A range on the calling thread, in the profiler's `pyk` domain, from construction to destruction,
// when PYK_NVTX is on and a profiler is attached; nothing otherwise. The message is built only
// then (`make()` returns it): without a profiler, PYK_NVTX=1 costs two tests a range.
class NvtxRange {
public:
  template <typename MakeMessage>
  NvtxRange(NvtxRangeKind kind, MakeMessage&& make) {
    if (nvtxRangesOn() && profilerAttached()) {
      push(kind, make());
      pushed_ = true;
    }
  }
  ~NvtxRange() {
    if (pushed_)
      pop();
  }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;

private:
  // Whether a profiler took the function tables (looked for at the first call).
  static bool profilerAttached() noexcept;
  static void push(NvtxRangeKind kind, const std::string& message) noexcept;
  static void pop() noexcept;
  bool pushed_ = false;
};

} // namespace pyk::detail
