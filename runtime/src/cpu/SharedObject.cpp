// SharedObject: dlopen of a memfd holding the library, so cached objects load without a file.
#include "cpu/SharedObject.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pyk/error.hpp"

namespace pyk::cpu {

SharedObject SharedObject::fromBytes(std::string_view bytes, const std::string& name) {
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
