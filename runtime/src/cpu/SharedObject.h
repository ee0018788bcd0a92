// SharedObject: a shared library loaded with dlopen (RAII), from a file or from bytes in memory.
#pragma once

#include <string>
#include <string_view>

namespace pyk::cpu {

class SharedObject {
public:
  // Loads the library in `bytes` (through an anonymous memory file, so no file is left behind).
  // `name` names it in messages. Throws pyk::Error (ErrorKind::Compile) when dlopen fails.
  static SharedObject fromBytes(std::string_view bytes, const std::string& name);

  // No library: what a kernel built ahead of time (linked into the program) holds.
  SharedObject() : handle_(nullptr), fd_(-1) {}
  SharedObject(SharedObject&& other) noexcept
      : handle_(other.handle_), fd_(other.fd_), name_(std::move(other.name_)) {
    other.handle_ = nullptr;
    other.fd_ = -1;
  }
  SharedObject& operator=(SharedObject&& other) noexcept;
  SharedObject(const SharedObject&) = delete;
  SharedObject& operator=(const SharedObject&) = delete;
  ~SharedObject();

  // The address of `symbol`, or null when the library has none.
  void* symbol(const std::string& symbol) const;

private:
  SharedObject(void* handle, int fd, std::string name)
      : handle_(handle), fd_(fd), name_(std::move(name)) {}
  void release() noexcept;
  void* handle_;
  int fd_; // the memory file the library was loaded from
  std::string name_;
};

} // namespace pyk::cpu
