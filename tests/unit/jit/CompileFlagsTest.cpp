// CompileFlagsTest: the decorator options numba-cuda defines, as NVRTC and host compiler flags.
#include "jit/CompileFlags.h"

#include <gtest/gtest.h>

namespace {

using pyk::jit::hostFlags;
using pyk::jit::nvrtcFlags;
using pyk::sema::DecoratorOptions;
using Flags = std::vector<std::string>;

TEST(CompileFlags, NumbasDefaultsAddNothing) {
  EXPECT_EQ(nvrtcFlags(DecoratorOptions{}), Flags{});
  EXPECT_EQ(hostFlags(DecoratorOptions{}), Flags{});
}

TEST(CompileFlags, EachOptionHasItsNvrtcFlag) {
  DecoratorOptions o;
  o.fastmath = true;
  o.lineinfo = true;
  o.maxRegisters = 40;
  EXPECT_EQ(nvrtcFlags(o), (Flags{"--use_fast_math", "-lineinfo", "--maxrregcount=40"}));
  EXPECT_EQ(hostFlags(o), Flags{"-g1"});
}

TEST(CompileFlags, DebugIsUnoptimisedOnlyWithOptFalse) {
  DecoratorOptions o;
  o.debug = true;
  EXPECT_EQ(nvrtcFlags(o), (Flags{"-G", "--dopt=on"})); // opt defaults to True, as numba's
  o.opt = false;
  EXPECT_EQ(nvrtcFlags(o), Flags{"-G"});
  EXPECT_EQ(hostFlags(o), Flags{"-g"});
}

TEST(CompileFlags, OptFalseAloneTurnsNvvmsOptimiserOff) {
  DecoratorOptions o;
  o.opt = false;
  EXPECT_EQ(nvrtcFlags(o), (Flags{"-Xnvvm", "-opt=0"}));
  EXPECT_EQ(hostFlags(o), Flags{});
  o.opt = true;
  o.fastmath = false;
  o.lineinfo = false;
  EXPECT_EQ(nvrtcFlags(o), Flags{});
}

} // namespace
