// GraphTest: pyk::Graph on the CPU backend: a capture records launches and copies without running
// them, a replay runs them in order (copies reading the host memory as it is then), the graph
// keeps its arrays alive, set_arguments changes a launch's arrays and scalars, and what cannot be
// captured or replayed is refused with a message. (The CUDA side: cuda_backend scenarios.)
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "CpuBackendTest.h"
#include "pyk/pyk.hpp"

namespace {

constexpr const char* kGraphSource = R"(
from numba import cuda, vectorize


@cuda.jit
def add(x, v):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += v


@vectorize(['float32(float32)'])
def half(x):
    return x / 2


@cuda.jit
def twice(x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = 2 * x[i]
)";

using Graphs = CpuBackendTest;

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const pyk::Error& e) {
    EXPECT_EQ(e.kind(), pyk::ErrorKind::InvalidArgument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST_F(Graphs, ACaptureRunsNothingAndEachReplayRunsItAllInOrder) {
  pyk::Module m = pyk::loads(kGraphSource, "graph.pyk");
  auto x = pyk::to_device(std::vector<float>{1, 2, 3});
  auto y = pyk::to_device(std::vector<float>{0, 0, 0});
  std::vector<float> input{10, 20, 30}, output(3, -1.0f);
  pyk::Stream s = pyk::stream();
  pyk::Graph g = pyk::capture(s, [&] {
    x.copy_from_host(input.data(), s);
    m["add"].launch(1, 32, s)(x, 1.0f);
    m["twice"].launch(1, 32, s)(x, y);
    y.copy_to_host(output.data(), s);
  });
  EXPECT_EQ(g.kernel_launches(), 2u);
  EXPECT_EQ(x.copy_to_host(), (std::vector<float>{1, 2, 3})) << "the capture ran a launch";
  EXPECT_EQ(output, std::vector<float>(3, -1.0f)) << "the capture ran a copy";
  g.launch(s);
  EXPECT_EQ(output, (std::vector<float>{22, 42, 62}));
  input = {0, 1, 2}; // a copy reads the host memory at each replay
  g.launch();
  EXPECT_EQ(output, (std::vector<float>{2, 4, 6}));
}

TEST_F(Graphs, TheGraphKeepsItsArraysAlive) {
  pyk::Module m = pyk::loads(kGraphSource, "graph.pyk");
  std::vector<float> output(4, 0.0f);
  pyk::Stream s = pyk::stream();
  pyk::Graph g;
  {
    auto x = pyk::to_device(std::vector<float>{1, 1, 1, 1});
    g = pyk::capture(s, [&] {
      m["add"].launch(1, 32, s)(x, 2.5f);
      x.copy_to_host(output.data(), s);
    });
  } // x's last handle is the graph's
  g.launch(s);
  g.launch(s);
  EXPECT_EQ(output, (std::vector<float>{6, 6, 6, 6}));
}

TEST_F(Graphs, SetArgumentsChangesALaunchForLaterReplays) {
  pyk::Module m = pyk::loads(kGraphSource, "graph.pyk");
  auto x = pyk::to_device(std::vector<float>{0, 0});
  auto w = pyk::to_device(std::vector<float>{5, 5});
  pyk::Stream s = pyk::stream();
  pyk::Graph g = pyk::capture(s, [&] { m["add"].launch(1, 32, s)(x, 1.0f); });
  g.launch(s);
  g.set_arguments(0, w, 3.0f);
  g.launch(s);
  EXPECT_EQ(x.copy_to_host(), (std::vector<float>{1, 1}));
  EXPECT_EQ(w.copy_to_host(), (std::vector<float>{8, 8}));

  auto d = pyk::to_device(std::vector<double>{0, 0});
  const std::string types = errorOf([&] { g.set_arguments(0, d, 3.0f); });
  EXPECT_NE(
      types.find("launch 0 (`add`) was captured with arguments (array(float32, 1d, C), float32)"),
      std::string::npos)
      << types;
  EXPECT_NE(types.find("these are (array(float64, 1d, C), float32)"), std::string::npos) << types;
  const std::string index = errorOf([&] { g.set_arguments(1, x, 1.0f); });
  EXPECT_NE(index.find("launch 1 of a graph of 1 kernel launches"), std::string::npos) << index;
}

TEST_F(Graphs, WhatCannotBeCapturedIsRefused) {
  pyk::Module m = pyk::loads(kGraphSource, "graph.pyk");
  auto x = pyk::to_device(std::vector<float>{0, 0, 0, 0});
  const std::string onDefault = errorOf([&] { pyk::begin_capture(pyk::Stream()); });
  EXPECT_NE(onDefault.find("the default stream cannot be captured"), std::string::npos)
      << onDefault;
  pyk::Stream s = pyk::stream();
  EXPECT_NE(errorOf([&] { (void)pyk::end_capture(s); }).find("not being captured"),
            std::string::npos);
  pyk::begin_capture(s);
  EXPECT_NE(errorOf([&] { pyk::begin_capture(s); }).find("already being captured"),
            std::string::npos);
  const std::string wait = errorOf([&] { s.synchronize(); });
  EXPECT_NE(wait.find("being captured into a graph"), std::string::npos) << wait;
  pyk::abandon_capture(s);
  s.synchronize(); // the stream is a plain one again

  // A strided view's copy waits for its staging copy: refused, and capture() abandons.
  std::vector<float> two(2);
  auto strided = x.slice(0, 0, 4, 2);
  EXPECT_THROW(pyk::capture(s, [&] { strided.copy_to_host(two.data(), s); }), pyk::Error);
  m["add"].launch(1, 32, s)(x, 1.0f); // runs: no capture is left behind
  EXPECT_EQ(x.copy_to_host(), (std::vector<float>{1, 1, 1, 1}));

  // A ufunc call allocates and copies at the call: refused inside a capture, not run wrongly.
  const pyk::UfuncOperand operand = pyk::UfuncOperand::of(x);
  const std::string ufunc = errorOf(
      [&] { (void)pyk::capture(s, [&] { (void)m["half"].call(std::span(&operand, 1), s); }); });
  EXPECT_NE(ufunc.find("a ufunc call cannot be captured"), std::string::npos) << ufunc;

  EXPECT_NE(errorOf([&] { pyk::Graph().launch(); }).find("holds nothing"), std::string::npos);
  EXPECT_EQ(pyk::Graph().kernel_launches(), 0u);
}

} // namespace
