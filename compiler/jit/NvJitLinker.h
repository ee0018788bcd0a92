// NvJitLinker: nvJitLink, the CUDA toolkit's linker library, loaded at run time as NVRTC is
// (dlopen of libnvJitLink.so.13, .so.12, the toolkit's copy found when pyk was configured, then
// libnvJitLink.so), never linked. It links the kernel's relocatable CUBIN (NVRTC with -rdc) with
// the GPU code numba's link= names (PTX, CUBIN, fatbin, object, archive, LTO-IR) into one CUBIN for
// one architecture; it needs no GPU. Its link is the one place the project calls nvJitLink.
#pragma once

#include <string>
#include <vector>

#include "base/LinkedSource.h"

namespace pyk::jit {

struct NvJitLinkOutput {
  bool ok = false;
  std::string cubin; // the linked CUBIN
  std::string log;   // nvJitLink's error log, then the failing call; empty on success
};

class NvJitLinker {
public:
  // nvJitLink, loaded at the first call in the process: `libraryPath` alone when not empty (the
  // runtime's libnvjitlink setting, $PYK_LIBNVJITLINK), else the usual names. Later calls return
  // the library the first one loaded. nullptr when it cannot be loaded; `whyNot` says why.
  static const NvJitLinker* load(const std::string& libraryPath, std::string* whyNot = nullptr);

  // "13.0" (nvJitLink's own version). Part of cache keys.
  std::string version() const;

  // Links `kernelCubin` (relocatable, for sm_`arch`) with `linked` (never CUDA C++, which NVRTC
  // compiled into the CUBIN) into one CUBIN for sm_`arch`; LTO (-lto) when any of them is LTO-IR.
  NvJitLinkOutput link(const std::string& kernelCubin, const std::string& arch,
                       const std::vector<types::LinkedSource>& linked) const;

  struct EntryPoints; // nvJitLink's functions, resolved by their exported names

private:
  explicit NvJitLinker(const EntryPoints& entries) : entries_(entries) {}
  const EntryPoints& entries_;
};

} // namespace pyk::jit
