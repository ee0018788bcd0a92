// charseq.h: one item of a numpy 'S<n>' or 'U<n>' array as numba holds it (CharSeq,
// UnicodeCharSeq): N bytes or UTF-32 code points, the text's and then zeros. Kernels store str and
// bytes constants into them (truncated to N) and copy them whole.
#pragma once

namespace pyk {

template <typename T, int N>
struct charseq {
  T c[N];
};

} // namespace pyk
