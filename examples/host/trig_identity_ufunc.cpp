// trig_identity_ufunc: seed 004's ufunc cos(x)**2 + sin(x)**2 over ten million float32 values
// (0, 1, 2, ...), as a GPU ufunc (target='cuda') called on a host array (copies included) and on
// a device array (none), and as CPU ufuncs (target='cpu' and 'parallel'). Every result must be 1
// within float32 rounding. The first call of each compiles; the time is the mean of the next
// three (each allocates its output, as numba's ufunc calls do).
#include <numeric>
#include <vector>

#include "example.h"

namespace {

bool allNearOne(const std::vector<float>& y) {
  for (float v : y)
    if (!(std::abs(v - 1.0f) <= 1e-5f))
      return false;
  return true;
}

} // namespace

int main(int argc, char** argv) {
  return example::run(argc, argv, [](const example::Options& o) {
    pyk::Module m = pyk::load(o.examples / "trig_identity_ufunc.pyk");
    const std::int64_t n = 10'000'000;
    std::vector<float> x(n);
    std::iota(x.begin(), x.end(), 0.0f);

    for (const char* name : {"trig_identity", "trig_identity_cpu", "trig_identity_parallel"}) {
      pyk::Kernel ufunc = m[name];
      pyk::HostArray y = ufunc(x); // compiles
      const double secs = example::seconds([&] {
                            for (int r = 0; r < 3; ++r)
                              y = ufunc(x);
                          }) /
                          3;
      // The CPU targets run on the CPU whatever the backend.
      const bool cuda = std::string(name) == "trig_identity";
      example::result(std::string(name) + "_host_array", secs,
                      allNearOne(pyk::host_values<float>(y)), cuda ? example::backend() : "cpu");
    }

    auto xDevice = pyk::to_device(x);
    pyk::AnyDeviceArray yDevice = m["trig_identity"](xDevice);
    const double secs = example::seconds([&] {
                          for (int r = 0; r < 3; ++r)
                            yDevice = m["trig_identity"](xDevice);
                        }) /
                        3;
    example::result("trig_identity_device_array", secs,
                    allNearOne(pyk::host_values<float>(yDevice.copy_to_host())));

    std::vector<float> loop(n);
    const double loopSecs = example::seconds([&] {
      for (std::int64_t i = 0; i < n; ++i)
        loop[i] = std::cos(x[i]) * std::cos(x[i]) + std::sin(x[i]) * std::sin(x[i]);
    });
    example::result("trig_identity_cpp_loop", loopSecs, allNearOne(loop), "host");
  });
}
