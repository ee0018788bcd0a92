// RuntimeSettingsTest: the settings read from the environment (each variable, its default, the
// cache folder's fallbacks, a malformed value's error naming its variable), and set from C++
// (a consistent snapshot, a scope's override restored, the backend following a change).
#include "pyk/cache.hpp"
#include "pyk/device.hpp"
#include "pyk/error.hpp"
#include "pyk/settings.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "TemporaryFolder.h"

namespace {

using pyk::RuntimeSettings;

// The settings an environment of exactly `variables` gives.
RuntimeSettings fromVariables(const std::map<std::string, std::string>& variables) {
  return RuntimeSettings::fromEnvironment([&](const char* name) -> std::optional<std::string> {
    auto it = variables.find(name);
    return it != variables.end() ? std::optional<std::string>(it->second) : std::nullopt;
  });
}

// The pyk::Error that reading `variables` throws (its kind must be `kind`); "" if none.
std::string settingsErrorOf(const std::map<std::string, std::string>& variables,
                            pyk::ErrorKind kind) {
  try {
    fromVariables(variables);
  } catch (const pyk::Error& error) {
    EXPECT_EQ(error.kind(), kind);
    return error.what();
  }
  return "";
}

TEST(RuntimeSettings, DefaultsWhenNothingIsSet) {
  const RuntimeSettings s = fromVariables({{"HOME", "/home/someone"}});
  EXPECT_EQ(s.backend, pyk::BackendChoice::Auto);
  EXPECT_EQ(s.cpuThreads, 0u);
  EXPECT_EQ(s.cpuFiberStackBytes, 64u * 1024);
  EXPECT_EQ(s.cpuMode, pyk::CpuMode::Auto);
  EXPECT_FALSE(s.boundsCheck);
  EXPECT_EQ(s.cacheFolder, "/home/someone/.cache/pyk");
  EXPECT_EQ(s.cacheMaxBytes, 1024u * 1024u * 1024u);
  EXPECT_EQ(s.hostCompiler, "");
  EXPECT_EQ(s.libcuda, "");
  EXPECT_EQ(s.libnvrtc, "");
}

TEST(RuntimeSettings, EachVariableSetsItsSetting) {
  const RuntimeSettings s = fromVariables({{"PYK_BACKEND", "cpu"},
                                           {"PYK_CPU_THREADS", "3"},
                                           {"PYK_CPU_FIBER_STACK", "256K"},
                                           {"PYK_CPU_MODE", "fiber"},
                                           {"PYK_BOUNDSCHECK", "1"},
                                           {"PYK_CACHE_DIR", "/somewhere/pyk-cache"},
                                           {"PYK_CACHE_MAX_BYTES", "12345"},
                                           {"PYK_CXX", "clang++"},
                                           {"PYK_LIBCUDA", "/opt/libcuda.so"},
                                           {"PYK_LIBNVRTC", "/opt/libnvrtc.so"}});
  EXPECT_EQ(s.backend, pyk::BackendChoice::Cpu);
  EXPECT_EQ(s.cpuThreads, 3u);
  EXPECT_EQ(s.cpuFiberStackBytes, 256u * 1024);
  EXPECT_EQ(s.cpuMode, pyk::CpuMode::Fiber);
  EXPECT_TRUE(s.boundsCheck);
  EXPECT_EQ(s.cacheFolder, "/somewhere/pyk-cache");
  EXPECT_EQ(s.cacheMaxBytes, 12345u);
  EXPECT_EQ(s.hostCompiler, "clang++");
  EXPECT_EQ(s.libcuda, "/opt/libcuda.so");
  EXPECT_EQ(s.libnvrtc, "/opt/libnvrtc.so");
  EXPECT_EQ(fromVariables({{"PYK_BACKEND", "cuda"}}).backend, pyk::BackendChoice::Cuda);
  EXPECT_EQ(fromVariables({{"PYK_BACKEND", "auto"}}).backend, pyk::BackendChoice::Auto);
  EXPECT_EQ(fromVariables({{"PYK_CPU_MODE", "auto"}}).cpuMode, pyk::CpuMode::Auto);
}

TEST(RuntimeSettings, EmptyVariablesCountAsUnset) {
  const RuntimeSettings s = fromVariables({{"PYK_BACKEND", ""},
                                           {"PYK_CPU_THREADS", ""},
                                           {"PYK_CPU_MODE", ""},
                                           {"PYK_BOUNDSCHECK", ""},
                                           {"PYK_CACHE_MAX_BYTES", ""},
                                           {"HOME", "/home/someone"}});
  EXPECT_EQ(s.backend, pyk::BackendChoice::Auto);
  EXPECT_EQ(s.cpuThreads, 0u);
  EXPECT_EQ(s.cpuMode, pyk::CpuMode::Auto);
  EXPECT_FALSE(s.boundsCheck);
  EXPECT_EQ(s.cacheMaxBytes, RuntimeSettings::kDefaultCacheMaxBytes);
}

TEST(RuntimeSettings, BoundsChecksAreOnForAnyValueButZero) {
  EXPECT_FALSE(fromVariables({{"PYK_BOUNDSCHECK", "0"}}).boundsCheck);
  EXPECT_TRUE(fromVariables({{"PYK_BOUNDSCHECK", "1"}}).boundsCheck);
  EXPECT_TRUE(fromVariables({{"PYK_BOUNDSCHECK", "yes"}}).boundsCheck);
}

TEST(RuntimeSettings, PykCacheDirComesFirst) {
  EXPECT_EQ(fromVariables({{"PYK_CACHE_DIR", "/somewhere/pyk-cache"},
                           {"XDG_CACHE_HOME", "/xdg"},
                           {"HOME", "/home/someone"}})
                .cacheFolder,
            "/somewhere/pyk-cache");
}

TEST(RuntimeSettings, XdgCacheHomeComesNext) {
  EXPECT_EQ(fromVariables({{"XDG_CACHE_HOME", "/xdg"}, {"HOME", "/home/someone"}}).cacheFolder,
            "/xdg/pyk");
  // An empty PYK_CACHE_DIR counts as unset.
  EXPECT_EQ(fromVariables({{"PYK_CACHE_DIR", ""}, {"XDG_CACHE_HOME", "/xdg"}}).cacheFolder,
            "/xdg/pyk");
}

TEST(RuntimeSettings, HomeComesLast) {
  EXPECT_EQ(fromVariables({{"HOME", "/home/someone"}}).cacheFolder, "/home/someone/.cache/pyk");
  // The XDG spec says a relative XDG_CACHE_HOME is invalid and must be ignored.
  EXPECT_EQ(
      fromVariables({{"XDG_CACHE_HOME", "relative/cache"}, {"HOME", "/home/someone"}}).cacheFolder,
      "/home/someone/.cache/pyk");
}

TEST(RuntimeSettings, ParsesThreadCountsAndStackSizes) {
  auto threads = [](const char* text) { return fromVariables({{"PYK_CPU_THREADS", text}}); };
  auto stack = [](const char* text) { return fromVariables({{"PYK_CPU_FIBER_STACK", text}}); };
  EXPECT_EQ(threads("8").cpuThreads, 8u);
  EXPECT_EQ(stack("65536").cpuFiberStackBytes, 65536u);
  EXPECT_EQ(stack("128K").cpuFiberStackBytes, 128u * 1024);
  EXPECT_EQ(stack("2m").cpuFiberStackBytes, 2u * 1024 * 1024);
  for (const char* bad : {"0", "-1", "abc", "4097", "3x"})
    EXPECT_THROW(threads(bad), pyk::Error) << bad;
  for (const char* bad : {"4K", "100", "K", "1G", "2048M", "12.5K"})
    EXPECT_THROW(stack(bad), pyk::Error) << bad;
  EXPECT_EQ(settingsErrorOf({{"PYK_CPU_THREADS", "many"}}, pyk::ErrorKind::InvalidArgument),
            "`PYK_CPU_THREADS` must be a count of threads from 1 to 4096, not `many`");
}

TEST(RuntimeSettings, AMalformedValueIsAnErrorNamingItsVariable) {
  EXPECT_EQ(settingsErrorOf({{"PYK_BACKEND", "gpu"}}, pyk::ErrorKind::InvalidArgument),
            "PYK_BACKEND=gpu is not a backend (cuda, cpu or auto)");
  EXPECT_EQ(settingsErrorOf({{"PYK_CACHE_MAX_BYTES", "1G"}}, pyk::ErrorKind::Cache),
            "PYK_CACHE_MAX_BYTES is '1G', not a number of bytes such as 1073741824");
  EXPECT_EQ(settingsErrorOf({{"PYK_CPU_MODE", "loops"}}, pyk::ErrorKind::InvalidArgument),
            "`PYK_CPU_MODE` must be `fiber` or `auto`, not `loops`");
  EXPECT_NE(settingsErrorOf({{"PYK_CPU_FIBER_STACK", "4K"}}, pyk::ErrorKind::InvalidArgument)
                .find("`PYK_CPU_FIBER_STACK` must be a size in bytes"),
            std::string::npos);
}

TEST(RuntimeSettings, ScopedSettingsOverrideAndRestore) {
  const RuntimeSettings before = pyk::settings();
  RuntimeSettings changed = before;
  changed.boundsCheck = !before.boundsCheck;
  changed.cpuMode = pyk::CpuMode::Fiber;
  changed.backend = pyk::BackendChoice::Cpu;
  {
    pyk::ScopedSettings scope(changed);
    EXPECT_EQ(pyk::settings().boundsCheck, changed.boundsCheck);
    EXPECT_EQ(pyk::settings().cpuMode, pyk::CpuMode::Fiber);
    EXPECT_EQ(pyk::currentBackend(), pyk::Backend::Cpu);
    RuntimeSettings inner = changed;
    inner.cpuThreads = 5;
    pyk::setSettings(inner);
    EXPECT_EQ(pyk::settings().cpuThreads, 5u);
  }
  EXPECT_EQ(pyk::settings().boundsCheck, before.boundsCheck);
  EXPECT_EQ(pyk::settings().cpuMode, before.cpuMode);
  EXPECT_EQ(pyk::settings().cpuThreads, before.cpuThreads);
}

TEST(RuntimeSettings, ReadersSeeWholeSnapshots) {
  const RuntimeSettings before = pyk::settings();
  std::atomic<bool> done{false};
  std::atomic<int> torn{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r)
    readers.emplace_back([&] {
      while (!done) {
        const RuntimeSettings s = pyk::settings();
        // Every snapshot written below has cpuFiberStackBytes == 1024 * cpuThreads.
        if (s.cpuThreads != 0 && s.cpuFiberStackBytes != 1024u * s.cpuThreads)
          ++torn;
      }
    });
  for (unsigned i = 1; i <= 2000; ++i) {
    RuntimeSettings s = before;
    s.cpuThreads = i;
    s.cpuFiberStackBytes = 1024u * i;
    s.hostCompiler = std::string(i % 64, 'c');
    pyk::setSettings(s);
  }
  done = true;
  for (std::thread& t : readers)
    t.join();
  pyk::setSettings(before);
  EXPECT_EQ(torn.load(), 0);
}

TEST(RuntimeSettings, TheCacheIsWhereTheSettingsSay) {
  TemporaryFolder temporary;
  RuntimeSettings s = pyk::settings();
  s.cacheFolder = fromVariables({{"XDG_CACHE_HOME", (temporary / "xdg").string()}}).cacheFolder;
  {
    pyk::ScopedSettings scope(s);
    EXPECT_EQ(pyk::listCache().folder, temporary / "xdg/pyk");
    EXPECT_TRUE(std::filesystem::is_directory(temporary / "xdg/pyk"));
  }
  s.cacheFolder.clear(); // none could be found
  pyk::ScopedSettings scope(s);
  try {
    pyk::listCache();
    ADD_FAILURE() << "no error";
  } catch (const pyk::Error& error) {
    EXPECT_EQ(error.kind(), pyk::ErrorKind::Cache);
    EXPECT_STREQ(error.what(), "cannot find a cache folder: PYK_CACHE_DIR, XDG_CACHE_HOME and HOME "
                               "are unset and the user has no home directory; set PYK_CACHE_DIR");
  }
}

} // namespace
