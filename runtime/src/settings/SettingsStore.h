// SettingsStore: the settings in force as the runtime reads them: shared snapshots (holding one
// costs no copy), and a generation number that changes with every set_settings, so the hot path
// (the backend of every allocation and launch) looks again only after a change.
#pragma once

#include <cstdint>
#include <memory>

#include "pyk/settings.hpp"

namespace pyk::detail {

// The settings in force (read from the environment at the first call); throws as pyk::settings.
std::shared_ptr<const RuntimeSettings> currentSettings();

// Changes whenever the settings in force change; never 0.
std::uint64_t settingsGeneration() noexcept;

} // namespace pyk::detail
