// cache_hints.h: numba-cuda's cache-hint loads and stores (cuda.ldca ... cuda.stwt) on the host:
// a CPU has no such hints, so each is the plain load or store of the element, with the names of
// cuda/cache_hints.h's device versions.
#pragma once

namespace pyk {

#define PYK_CACHE_HINT_LOAD(NAME)                                                                  \
  template <typename T>                                                                            \
  inline T NAME(const T* p) {                                                                      \
    return *p;                                                                                     \
  }
#define PYK_CACHE_HINT_STORE(NAME)                                                                 \
  template <typename T>                                                                            \
  inline void NAME(T* p, T value) {                                                                \
    *p = value;                                                                                    \
  }

PYK_CACHE_HINT_LOAD(ldca)
PYK_CACHE_HINT_LOAD(ldcg)
PYK_CACHE_HINT_LOAD(ldcs)
PYK_CACHE_HINT_LOAD(ldlu)
PYK_CACHE_HINT_LOAD(ldcv)
PYK_CACHE_HINT_STORE(stcg)
PYK_CACHE_HINT_STORE(stcs)
PYK_CACHE_HINT_STORE(stwb)
PYK_CACHE_HINT_STORE(stwt)

#undef PYK_CACHE_HINT_LOAD
#undef PYK_CACHE_HINT_STORE

} // namespace pyk
