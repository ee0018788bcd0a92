// StridedCopy: `copy_<N>d(src, dst)` kernels, one thread per element: the flat index of the
// destination unravelled over its shape, read from the source at that index.
#include "module/StridedCopy.h"

#include <mutex>
#include <string>
#include <vector>

#include "memory/ArrayAccess.h"
#include "pyk/kernel.hpp"

namespace pyk::detail {

namespace {

// The module's source: for each rank 1..8, a kernel unravelling the flat index in C order.
std::string copyKernels() {
  std::string s = "from numba import cuda\n";
  for (int n = 1; n <= 8; ++n) {
    s += "\n\n@cuda.jit\ndef copy_" + std::to_string(n) + "d(src, dst):\n";
    s += "    i = cuda.grid(1)\n";
    s += "    if i < dst.size:\n";
    s += "        r = i\n";
    std::string index;
    for (int d = n - 1; d >= 0; --d) {
      const std::string k = "k" + std::to_string(d);
      if (d > 0) {
        s += "        " + k + " = r % dst.shape[" + std::to_string(d) + "]\n";
        s += "        r = r // dst.shape[" + std::to_string(d) + "]\n";
      } else {
        s += "        " + k + " = r\n";
      }
      index = k + (index.empty() ? "" : ", ") + index;
    }
    s += "        dst[" + index + "] = src[" + index + "]\n";
  }
  return s;
}

const Module& copyModule() {
  static std::once_flag once;
  static Module* module = nullptr;
  std::call_once(once, [] { module = new Module(loads(copyKernels(), "<pyk strided copy>")); });
  return *module;
}

} // namespace

AnyDeviceArray contiguousCopy(const AnyDeviceArray& view, const Stream& stream) {
  AnyDeviceArray out = ArrayAccess::allocate(view.backend(), view.dtype(), view.shape(),
                                             ArrayAccess::record(view), view.chars());
  if (view.size() == 0)
    return out;
  if (view.is_c_contiguous()) {
    out.copy_from_device(view, stream);
    return out;
  }
  if (view.backend() == Backend::Cpu) {
    // Host memory: gathered here, without compiling a kernel.
    std::vector<unsigned char> staging(static_cast<std::size_t>(view.nbytes()));
    view.copy_to_host(staging.data(), staging.size());
    out.copy_from_host(staging.data(), staging.size());
    return out;
  }
  const Kernel copy = copyModule()["copy_" + std::to_string(view.ndim()) + "d"];
  const std::int64_t threads = 256;
  copy.launch(Dim3((view.size() + threads - 1) / threads), Dim3(threads), stream)(view, out);
  return out;
}

} // namespace pyk::detail
