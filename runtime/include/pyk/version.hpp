// version: pyk's version, shared by pykc and the runtime (it keys the compile cache).
#pragma once

namespace pyk {

struct Version {
  int major;
  int minor;
  int patch;
};

inline constexpr Version kVersion{PYK_VERSION_MAJOR, PYK_VERSION_MINOR, PYK_VERSION_PATCH};

} // namespace pyk
