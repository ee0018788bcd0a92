// LinkedSource: code that numba's foreign-function interface links with a kernel
// (`cuda.declare_device(..., link=...)`, `@cuda.jit(link=[...])`): a file as the front end found
// and read it, or numba-cuda's `cuda.CUSource(text)` / `cuda.PTXSource(text)`... written in the
// module itself. CUDA C++ is compiled with the kernel: the code generators append its text to the
// unit they emit. Every other kind (PTX, CUBIN, fatbin, object, archive, LTO-IR) is GPU code that
// nvJitLink links with the kernel's relocatable CUBIN (jit/NvJitLinker.h); the CPU backend cannot
// run it and says so.
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace pyk::types {

// numba-cuda's kinds of linkable code (its LinkableCode classes and the file extensions its
// linker knows), in the order nvJitLink's input types list them.
enum class LinkedCodeKind { Cu, Ptx, Cubin, Fatbin, Object, Archive, LtoIr };

// "CUDA C++", "PTX", "CUBIN", "fatbin", "object", "archive", "LTO-IR": how messages name it.
inline const char* describe(LinkedCodeKind kind) {
  switch (kind) {
  case LinkedCodeKind::Cu:
    return "CUDA C++";
  case LinkedCodeKind::Ptx:
    return "PTX";
  case LinkedCodeKind::Cubin:
    return "CUBIN";
  case LinkedCodeKind::Fatbin:
    return "fatbin";
  case LinkedCodeKind::Object:
    return "object";
  case LinkedCodeKind::Archive:
    return "archive";
  case LinkedCodeKind::LtoIr:
    return "LTO-IR";
  }
  return "code";
}

// The kind numba-cuda's linker gives a file by its extension (".cu", ".ptx", ".cubin", ".fatbin",
// ".o", ".a", ".ltoir"); false for any other.
inline bool linkedCodeKindOf(std::string_view extension, LinkedCodeKind& kind) {
  static constexpr std::pair<std::string_view, LinkedCodeKind> kExtensions[] = {
      {".cu", LinkedCodeKind::Cu},       {".ptx", LinkedCodeKind::Ptx},
      {".cubin", LinkedCodeKind::Cubin}, {".fatbin", LinkedCodeKind::Fatbin},
      {".o", LinkedCodeKind::Object},    {".a", LinkedCodeKind::Archive},
      {".ltoir", LinkedCodeKind::LtoIr}};
  for (const auto& [ext, k] : kExtensions)
    if (ext == extension) {
      kind = k;
      return true;
    }
  return false;
}

struct LinkedSource {
  std::string path; // where it was found, or a LinkableCode's name (messages and #line name it)
  std::string text; // CUDA C++ or PTX text; the bytes of a binary kind
  bool inMemory = false; // a cuda.CUSource (PTXSource...): its text is in the module's own
  LinkedCodeKind kind = LinkedCodeKind::Cu;
  // CUDA C++, compiled with the kernel's unit; every other kind is linked by nvJitLink.
  bool compiledWithUnit() const { return kind == LinkedCodeKind::Cu; }
  friend bool operator==(const LinkedSource&, const LinkedSource&) = default;
};

} // namespace pyk::types
