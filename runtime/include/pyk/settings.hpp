// settings: pyk's run-time settings, one snapshot read from the PYK_* environment variables at
// first use and settable from C++. docs/SETTINGS.md's table says, for each, its variable,
// values, default and when a change takes effect.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace pyk {

// PYK_BACKEND: where new arrays, streams and launches without arrays go.
enum class BackendChoice {
  Auto, // CUDA when a device, its driver and NVRTC are there, else the CPU
  Cpu,
  Cuda, // an error (naming why) when CUDA cannot run kernels
};

// PYK_CPU_MODE: how the CPU backend runs a block's threads.
enum class CpuMode {
  Auto,  // a loop (split at barriers), fibers only where needed
  Fiber, // every kernel as fibers
};

// PYK_CPU_SHAPES: when the CPU backend compiles a kernel with barriers (split mode) for a launch's
// block shape, whose trip counts it then knows (1.2-2.2x faster on the benchmarks).
enum class CpuShapes {
  Background, // the kernel compiled for any shape first; from the second launch with a shape,
              // that shape's version compiled in the background and used once it is there
  Now,        // each shape's version compiled at its first launch, which waits for it
  Off,        // only the version for any shape
};

struct RuntimeSettings {
  static constexpr std::size_t kDefaultFiberStackBytes = 64 * 1024;
  static constexpr std::uint64_t kDefaultCacheMaxBytes = std::uint64_t{1} << 30;

  BackendChoice backend = BackendChoice::Auto; // PYK_BACKEND=auto|cpu|cuda
  unsigned cpu_threads =
      0; // PYK_CPU_THREADS: workers running blocks; 0: one per CPU of its affinity mask
  std::size_t cpu_fiber_stack_bytes = kDefaultFiberStackBytes; // PYK_CPU_FIBER_STACK, per fiber
  CpuMode cpu_mode = CpuMode::Auto;                            // PYK_CPU_MODE=auto|fiber
  CpuShapes cpu_shapes = CpuShapes::Background;                // PYK_CPU_SHAPES=background|now|off
  // PYK_CPU_DEVICES=N|numa: the CPU backend's devices (pyk::device_count()): 1, the whole machine
  // (the default); N groups of the process's CPUs; 0 ("numa"): one per NUMA node. With several,
  // each device's workers and the threads that select it are bound to its CPUs. Fixed at the
  // CPU backend's first use (a launch, an array, a device query).
  unsigned cpu_devices = 1;
  bool bounds_check = false; // PYK_BOUNDSCHECK: check every index of the CPU backend's kernels
  // PYK_CACHE_DIR, else $XDG_CACHE_HOME/pyk, else $HOME/.cache/pyk: the disk cache of compiled
  // kernels; empty when none can be found (kernels are then compiled in every process).
  std::filesystem::path cache_folder;
  std::uint64_t cache_max_bytes = kDefaultCacheMaxBytes; // PYK_CACHE_MAX_BYTES
  std::string host_compiler; // PYK_CXX: the CPU backend's C++ compiler; empty: pyk's own
  std::string libcuda;       // PYK_LIBCUDA: the CUDA driver library; empty: libcuda.so.1
  std::string libnvrtc;      // PYK_LIBNVRTC: the NVRTC library; empty: the usual names
  // PYK_SPECIALIZATION_LOG: a file each compiled specialization is appended to, a line each
  // (`source<TAB>kernel<TAB>signature`): the signatures a program uses, for compiling ahead of
  // time or checking them elsewhere; empty: no log.
  std::filesystem::path specialization_log;
  // PYK_COMPILE_MESSAGES=1|0: a compile still running after 100 ms (the host compiler or NVRTC:
  // the first launch of a signature not in the disk cache) says so on stderr, one line
  // (`pyk: compiling saxpy(float32, ...) for the CPU (saxpy.pyk)...`).
  bool compile_messages = true;
  // PYK_CPU_PRECOMPILED_HEADER=1|0: the CPU backend compiles kernels against its support header
  // precompiled once (by GCC, kept in the cache folder, about 40 MB): 0.15-0.35 s a kernel instead
  // of 0.5-0.7 s. 0: the header's text is parsed at every compile.
  bool cpu_precompiled_header = true;

  // The settings the process environment gives (unset or empty variables keep the defaults).
  // Throws pyk::Error naming a malformed variable.
  static RuntimeSettings from_environment();
  // The same with `variable(name)` standing for the environment (std::nullopt: unset).
  static RuntimeSettings
  from_environment(const std::function<std::optional<std::string>(const char* name)>& variable);
};

// The settings in force: read from the environment at the first call, then as last set. Thread
// safe; a consistent snapshot. While the environment has a malformed variable and nothing was
// set, every call throws its pyk::Error.
RuntimeSettings settings();

// Makes `settings` the settings in force for the whole process (thread safe). Each setting takes
// effect as docs/SETTINGS.md's table says: most at the next launch or compile; the CPU worker
// pool is sized, and the CUDA driver and NVRTC are loaded, once per process.
void set_settings(const RuntimeSettings& settings);

// Settings in force for a scope: the ones given from construction, the previous ones again at
// destruction.
class ScopedSettings {
public:
  explicit ScopedSettings(const RuntimeSettings& settings);
  ~ScopedSettings();
  ScopedSettings(const ScopedSettings&) = delete;
  ScopedSettings& operator=(const ScopedSettings&) = delete;

private:
  RuntimeSettings previous_;
};

} // namespace pyk
