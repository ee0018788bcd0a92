// SharedObject: dlopen of a memfd holding the library, so cached objects load without a file.
#include "cpu/SharedObject.h"

#include <dlfcn.h>
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "pyk/error.hpp"

namespace pyk::cpu {

namespace {

// Why `bytes` is not a whole shared object for this machine, or "" when its headers and the
// segments the loader maps lie inside it. dlopen maps segments by their file offsets: one past
// the end (a truncated or forged object) would be a SIGBUS on first touch, not an error.
std::string elfProblem(std::string_view bytes) {
  Elf64_Ehdr header{};
  if (bytes.size() < sizeof header)
    return "shorter than an ELF header";
  std::memcpy(&header, bytes.data(), sizeof header);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return "not an ELF file";
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB ||
      header.e_type != ET_DYN)
    return "not a 64-bit little-endian shared object";
#if defined(__x86_64__)
  if (header.e_machine != EM_X86_64)
    return "built for another machine";
#elif defined(__aarch64__)
  if (header.e_machine != EM_AARCH64)
    return "built for another machine";
#endif
  const std::uint64_t size = bytes.size();
  auto within = [&](std::uint64_t offset, std::uint64_t length) {
    return offset <= size && length <= size - offset;
  };
  if (header.e_phentsize != sizeof(Elf64_Phdr) ||
      !within(header.e_phoff, std::uint64_t{header.e_phnum} * sizeof(Elf64_Phdr)))
    return "its program headers lie outside it";
  if (header.e_shnum != 0 &&
      (header.e_shentsize != sizeof(Elf64_Shdr) ||
       !within(header.e_shoff, std::uint64_t{header.e_shnum} * sizeof(Elf64_Shdr))))
    return "its section headers lie outside it";
  for (std::uint16_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment{};
    std::memcpy(&segment, bytes.data() + header.e_phoff + i * sizeof segment, sizeof segment);
    if (segment.p_type != PT_NULL && !within(segment.p_offset, segment.p_filesz))
      return "segment " + std::to_string(i) + " lies outside it (truncated?)";
  }
  return "";
}

} // namespace

SharedObject SharedObject::fromBytes(std::string_view bytes, const std::string& name) {
  if (const std::string problem = elfProblem(bytes); !problem.empty())
    throw Error(ErrorKind::Compile,
                name + ": cannot load the compiled kernel: it is not a whole shared object (" +
                    problem + ")");
  const int fd = memfd_create("pyk-kernel", MFD_CLOEXEC);
  if (fd < 0)
    throw Error(ErrorKind::Compile,
                name + ": cannot create a memory file to load it: " + std::strerror(errno));
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      const int saved = errno;
      ::close(fd);
      throw Error(ErrorKind::Compile,
                  name + ": cannot write it to a memory file: " + std::strerror(saved));
    }
    written += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  const char* error = handle == nullptr ? dlerror() : nullptr;
  if (handle == nullptr) {
    ::close(fd);
    throw Error(ErrorKind::Compile, name + ": cannot load the compiled kernel: " +
                                        (error != nullptr ? error : "unknown dlopen error"));
  }
  // The descriptor stays open while the library is loaded: the dynamic loader knows a library by
  // its path, and a closed descriptor's number (so its /proc/self/fd path) would be reused by the
  // next kernel, which dlopen would then take for this one.
  return SharedObject(handle, fd, name);
}

SharedObject& SharedObject::operator=(SharedObject&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = other.handle_;
    fd_ = other.fd_;
    name_ = std::move(other.name_);
    other.handle_ = nullptr;
    other.fd_ = -1;
  }
  return *this;
}

SharedObject::~SharedObject() {
  release();
}

void SharedObject::release() noexcept {
  if (handle_ != nullptr)
    dlclose(handle_);
  if (fd_ >= 0)
    ::close(fd_);
  handle_ = nullptr;
  fd_ = -1;
}

void* SharedObject::symbol(const std::string& symbol) const {
  return handle_ != nullptr ? dlsym(handle_, symbol.c_str()) : nullptr;
}

} // namespace pyk::cpu
