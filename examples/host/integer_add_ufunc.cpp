// integer_add_ufunc: seed 000's GPU ufunc `add_ufunc(x, y)` called on host arrays, as numba calls
// it: pyk compiles the kernel, allocates device memory for the inputs and the output, copies the
// inputs in, launches over every element, copies the result back and returns a host array. Then
// with broadcasting, a column (4, 1) against a (4, 4) matrix, and with the data kept on the
// device (no copies; a device array comes back).
#include <numeric>
#include <vector>

#include "example.h"

int main(int argc, char** argv) {
  return example::run(argc, argv, [](const example::Options& o) {
    pyk::Kernel addUfunc = pyk::load(o.examples / "integer_add_ufunc.pyk")["add_ufunc"];
    const std::vector<std::int64_t> a = {1, 2, 3, 4}, b = {10, 20, 30, 40};
    pyk::HostArray sum;
    const double first = example::seconds([&] { sum = addUfunc(a, b); });
    const std::vector<std::int64_t> sumValues = pyk::host_values<std::int64_t>(sum);
    std::printf("add_ufunc(a, b) = [%lld %lld %lld %lld]\n", (long long)sumValues[0],
                (long long)sumValues[1], (long long)sumValues[2], (long long)sumValues[3]);
    example::result("add_ufunc_host_arrays", first,
                    sumValues == std::vector<std::int64_t>{11, 22, 33, 44});

    const pyk::HostArray bCol = pyk::host_array<std::int64_t>({4, 1}, b);
    std::vector<std::int64_t> cValues(16);
    std::iota(cValues.begin(), cValues.end(), 0);
    const pyk::HostArray c = pyk::host_array<std::int64_t>({4, 4}, cValues);
    pyk::HostArray broadcast;
    const double secs = example::seconds([&] { broadcast = addUfunc(bCol, c); });
    std::vector<std::int64_t> expected(16);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        expected[i * 4 + j] = b[i] + cValues[i * 4 + j];
    example::result("add_ufunc_broadcast_4x1_4x4", secs,
                    broadcast.shape == std::vector<std::int64_t>{4, 4} &&
                        pyk::host_values<std::int64_t>(broadcast) == expected);

    // Inputs already on the device: nothing is copied, and the result stays there.
    const std::int64_t n = 1'000'000;
    std::vector<std::int64_t> x(n), y(n);
    std::iota(x.begin(), x.end(), 0);
    std::iota(y.rbegin(), y.rend(), 0);
    auto xDevice = pyk::to_device(x), yDevice = pyk::to_device(y);
    pyk::AnyDeviceArray out;
    addUfunc(xDevice, yDevice); // compiled already; this warms the device's copy of the kernel
    const double device = example::seconds([&] { out = addUfunc(xDevice, yDevice); });
    const std::vector<std::int64_t> got = pyk::host_values<std::int64_t>(out.copy_to_host());
    example::result("add_ufunc_device_arrays_1M", device,
                    got == std::vector<std::int64_t>(n, n - 1));
  });
}
