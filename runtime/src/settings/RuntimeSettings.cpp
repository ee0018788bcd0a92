// RuntimeSettings: the process's settings in force, read from the environment once, replaced by
// set_settings, restored by ScopedSettings.
#include <atomic>
#include <mutex>

#include "settings/SettingsStore.h"

namespace pyk {

namespace {

struct Store {
  std::mutex mutex;
  std::shared_ptr<const RuntimeSettings> current; // null until read or set
  std::atomic<std::uint64_t> generation{1};
};

// Never destroyed: arrays freed after main() still ask for the backend.
Store& store() {
  static Store* s = new Store;
  return *s;
}

} // namespace

namespace detail {

std::shared_ptr<const RuntimeSettings> currentSettings() {
  Store& s = store();
  std::lock_guard lock(s.mutex);
  if (s.current == nullptr) // a malformed variable throws, and is read again at the next call
    s.current = std::make_shared<const RuntimeSettings>(RuntimeSettings::from_environment());
  return s.current;
}

std::uint64_t settingsGeneration() noexcept {
  return store().generation.load(std::memory_order_acquire);
}

} // namespace detail

RuntimeSettings settings() {
  return *detail::currentSettings();
}

void set_settings(const RuntimeSettings& settings) {
  Store& s = store();
  auto replacement = std::make_shared<const RuntimeSettings>(settings);
  std::lock_guard lock(s.mutex);
  s.current = std::move(replacement);
  s.generation.fetch_add(1, std::memory_order_acq_rel);
}

ScopedSettings::ScopedSettings(const RuntimeSettings& settings) : previous_(pyk::settings()) {
  set_settings(settings);
}

ScopedSettings::~ScopedSettings() {
  set_settings(previous_);
}

} // namespace pyk
