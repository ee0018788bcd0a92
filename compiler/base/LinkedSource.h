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
#include <vector>

namespace pyk::types {

// numba-cuda's kinds of linkable code (its LinkableCode classes and the file extensions its
// linker knows), in the order nvJitLink's input types list them.
enum class LinkedCodeKind { Cu, Ptx, Cubin, Fatbin, Object, Archive, LtoIr };

// Each kind once: numba-cuda's LinkableCode class, the kind name it gives an unnamed one
// (`<unnamed-ptx>`), the file extension its linker reads it by, and how messages name it.
struct LinkedCodeKindInfo {
  LinkedCodeKind kind;
  std::string_view numbaClass;
  std::string_view numbaKind;
  std::string_view extension;
  const char* description;
};
inline constexpr LinkedCodeKindInfo kLinkedCodeKinds[] = {
    {LinkedCodeKind::Cu, "CUSource", "cu", ".cu", "CUDA C++"},
    {LinkedCodeKind::Ptx, "PTXSource", "ptx", ".ptx", "PTX"},
    {LinkedCodeKind::Cubin, "Cubin", "cubin", ".cubin", "CUBIN"},
    {LinkedCodeKind::Fatbin, "Fatbin", "fatbin", ".fatbin", "fatbin"},
    {LinkedCodeKind::Object, "Object", "object", ".o", "object"},
    {LinkedCodeKind::Archive, "Archive", "archive", ".a", "archive"},
    {LinkedCodeKind::LtoIr, "LTOIR", "ltoir", ".ltoir", "LTO-IR"},
};

inline const LinkedCodeKindInfo& linkedCodeKindInfo(LinkedCodeKind kind) {
  return kLinkedCodeKinds[static_cast<int>(kind)];
}

// "CUDA C++", "PTX", "CUBIN", "fatbin", "object", "archive", "LTO-IR": how messages name it.
inline const char* describe(LinkedCodeKind kind) {
  return linkedCodeKindInfo(kind).description;
}

// The kind whose `field` (extension, numba's class or kind name) is `value`; null for none.
inline const LinkedCodeKindInfo* findLinkedCodeKind(std::string_view LinkedCodeKindInfo::*field,
                                                    std::string_view value) {
  for (const LinkedCodeKindInfo& info : kLinkedCodeKinds)
    if (info.*field == value)
      return &info;
  return nullptr;
}

struct LinkedSource {
  std::string path; // where it was found, or a LinkableCode's name (messages and #line name it)
  std::string text; // CUDA C++ or PTX text; the bytes of a binary kind
  bool inMemory = false; // a cuda.CUSource (PTXSource...): its text is in the module's own
  LinkedCodeKind kind = LinkedCodeKind::Cu;
  // CUDA C++, compiled with the kernel's unit; every other kind is linked by nvJitLink.
  bool compiledWithUnit() const { return kind == LinkedCodeKind::Cu; }
  // CUDA C++ or PTX: text a search for a symbol can read, and `pykc build` can embed.
  bool isText() const { return kind == LinkedCodeKind::Cu || kind == LinkedCodeKind::Ptx; }
  friend bool operator==(const LinkedSource&, const LinkedSource&) = default;
};

// The GPU code among `sources` (every kind but CUDA C++), in order.
inline std::vector<LinkedSource> gpuCodeOf(const std::vector<LinkedSource>& sources) {
  std::vector<LinkedSource> out;
  for (const LinkedSource& s : sources)
    if (!s.compiledWithUnit())
      out.push_back(s);
  return out;
}

// "`f.ptx` (PTX), `<unnamed-cubin>` (CUBIN)": `sources` as messages name them.
inline std::string describe(const std::vector<LinkedSource>& sources) {
  std::string out;
  for (const LinkedSource& s : sources)
    out += (out.empty() ? "`" : ", `") + s.path + "` (" + describe(s.kind) + ")";
  return out;
}

} // namespace pyk::types
