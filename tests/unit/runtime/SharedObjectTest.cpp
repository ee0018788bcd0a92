// SharedObjectTest: bytes that are not a whole shared object (a truncated or forged cache entry
// whose checksum still matches) are refused with an error before dlopen maps them, never a
// SIGBUS when the loader touches a segment past the end.
#include "cpu/SharedObject.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "pyk/error.hpp"

namespace {

std::string loadErrorOf(const std::string& bytes) {
  try {
    pyk::cpu::SharedObject::fromBytes(bytes, "k(int64) -> none");
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::Compile);
    return e.what();
  }
  return "";
}

TEST(SharedObjectBytes, GarbageAndTruncatedObjectsAreRefusedBeforeLoading) {
  EXPECT_NE(loadErrorOf("not an elf at all, just text")
                .find("not a whole shared object (shorter "
                      "than an ELF header)"),
            std::string::npos);
  EXPECT_NE(loadErrorOf(std::string(200, 'x')).find("(not an ELF file)"), std::string::npos);
  // This test program (a position-independent executable: ELF type ET_DYN), cut in half: its
  // headers are there, its later segments are not.
  std::ifstream in("/proc/self/exe", std::ios::binary);
  std::ostringstream whole;
  whole << in.rdbuf();
  const std::string half = whole.str().substr(0, whole.str().size() / 2);
  const std::string message = loadErrorOf(half);
  EXPECT_NE(message.find("k(int64) -> none: cannot load the compiled kernel: it is not a whole "
                         "shared object ("),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("outside it"), std::string::npos) << message;
}

} // namespace
