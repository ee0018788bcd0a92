// CudaLaunchScenarios: launches of many arguments laid out by a signature's plan at every launch,
// and graphs (pyk/graph.hpp) captured from a stream of the fake driver, replayed, and their
// launches' arguments changed. Part of pyk_cuda_backend_scenarios (CudaBackendScenarios.cpp has
// its main).
#include <cstdint>
#include <string>
#include <vector>

#include "FakeCuda.h"
#include "pyk/pyk.hpp"

namespace {

using namespace pyk_fake_cuda;

TEST(CudaBackend, ALaunchOfManyArgumentsIsLaidOutAsTheFirstWasAtEveryLaunch) {
  // 40 parameters (more than the 32 a launch keeps inline): arrays and scalars of several types,
  // launched twice with other values; the second launch finds the instance by its packed
  // signature and lays the arguments out as that signature's first launch did.
  std::string source = "from numba import cuda\n\n\n@cuda.jit\ndef many(";
  for (int i = 0; i < 40; ++i)
    source += (i ? ", p" : "p") + std::to_string(i);
  source += "):\n    pass\n\n\n@cuda.jit(\"void(float64[::1], float64)\")\n"
            "def typed(x, s):\n    x[0] = s\n";
  const pyk::Module m = pyk::loads(source, "many.pyk");
  std::vector<pyk::DeviceArray<float>> arrays;
  for (int i = 0; i < 10; ++i)
    arrays.push_back(pyk::device_array<float>(3 + i));
  for (int round = 0; round < 2; ++round) {
    std::vector<pyk::KernelArgument> args;
    for (int i = 0; i < 40; ++i) {
      switch (i % 4) {
      case 0:
        args.push_back(pyk::KernelArgument::of(arrays[static_cast<std::size_t>(i / 4)]));
        break;
      case 1:
        args.push_back(pyk::KernelArgument::of(std::int64_t{1000 * round + i}));
        break;
      case 2:
        args.push_back(pyk::KernelArgument::of(0.5 * i + round));
        break;
      default:
        args.push_back(pyk::KernelArgument::of(float(i) - round));
      }
    }
    m["many"].launch_with({{1}, {32}}, 0, args);
    for (int i = 0; i < 40; ++i) {
      const std::vector<unsigned char> p = fakes().parameter(i);
      switch (i % 4) {
      case 0:
        ASSERT_EQ(p.size(), 24u) << i;
        EXPECT_EQ(read<void*>(p, 0), arrays[static_cast<std::size_t>(i / 4)].device_data()) << i;
        EXPECT_EQ(read<std::int64_t>(p, 8), 3 + i / 4) << i;
        EXPECT_EQ(read<std::int64_t>(p, 16), 4) << i;
        break;
      case 1:
        ASSERT_EQ(p.size(), 8u) << i;
        EXPECT_EQ(read<std::int64_t>(p, 0), 1000 * round + i) << i;
        break;
      case 2:
        ASSERT_EQ(p.size(), 8u) << i;
        EXPECT_EQ(read<double>(p, 0), 0.5 * i + round) << i;
        break;
      default:
        ASSERT_EQ(p.size(), 4u) << i;
        EXPECT_EQ(read<float>(p, 0), float(i) - round) << i;
      }
    }
  }
  // A kernel typed float64 given an int64 and a float32: each converted, at every launch.
  pyk::DeviceArray<double> x = pyk::device_array<double>(1);
  for (int round = 0; round < 2; ++round) {
    m["typed"][{1, 1}](x, std::int64_t{7 + round});
    EXPECT_EQ(read<double>(fakes().parameter(1), 0), 7.0 + round);
    m["typed"][{1, 1}](x, 2.5f + round);
    EXPECT_EQ(read<double>(fakes().parameter(1), 0), 2.5 + round);
  }
}

TEST(CudaBackend, AGraphIsCapturedFromAStreamReplayedAndItsArgumentsChanged) {
  const pyk::Module m = pyk::loads(kVectorAdd, "vector_add.pyk");
  pyk::DeviceArray<float> a = pyk::to_device(std::vector<float>(1000, 1.0f));
  pyk::DeviceArray<float> b = pyk::to_device(std::vector<float>(1000, 2.0f));
  pyk::DeviceArray<float> c = pyk::device_array<float>(1000);
  std::vector<float> input(1000, 7.0f);
  pyk::Stream s = pyk::stream();
  const int before = fakes().launches();
  pyk::Graph g = pyk::capture(s, [&] {
    a.copy_from_host(input.data(), s);
    m["vector_add"].launch(4, 256, s)(a, b, c);
    m["scale"].launch(pyk::Dim3(1, 1), pyk::Dim3(8, 5), s)(pyk::device_array<float, 2>({8, 5}),
                                                           3.0); // an array only the graph holds
  });
  EXPECT_EQ(fakes().launches(), before) << "the capture launched";
  EXPECT_EQ(a.copy_to_host()[0], 1.0f) << "the capture copied";
  ASSERT_EQ(g.kernel_launches(), 2u);
  g.launch(s);
  EXPECT_EQ(fakes().launches(), before + 2);
  EXPECT_EQ(fakes().lastFunction(), "pyk_k_scale__A2C_f32_f64");
  EXPECT_EQ(read<double>(fakes().parameter(1), 0), 3.0);
  EXPECT_EQ(a.copy_to_host()[0], 7.0f);

  // The scale launch with another factor, then vector_add with its arrays swapped.
  pyk::DeviceArray<float, 2> other = pyk::device_array<float, 2>({8, 5});
  g.set_arguments(1, other, 0.5);
  g.launch(s);
  EXPECT_EQ(read<void*>(fakes().parameter(0), 0), other.device_data());
  EXPECT_EQ(read<double>(fakes().parameter(1), 0), 0.5);
  pyk::Graph one = pyk::capture(s, [&] { m["vector_add"].launch(4, 256, s)(a, b, c); });
  one.set_arguments(0, c, b, a);
  one.launch(s);
  EXPECT_EQ(fakes().lastFunction(), "pyk_k_vector_add__A1C_f32_A1C_f32_A1C_f32");
  EXPECT_EQ(read<void*>(fakes().parameter(0), 0), c.device_data());
  EXPECT_EQ(read<void*>(fakes().parameter(2), 0), a.device_data());
  pyk::DeviceArray<double> d = pyk::device_array<double>(1000);
  EXPECT_NE(errorOf([&] { one.set_arguments(0, d, b, a); }, pyk::ErrorKind::InvalidArgument)
                .find("was captured with arguments"),
            std::string::npos);
  // The driver refuses to wait for a captured stream; pyk says so first.
  pyk::begin_capture(s);
  EXPECT_NE(
      errorOf([&] { s.synchronize(); }, pyk::ErrorKind::InvalidArgument).find("being captured"),
      std::string::npos);
  pyk::abandon_capture(s);
  s.synchronize();
}

} // namespace
