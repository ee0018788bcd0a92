// SettingsForTest: the runtime's settings changed for one test through the C++ settings API and
// restored after it (the environment is read once a process, so tests never set PYK_* variables).
#pragma once

#include <optional>

#include "pyk/settings.hpp"

class SettingsForTest {
public:
  SettingsForTest() = default;
  SettingsForTest(const SettingsForTest&) = delete;
  SettingsForTest& operator=(const SettingsForTest&) = delete;

  // Applies `change` to the settings in force; the ones before the first change come back when
  // this object is destroyed.
  template <typename Change>
  void change(Change&& change) {
    pyk::RuntimeSettings settings = pyk::settings();
    change(settings);
    if (scope_)
      pyk::set_settings(settings);
    else
      scope_.emplace(settings);
  }

private:
  std::optional<pyk::ScopedSettings> scope_;
};
