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
  ::close(fd); // the mapping keeps the contents
  if (handle == nullptr)
    throw Error(ErrorKind::Compile, name + ": cannot load the compiled kernel: " +
                                        (error != nullptr ? error : "unknown dlopen error"));
  return SharedObject(handle, name);
}

SharedObject& SharedObject::operator=(SharedObject&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr)
      dlclose(handle_);
    handle_ = other.handle_;
    name_ = std::move(other.name_);
    other.handle_ = nullptr;
  }
  return *this;
}

SharedObject::~SharedObject() {
  if (handle_ != nullptr)
    dlclose(handle_);
}

void* SharedObject::symbol(const std::string& symbol) const {
  return handle_ != nullptr ? dlsym(handle_, symbol.c_str()) : nullptr;
}

} // namespace pyk::cpu
