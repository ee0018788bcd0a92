// KernelFaultTest: runCatchingFaults turns a fault inside its body into a MemoryFault (address,
// read or write) and leaves the thread able to fault-catch again; describeFault's message.
#include "cpu/KernelFault.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <csignal>
#include <stdexcept>
#include <string>

namespace pyk::cpu {
namespace {

// A page nothing may touch, unmapped again at the end of the test.
class ForbiddenPage {
public:
  ForbiddenPage() : bytes_(static_cast<std::size_t>(::sysconf(_SC_PAGESIZE))) {
    void* p = ::mmap(nullptr, bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error("mmap failed");
    page_ = static_cast<volatile int*>(p);
  }
  ~ForbiddenPage() { ::munmap(const_cast<int*>(page_), bytes_); }
  volatile int* page() const { return page_; }

private:
  std::size_t bytes_;
  volatile int* page_ = nullptr;
};

TEST(KernelFault, ABodyThatReturnsReportsNoFault) {
  int ran = 0;
  auto body = [&] { ++ran; };
  MemoryFault fault;
  EXPECT_TRUE(runCatchingFaults(body, fault));
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(fault.address, nullptr);
}

TEST(KernelFault, AWriteToAForbiddenPageIsCaughtWithItsAddress) {
  ForbiddenPage forbidden;
  auto body = [&] { forbidden.page()[3] = 7; };
  MemoryFault fault;
  EXPECT_FALSE(runCatchingFaults(body, fault));
  EXPECT_EQ(fault.address, const_cast<int*>(forbidden.page() + 3));
  EXPECT_EQ(fault.signal, SIGSEGV);
#if defined(__x86_64__)
  EXPECT_EQ(fault.access, 2);
#endif
  // The thread catches the next fault too (the signal was unblocked after the jump): a read.
  int sink = 0;
  auto read = [&] { sink = forbidden.page()[0]; };
  EXPECT_FALSE(runCatchingFaults(read, fault));
  EXPECT_EQ(fault.address, const_cast<int*>(forbidden.page()));
#if defined(__x86_64__)
  EXPECT_EQ(fault.access, 1);
#endif
  EXPECT_EQ(sink, 0);
}

TEST(KernelFault, AnExceptionPassesThroughAndLeavesNoJumpPointBehind) {
  auto throwing = [] { throw std::runtime_error("from the body"); };
  MemoryFault fault;
  EXPECT_THROW(runCatchingFaults(throwing, fault), std::runtime_error);
  // Nested: the inner fault returns to the inner call, the outer body goes on.
  ForbiddenPage forbidden;
  bool innerCaught = false;
  auto outer = [&] {
    MemoryFault inner;
    auto faulting = [&] { forbidden.page()[0] = 1; };
    innerCaught = !runCatchingFaults(faulting, inner);
  };
  EXPECT_TRUE(runCatchingFaults(outer, fault));
  EXPECT_TRUE(innerCaught);
}

TEST(KernelFault, TheMessageNamesTheKernelTheBlockAndTheAccess) {
  MemoryFault fault;
  fault.address = reinterpret_cast<const void*>(0x1000);
  fault.signal = SIGSEGV;
  fault.access = 2;
  const std::string message = describeFault("saxpy", fault, 3, 1, 0);
  EXPECT_NE(message.find("kernel `saxpy`: a thread of block (3, 1, 0) wrote to 0x1000"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("PYK_BOUNDSCHECK=1"), std::string::npos);
  fault.access = 1;
  EXPECT_NE(describeFault("k", fault, 0, 0, 0).find("read from"), std::string::npos);
}

} // namespace
} // namespace pyk::cpu
