// CpuBackendTest: a fixture whose tests run on the CPU backend with a disk cache of their own,
// the settings restored after each.
#pragma once

#include <gtest/gtest.h>

#include "SettingsForTest.h"
#include "TemporaryFolder.h"

class CpuBackendTest : public ::testing::Test {
protected:
  void SetUp() override {
    settings_.change([&](pyk::RuntimeSettings& s) {
      s.cache_folder = cache_ / "cache";
      s.backend = pyk::BackendChoice::Cpu;
    });
  }
  TemporaryFolder cache_;
  SettingsForTest settings_;
};
