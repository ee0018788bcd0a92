// JitSettingsSource: how pykc's compile commands get the jit's settings (NVRTC, the host
// compiler, the disk cache) from the runtime's, which only pykc's main reads (the compiler knows
// nothing of them); asked for only by what compiles (--emit=ptx|cubin|so, `pykc build --arch`), so
// a bad PYK_* variable fails only those.
#pragma once

#include <functional>

#include "jit/JitSettings.h"

namespace pyk::driver {

// Returns the settings; throws pyk::Error for a setting that cannot be used.
using JitSettingsSource = std::function<jit::JitSettings()>;

} // namespace pyk::driver
