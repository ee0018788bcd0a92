// CacheKeyTest: cache keys are stable, 64 hex digits, and differ whenever any part differs.
#include "jit/CacheKey.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using pyk::jit::CacheKey;

TEST(CacheKey, IsSixtyFourHexDigits) {
  CacheKey key = CacheKey::of({"extern \"C\" __global__ void k() {}", "-O3", "sm_90", "0.1.0"});
  ASSERT_EQ(key.hex().size(), 64u);
  EXPECT_EQ(key.hex().find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(CacheKey, SamePartsGiveTheSameKey) {
  std::vector<std::string> parts = {"source", "options", "sm_90"};
  EXPECT_EQ(CacheKey::of({"source", "options", "sm_90"}), CacheKey::of(parts));
}

TEST(CacheKey, AnyDifferentPartGivesAnotherKey) {
  CacheKey base = CacheKey::of({"source", "options", "sm_90", "0.1.0", "13.0"});
  EXPECT_NE(base, CacheKey::of({"source ", "options", "sm_90", "0.1.0", "13.0"}));
  EXPECT_NE(base, CacheKey::of({"source", "options", "sm_80", "0.1.0", "13.0"}));
  EXPECT_NE(base, CacheKey::of({"source", "options", "sm_90", "0.1.1", "13.0"}));
  EXPECT_NE(base, CacheKey::of({"source", "options", "sm_90", "0.1.0", "12.8"}));
  EXPECT_NE(base, CacheKey::of({"source", "options", "sm_90", "0.1.0"}));
}

TEST(CacheKey, PartBoundariesMatter) {
  EXPECT_NE(CacheKey::of({"ab", "c"}), CacheKey::of({"a", "bc"}));
  EXPECT_NE(CacheKey::of({"abc"}), CacheKey::of({"abc", ""}));
  EXPECT_NE(CacheKey::of({}), CacheKey::of({""}));
}

TEST(CacheKey, FromHexTakesOnlyKeys) {
  CacheKey key = CacheKey::of({"x"});
  EXPECT_EQ(CacheKey::fromHex(key.hex()), key);
  EXPECT_FALSE(CacheKey::fromHex(""));
  EXPECT_FALSE(CacheKey::fromHex(key.hex().substr(1)));
  EXPECT_FALSE(CacheKey::fromHex(std::string(64, 'A')));
  EXPECT_FALSE(CacheKey::fromHex(std::string(63, 'a') + "g"));
}
