// FiberStacks: mapping fiber stacks with guard pages (mmap, then mprotect of each lowest page).
#include "cpu/FiberStacks.h"

#include "pyk/error.hpp"

#include <cerrno>
#include <cstring>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

namespace pyk::cpu {

FiberStacks::FiberStacks(std::size_t stackBytes)
    : pageBytes_(static_cast<std::size_t>(::sysconf(_SC_PAGESIZE))),
      stackBytes_((stackBytes + pageBytes_ - 1) / pageBytes_ * pageBytes_) {}

FiberStacks::~FiberStacks() {
  for (const Mapping& mapping : mappings_)
    ::munmap(mapping.base, mapping.bytes);
}

void FiberStacks::reserve(uint32_t count) {
  if (count <= tops_.size())
    return;
  const std::size_t missing = count - tops_.size();
  const std::size_t slotBytes = pageBytes_ + stackBytes_;
  const std::size_t bytes = missing * slotBytes;
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  auto fail = [&](const char* call) {
    const int error = errno;
    throw Error(ErrorKind::Device, std::string("cannot map ") + std::to_string(missing) +
                                       " fiber stacks of " + std::to_string(stackBytes_ / 1024) +
                                       " KiB (" + call + ": " + std::strerror(error) +
                                       "); fewer workers (`PYK_CPU_THREADS`) or smaller stacks "
                                       "(`PYK_CPU_FIBER_STACK`) need less");
  };
  if (base == MAP_FAILED)
    fail("mmap");
  mappings_.push_back({base, bytes});
  auto* slots = static_cast<unsigned char*>(base);
  for (std::size_t i = 0; i < missing; ++i) {
    unsigned char* guard = slots + i * slotBytes;
    if (::mprotect(guard, pageBytes_, PROT_NONE) != 0)
      fail("mprotect");
    tops_.push_back(guard + slotBytes);
  }
}

} // namespace pyk::cpu
