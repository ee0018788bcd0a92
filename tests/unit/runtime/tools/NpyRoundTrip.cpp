// NpyRoundTrip: the tool npy_numpy_crosscheck.py drives: reads each .npy file given with read_npy
// and writes it back with write_npy, so numpy can check what pyk read and wrote.
//
// Usage: pyk_npy_roundtrip IN OUT [IN OUT ...]. Prints "IN: DTYPE SHAPE" for each file read, and
// pyk's error message on stderr for each that fails; exits 1 if any failed.
#include <cstdio>
#include <string>

#include "pyk/error.hpp"
#include "pyk/npy.hpp"

int main(int argc, char** argv) {
  if (argc < 3 || argc % 2 != 1) {
    std::fprintf(stderr, "usage: %s IN OUT [IN OUT ...]\n", argv[0]);
    return 2;
  }
  int failures = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    try {
      pyk::HostArray array = pyk::read_npy(argv[i]);
      std::string shape;
      for (std::int64_t extent : array.shape)
        shape += (shape.empty() ? "" : ",") + std::to_string(extent);
      std::printf("%s: %s (%s)\n", argv[i], std::string(pyk::dtype_name(array.dtype)).c_str(),
                  shape.c_str());
      pyk::write_npy(argv[i + 1], array);
    } catch (const pyk::Error& error) {
      std::fprintf(stderr, "%s\n", error.what());
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}
