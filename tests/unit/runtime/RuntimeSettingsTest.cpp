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
  return RuntimeSettings::from_environment([&](const char* name) -> std::optional<std::string> {
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
  EXPECT_EQ(s.cpu_threads, 0u);
  EXPECT_EQ(s.cpu_fiber_stack_bytes, 64u * 1024);
  EXPECT_EQ(s.cpu_bind, pyk::CpuBinding::Spread);
  EXPECT_EQ(s.cpu_mode, pyk::CpuMode::Auto);
  EXPECT_EQ(s.cpu_shapes, pyk::CpuShapes::Background);
  EXPECT_TRUE(s.cpu_precompiled_header);
  EXPECT_FALSE(s.bounds_check);
  EXPECT_EQ(s.cache_folder, "/home/someone/.cache/pyk");
  EXPECT_EQ(s.cache_max_bytes, 1024u * 1024u * 1024u);
  EXPECT_EQ(s.host_compiler, "");
  EXPECT_EQ(s.libcuda, "");
  EXPECT_EQ(s.libnvrtc, "");
}

TEST(RuntimeSettings, EachVariableSetsItsSetting) {
  const RuntimeSettings s = fromVariables({{"PYK_BACKEND", "cpu"},
                                           {"PYK_CPU_THREADS", "3"},
                                           {"PYK_CPU_FIBER_STACK", "256K"},
                                           {"PYK_CPU_BIND", "off"},
                                           {"PYK_CPU_MODE", "fiber"},
                                           {"PYK_CPU_SHAPES", "now"},
                                           {"PYK_CPU_PRECOMPILED_HEADER", "0"},
                                           {"PYK_BOUNDSCHECK", "1"},
                                           {"PYK_CACHE_DIR", "/somewhere/pyk-cache"},
                                           {"PYK_CACHE_MAX_BYTES", "12345"},
                                           {"PYK_CXX", "clang++"},
                                           {"PYK_LIBCUDA", "/opt/libcuda.so"},
                                           {"PYK_LIBNVRTC", "/opt/libnvrtc.so"}});
  EXPECT_EQ(s.backend, pyk::BackendChoice::Cpu);
  EXPECT_EQ(s.cpu_threads, 3u);
  EXPECT_EQ(s.cpu_fiber_stack_bytes, 256u * 1024);
  EXPECT_EQ(s.cpu_bind, pyk::CpuBinding::Off);
  EXPECT_EQ(s.cpu_mode, pyk::CpuMode::Fiber);
  EXPECT_EQ(s.cpu_shapes, pyk::CpuShapes::Now);
  EXPECT_FALSE(s.cpu_precompiled_header);
  EXPECT_TRUE(s.bounds_check);
  EXPECT_EQ(s.cache_folder, "/somewhere/pyk-cache");
  EXPECT_EQ(s.cache_max_bytes, 12345u);
  EXPECT_EQ(s.host_compiler, "clang++");
  EXPECT_EQ(s.libcuda, "/opt/libcuda.so");
  EXPECT_EQ(s.libnvrtc, "/opt/libnvrtc.so");
  EXPECT_EQ(fromVariables({{"PYK_BACKEND", "cuda"}}).backend, pyk::BackendChoice::Cuda);
  EXPECT_EQ(fromVariables({{"PYK_BACKEND", "auto"}}).backend, pyk::BackendChoice::Auto);
  EXPECT_EQ(fromVariables({{"PYK_CPU_MODE", "auto"}}).cpu_mode, pyk::CpuMode::Auto);
  EXPECT_EQ(fromVariables({{"PYK_CPU_BIND", "spread"}}).cpu_bind, pyk::CpuBinding::Spread);
  EXPECT_EQ(fromVariables({{"PYK_CPU_SHAPES", "off"}}).cpu_shapes, pyk::CpuShapes::Off);
  EXPECT_EQ(fromVariables({{"PYK_CPU_SHAPES", "background"}}).cpu_shapes,
            pyk::CpuShapes::Background);
}

TEST(RuntimeSettings, EmptyVariablesCountAsUnset) {
  const RuntimeSettings s = fromVariables({{"PYK_BACKEND", ""},
                                           {"PYK_CPU_THREADS", ""},
                                           {"PYK_CPU_MODE", ""},
                                           {"PYK_BOUNDSCHECK", ""},
                                           {"PYK_CACHE_MAX_BYTES", ""},
                                           {"HOME", "/home/someone"}});
  EXPECT_EQ(s.backend, pyk::BackendChoice::Auto);
  EXPECT_EQ(s.cpu_threads, 0u);
  EXPECT_EQ(s.cpu_mode, pyk::CpuMode::Auto);
  EXPECT_FALSE(s.bounds_check);
  EXPECT_EQ(s.cache_max_bytes, RuntimeSettings::kDefaultCacheMaxBytes);
}

TEST(RuntimeSettings, BoundsChecksAreOnForAnyValueButZero) {
  EXPECT_FALSE(fromVariables({{"PYK_BOUNDSCHECK", "0"}}).bounds_check);
  EXPECT_TRUE(fromVariables({{"PYK_BOUNDSCHECK", "1"}}).bounds_check);
  EXPECT_TRUE(fromVariables({{"PYK_BOUNDSCHECK", "yes"}}).bounds_check);
}

TEST(RuntimeSettings, PykCacheDirComesFirst) {
  EXPECT_EQ(fromVariables({{"PYK_CACHE_DIR", "/somewhere/pyk-cache"},
                           {"XDG_CACHE_HOME", "/xdg"},
                           {"HOME", "/home/someone"}})
                .cache_folder,
            "/somewhere/pyk-cache");
}

TEST(RuntimeSettings, XdgCacheHomeComesNext) {
  EXPECT_EQ(fromVariables({{"XDG_CACHE_HOME", "/xdg"}, {"HOME", "/home/someone"}}).cache_folder,
            "/xdg/pyk");
  // An empty PYK_CACHE_DIR counts as unset.
  EXPECT_EQ(fromVariables({{"PYK_CACHE_DIR", ""}, {"XDG_CACHE_HOME", "/xdg"}}).cache_folder,
            "/xdg/pyk");
}

TEST(RuntimeSettings, HomeComesLast) {
  EXPECT_EQ(fromVariables({{"HOME", "/home/someone"}}).cache_folder, "/home/someone/.cache/pyk");
  // The XDG spec says a relative XDG_CACHE_HOME is invalid and must be ignored.
  EXPECT_EQ(
      fromVariables({{"XDG_CACHE_HOME", "relative/cache"}, {"HOME", "/home/someone"}}).cache_folder,
      "/home/someone/.cache/pyk");
}

TEST(RuntimeSettings, ParsesThreadCountsAndStackSizes) {
  auto threads = [](const char* text) { return fromVariables({{"PYK_CPU_THREADS", text}}); };
  auto stack = [](const char* text) { return fromVariables({{"PYK_CPU_FIBER_STACK", text}}); };
  EXPECT_EQ(threads("8").cpu_threads, 8u);
  EXPECT_EQ(stack("65536").cpu_fiber_stack_bytes, 65536u);
  EXPECT_EQ(stack("128K").cpu_fiber_stack_bytes, 128u * 1024);
  EXPECT_EQ(stack("2m").cpu_fiber_stack_bytes, 2u * 1024 * 1024);
  for (const char* bad : {"0", "-1", "abc", "4097", "3x"})
    EXPECT_THROW(threads(bad), pyk::Error) << bad;
  for (const char* bad : {"4K", "100", "K", "1G", "2048M", "12.5K"})
    EXPECT_THROW(stack(bad), pyk::Error) << bad;
  EXPECT_EQ(settingsErrorOf({{"PYK_CPU_THREADS", "many"}}, pyk::ErrorKind::InvalidArgument),
            "`PYK_CPU_THREADS` must be a count of threads from 1 to 4096, not `many`");
}

TEST(RuntimeSettings, CpuDevicesAreACountOrNuma) {
  EXPECT_EQ(fromVariables({}).cpu_devices, 1u);
  EXPECT_EQ(fromVariables({{"PYK_CPU_DEVICES", "4"}}).cpu_devices, 4u);
  EXPECT_EQ(fromVariables({{"PYK_CPU_DEVICES", "numa"}}).cpu_devices, 0u);
  EXPECT_EQ(fromVariables({{"PYK_CPU_DEVICES", ""}}).cpu_devices, 1u);
  for (const char* bad : {"0", "NUMA", "-2", "4097", "two"})
    EXPECT_THROW(fromVariables({{"PYK_CPU_DEVICES", bad}}), pyk::Error) << bad;
  EXPECT_EQ(settingsErrorOf({{"PYK_CPU_DEVICES", "two"}}, pyk::ErrorKind::InvalidArgument),
            "`PYK_CPU_DEVICES` must be `numa` or a count of devices from 1 to 4096, not `two`");
}

TEST(RuntimeSettings, AMalformedValueIsAnErrorNamingItsVariable) {
  EXPECT_EQ(settingsErrorOf({{"PYK_BACKEND", "gpu"}}, pyk::ErrorKind::InvalidArgument),
            "PYK_BACKEND=gpu is not a backend (cuda, cpu or auto)");
  EXPECT_EQ(settingsErrorOf({{"PYK_CACHE_MAX_BYTES", "1G"}}, pyk::ErrorKind::Cache),
            "PYK_CACHE_MAX_BYTES is '1G', not a number of bytes such as 1073741824");
  EXPECT_EQ(settingsErrorOf({{"PYK_CPU_MODE", "loops"}}, pyk::ErrorKind::InvalidArgument),
            "`PYK_CPU_MODE` must be `fiber` or `auto`, not `loops`");
  EXPECT_EQ(settingsErrorOf({{"PYK_CPU_SHAPES", "later"}}, pyk::ErrorKind::InvalidArgument),
            "`PYK_CPU_SHAPES` must be `background`, `now` or `off`, not `later`");
  EXPECT_EQ(settingsErrorOf({{"PYK_CPU_BIND", "close"}}, pyk::ErrorKind::InvalidArgument),
            "`PYK_CPU_BIND` must be `spread` or `off`, not `close`");
  EXPECT_EQ(
      settingsErrorOf({{"PYK_CPU_PRECOMPILED_HEADER", "yes"}}, pyk::ErrorKind::InvalidArgument),
      "PYK_CPU_PRECOMPILED_HEADER must be 1 (compile kernels against the support header "
      "precompiled once) or 0, not `yes`");
  EXPECT_NE(settingsErrorOf({{"PYK_CPU_FIBER_STACK", "4K"}}, pyk::ErrorKind::InvalidArgument)
                .find("`PYK_CPU_FIBER_STACK` must be a size in bytes"),
            std::string::npos);
}

TEST(RuntimeSettings, ScopedSettingsOverrideAndRestore) {
  const RuntimeSettings before = pyk::settings();
  RuntimeSettings changed = before;
  changed.bounds_check = !before.bounds_check;
  changed.cpu_mode = pyk::CpuMode::Fiber;
  changed.backend = pyk::BackendChoice::Cpu;
  {
    pyk::ScopedSettings scope(changed);
    EXPECT_EQ(pyk::settings().bounds_check, changed.bounds_check);
    EXPECT_EQ(pyk::settings().cpu_mode, pyk::CpuMode::Fiber);
    EXPECT_EQ(pyk::current_backend(), pyk::Backend::Cpu);
    RuntimeSettings inner = changed;
    inner.cpu_threads = 5;
    pyk::set_settings(inner);
    EXPECT_EQ(pyk::settings().cpu_threads, 5u);
  }
  EXPECT_EQ(pyk::settings().bounds_check, before.bounds_check);
  EXPECT_EQ(pyk::settings().cpu_mode, before.cpu_mode);
  EXPECT_EQ(pyk::settings().cpu_threads, before.cpu_threads);
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
        // Every snapshot written below has cpu_fiber_stack_bytes == 1024 * cpu_threads.
        if (s.cpu_threads != 0 && s.cpu_fiber_stack_bytes != 1024u * s.cpu_threads)
          ++torn;
      }
    });
  for (unsigned i = 1; i <= 2000; ++i) {
    RuntimeSettings s = before;
    s.cpu_threads = i;
    s.cpu_fiber_stack_bytes = 1024u * i;
    s.host_compiler = std::string(i % 64, 'c');
    pyk::set_settings(s);
  }
  done = true;
  for (std::thread& t : readers)
    t.join();
  pyk::set_settings(before);
  EXPECT_EQ(torn.load(), 0);
}

TEST(RuntimeSettings, TheCacheIsWhereTheSettingsSay) {
  TemporaryFolder temporary;
  RuntimeSettings s = pyk::settings();
  s.cache_folder = fromVariables({{"XDG_CACHE_HOME", (temporary / "xdg").string()}}).cache_folder;
  {
    pyk::ScopedSettings scope(s);
    EXPECT_EQ(pyk::list_cache().folder, temporary / "xdg/pyk");
    EXPECT_TRUE(std::filesystem::is_directory(temporary / "xdg/pyk"));
  }
  s.cache_folder.clear(); // none could be found
  pyk::ScopedSettings scope(s);
  try {
    pyk::list_cache();
    ADD_FAILURE() << "no error";
  } catch (const pyk::Error& error) {
    EXPECT_EQ(error.kind(), pyk::ErrorKind::Cache);
    EXPECT_STREQ(error.what(), "cannot find a cache folder: PYK_CACHE_DIR, XDG_CACHE_HOME and HOME "
                               "are unset and the user has no home directory; set PYK_CACHE_DIR");
  }
}

} // namespace
