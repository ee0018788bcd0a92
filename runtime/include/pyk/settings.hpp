// settings: pyk's run-time settings, one snapshot read from the PYK_* environment variables at
// first use and settable from C++. Each is a row of pyk/settings.def: its variable, field, type,
// default, values and when a change takes effect (docs/SETTINGS.md's table is written from it).
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

// PYK_CPU_BIND: where the CPU backend's helper threads run.
enum class CpuBinding {
  Spread, // each on a CPU of its own, off the launching thread's (when there are more CPUs than
          // helpers)
  Off,    // anywhere the process may run (or its CPU device's CPUs)
};

struct RuntimeSettings {
  static constexpr std::size_t kDefaultFiberStackBytes = 64 * 1024;
  static constexpr std::uint64_t kDefaultCacheMaxBytes = std::uint64_t{1} << 30;

  // One field per row of pyk/settings.def, in its order (`backend`, `cpu_threads`, ...), of the
  // type and with the default the row gives; the row also names its environment variable, the
  // values it takes and what it does.
#define PYK_SETTING(Variable, Field, Type, Default, ...) Type Field = Default;
#include "pyk/settings.def"

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
