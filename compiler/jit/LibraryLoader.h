// LibraryLoader: the CUDA toolkit's libraries pyk loads at run time rather than links (NVRTC,
// nvJitLink): the first of the candidate paths that dlopen opens, its entry points resolved by
// their exported names. A library that opens but lacks an entry point is unusable, and the
// search stops there (a wrong library named on purpose is not passed over).
#pragma once

#include <dlfcn.h>

#include <functional>
#include <string>
#include <vector>

namespace pyk::jit {

// Resolves `name` in `handle` into `slot`; false, and `whyNot` says which, when it is absent.
template <typename F>
bool resolveSymbol(void* handle, const std::string& name, F& slot, std::string& whyNot) {
  slot = reinterpret_cast<F>(::dlsym(handle, name.c_str()));
  if (slot == nullptr)
    whyNot = "it has no `" + name + "`";
  return slot != nullptr;
}

// Opens the first of `paths` that dlopen can and hands it to `resolve` (which fills its entry
// points, saying in its second argument what is missing): the handle, or nullptr with `whyNot`
// naming the paths tried, or the unusable library and what it lacks. `name` and `description`
// name the library in messages ("NVRTC", "the CUDA toolkit's run-time compiler"); `install` says
// how to get it.
inline void* openLibrary(const std::vector<std::string>& paths, const std::string& name,
                         const std::string& description, const std::string& install,
                         const std::function<bool(void*, std::string&)>& resolve,
                         std::string& whyNot) {
  std::string tried;
  for (const std::string& path : paths) {
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      tried += (tried.empty() ? "" : ", ") + path;
      continue;
    }
    std::string missing;
    if (resolve(handle, missing))
      return handle;
    whyNot = "the " + name + " library `" + path + "` is unusable: " + missing;
    ::dlclose(handle);
    return nullptr;
  }
  whyNot = name + ", " + description + ", cannot be loaded (tried " + tried + "; " + install + ")";
  return nullptr;
}

} // namespace pyk::jit
