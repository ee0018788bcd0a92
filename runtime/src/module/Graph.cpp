// Graph: pyk::Graph and the capture of a stream (pyk/graph.hpp). On CUDA the driver captures the
// stream (cuStreamBeginCapture in relaxed mode: a kernel's first launch inside the capture loads
// its module, and arrays may be allocated) and pyk notes each launch's node
// (cuStreamGetCaptureInfo right after the launch) to change its arguments later; on the CPU
// backend launches and copies are recorded here and replayed in order.
#include "module/GraphState.h"

#include <cstring>
#include <string>

#include "cuda/CudaContext.h"
#include "module/ArgumentTypes.h"
#include "module/CudaLauncher.h"
#include "module/KernelState.h"
#include "module/LaunchArguments.h"
#include "module/StreamState.h"
#include "profile/NvtxRanges.h"
#include "pyk/error.hpp"

namespace pyk {

namespace detail {

namespace {

const cuda::CudaDriver& driver() {
  return *cuda::CudaDriver::shared();
}

KernelArgument ownedCopy(const KernelArgument& a, std::deque<AnyDeviceArray>& arrays) {
  KernelArgument c = a;
  switch (a.kind) {
  case KernelArgument::Kind::Array:
  case KernelArgument::Kind::Record:
  case KernelArgument::Kind::Pointer:
    arrays.push_back(*a.array);
    c.array = &arrays.back();
    break;
  case KernelArgument::Kind::Tuple: {
    auto tuple = std::make_shared<TupleArgument>(*a.tuple);
    for (KernelArgument& e : tuple->elements)
      e = ownedCopy(e, arrays);
    c.tuple = std::move(tuple);
    break;
  }
  default:
    break;
  }
  return c;
}

std::string describeLaunch(std::size_t index, const CapturedLaunch& launch) {
  return "launch " + std::to_string(index) + " (`" + launch.kernel.name() + "`)";
}

} // namespace

void OwnedArguments::assign(std::span<const KernelArgument> from,
                            std::vector<types::NumbaType> fromTypes) {
  std::deque<AnyDeviceArray> nextArrays;
  std::vector<KernelArgument> next;
  for (const KernelArgument& a : from)
    next.push_back(ownedCopy(a, nextArrays));
  types = std::move(fromTypes);
  arrays = std::move(nextArrays); // a deque's elements stay where they are when it moves
  args = std::move(next);
}

GraphState::~GraphState() {
  if (exec == nullptr && graph == nullptr)
    return;
  cuda::releaseInContext(device->context, [&](const cuda::CudaDriver& d) {
    if (exec != nullptr)
      (void)d.cuGraphExecDestroy(exec);
    if (graph != nullptr)
      (void)d.cuGraphDestroy(graph);
  });
}

void recordLaunch(GraphState& graph, const Stream& stream, const Kernel& kernel,
                  const LaunchShape& shape, std::size_t shared_bytes,
                  std::span<const KernelArgument> args, cuda::CUfunction function) {
  auto launch = std::make_unique<CapturedLaunch>(CapturedLaunch{kernel, shape, shared_bytes, {}});
  launch->arguments.assign(args, typesOf(args));
  launch->function = function;
  std::lock_guard lock(graph.mutex);
  if (graph.backend == Backend::Cuda) {
    // The node the launch became: what the stream's next captured operation would depend on.
    int status = 0;
    const cuda::CUgraphNode* dependencies = nullptr;
    std::size_t count = 0;
    driver().check(driver().cuStreamGetCaptureInfo(StreamAccess::state(stream)->stream, &status,
                                                   nullptr, nullptr, &dependencies, &count),
                   "cuStreamGetCaptureInfo", "the capture of `" + kernel.name() + "`");
    if (status != cuda::kCaptureStatusActive || count != 1 || dependencies == nullptr)
      throw Error(ErrorKind::Internal,
                  "the CUDA driver reports no single node for the captured launch of `" +
                      kernel.name() + "` (a bug in pyk, or a driver pyk does not know)");
    launch->node = dependencies[0];
  } else {
    graph.steps.push_back({static_cast<int>(graph.launches.size()), nullptr, nullptr, 0});
  }
  graph.launches.push_back(std::move(launch));
}

void recordCopy(GraphState& graph, void* to, const void* from, std::size_t bytes,
                const AnyDeviceArray& array, const AnyDeviceArray* other) {
  std::lock_guard lock(graph.mutex);
  graph.kept.push_back(array);
  if (other != nullptr)
    graph.kept.push_back(*other);
  if (graph.backend == Backend::Cpu)
    graph.steps.push_back({-1, to, from, bytes});
}

} // namespace detail

void begin_capture(const Stream& stream) {
  detail::StreamState* state = detail::StreamAccess::state(stream);
  if (state == nullptr)
    throw Error(ErrorKind::InvalidArgument,
                "begin_capture: the default stream cannot be captured (CUDA does not capture "
                "it); capture a stream made with pyk::stream()");
  if (state->capture != nullptr)
    throw Error(ErrorKind::InvalidArgument,
                "begin_capture: the stream is already being captured (end_capture ends that)");
  auto graph = std::make_shared<detail::GraphState>();
  graph->backend = state->backend;
  if (state->backend == Backend::Cuda) {
    const cuda::CudaDriver& d = detail::driver();
    if (!d.graphsMissing.empty())
      throw Error(ErrorKind::Device,
                  "begin_capture: this CUDA driver cannot make graphs: " + d.graphsMissing);
    graph->device = state->device;
    d.check(d.cuStreamBeginCapture(state->stream, cuda::kCaptureModeRelaxed),
            "cuStreamBeginCapture", "a stream of device " + std::to_string(state->device->id));
  }
  state->capture = std::move(graph);
}

Graph end_capture(const Stream& stream) {
  detail::StreamState* state = detail::StreamAccess::state(stream);
  if (state == nullptr || state->capture == nullptr)
    throw Error(ErrorKind::InvalidArgument,
                "end_capture: the stream is not being captured (begin_capture starts a capture)");
  std::shared_ptr<detail::GraphState> graph = std::move(state->capture);
  state->capture = nullptr;
  if (graph->backend == Backend::Cuda) {
    const cuda::CudaDriver& d = detail::driver();
    const std::string what = "a capture of " + std::to_string(graph->launches.size()) +
                             " launches on device " + std::to_string(graph->device->id);
    d.check(d.cuStreamEndCapture(state->stream, &graph->graph), "cuStreamEndCapture", what);
    d.check(d.cuGraphInstantiate(&graph->exec, graph->graph, 0), "cuGraphInstantiate", what);
  }
  return Graph(std::move(graph));
}

void abandon_capture(const Stream& stream) noexcept {
  detail::StreamState* state = detail::StreamAccess::state(stream);
  if (state == nullptr || state->capture == nullptr)
    return;
  state->capture = nullptr;
  if (state->backend != Backend::Cuda)
    return;
  const cuda::CudaDriver& d = detail::driver();
  cuda::CUgraph graph = nullptr;
  if (d.cuStreamEndCapture(state->stream, &graph) == cuda::kCudaSuccess && graph != nullptr)
    (void)d.cuGraphDestroy(graph);
}

void Graph::launch(const Stream& stream) const {
  if (state_ == nullptr)
    throw Error(ErrorKind::InvalidArgument, "Graph::launch: this Graph holds nothing; make one "
                                            "with pyk::capture or pyk::end_capture");
  detail::GraphState& g = *state_;
  std::lock_guard lock(g.mutex);
  const detail::NvtxRange range(detail::NvtxRangeKind::Launch, [&] {
    return "graph of " + std::to_string(g.launches.size()) +
           (g.launches.size() == 1 ? " launch" : " launches");
  });
  if (g.backend == Backend::Cuda) {
    const detail::StreamState* s = detail::StreamAccess::state(stream);
    if (s != nullptr && s->backend != Backend::Cuda)
      throw Error(
          ErrorKind::InvalidArgument,
          "Graph::launch: a graph captured on CUDA replayed on a stream of the CPU backend");
    const cuda::CudaDriver& d = detail::driver();
    d.check(d.cuGraphLaunch(g.exec, static_cast<cuda::CUstream>(stream.handle())), "cuGraphLaunch",
            "a graph of " + std::to_string(g.launches.size()) + " launches");
    return;
  }
  if (detail::capturingGraph(stream) != nullptr)
    throw Error(ErrorKind::InvalidArgument,
                "Graph::launch: replaying a CPU-backend graph into another capture is not "
                "supported yet; replay it outside the capture");
  for (const detail::CapturedStep& step : g.steps) {
    if (step.launch < 0) {
      std::memmove(step.to, step.from, step.bytes);
      continue;
    }
    const detail::CapturedLaunch& l = *g.launches[static_cast<std::size_t>(step.launch)];
    l.kernel.launch_with(l.shape, l.sharedBytes, l.arguments.args);
  }
}

std::size_t Graph::kernel_launches() const {
  return state_ != nullptr ? state_->launches.size() : 0;
}

void Graph::set_arguments_with(std::size_t index, std::span<const KernelArgument> args) {
  if (state_ == nullptr)
    throw Error(ErrorKind::InvalidArgument, "Graph::set_arguments: this Graph holds nothing");
  detail::GraphState& g = *state_;
  std::lock_guard lock(g.mutex);
  if (index >= g.launches.size())
    throw Error(ErrorKind::InvalidArgument,
                "Graph::set_arguments: launch " + std::to_string(index) + " of a graph of " +
                    std::to_string(g.launches.size()) + " kernel launches");
  detail::CapturedLaunch& l = *g.launches[index];
  const std::string what = "Graph::set_arguments: " + detail::describeLaunch(index, l);
  const std::vector<types::NumbaType> types = detail::typesOf(args);
  if (types != l.arguments.types)
    throw Error(ErrorKind::InvalidArgument, what + " was captured with arguments " +
                                                detail::describeTypes(l.arguments.types) +
                                                "; these are " + detail::describeTypes(types) +
                                                " (a graph keeps the compiled code it captured)");
  detail::ArgumentSignature signature;
  const detail::ArgumentScan scan = detail::scanArguments(l.kernel.name(), args, signature);
  if (scan.hasArrays && scan.backend != g.backend)
    throw Error(ErrorKind::InvalidArgument,
                what + ": its arrays are on the " + backend_name(scan.backend) +
                    " backend, the graph's on the " + backend_name(g.backend) + " backend");
  if (g.backend == Backend::Cuda) {
    if (scan.arraysDevice != -1 && scan.arraysDevice != g.device->id)
      throw Error(ErrorKind::InvalidArgument,
                  what + ": its arrays are not all in the memory of device " +
                      std::to_string(g.device->id) + ", where the graph runs");
    detail::CudaKernelInstance& instance =
        detail::cudaInstanceFor(detail::KernelAccess::state(l.kernel), args, *g.device,
                                detail::gridFitsIndex32(l.shape) && scan.fitsIndex32);
    if (instance.function != l.function)
      throw Error(ErrorKind::InvalidArgument,
                  what + ": these arrays need the " +
                      (scan.fitsIndex32 ? std::string("32-bit") : std::string("64-bit")) +
                      " index variant of " + instance.description +
                      ", and the graph holds the other one");
    detail::LaunchArguments laid(args.size());
    for (std::size_t i = 0; i < args.size(); ++i)
      laid.set(i, args[i], instance.params[i]);
    const cuda::KernelNodeParams params{l.function,
                                        static_cast<unsigned>(l.shape.grid.x),
                                        static_cast<unsigned>(l.shape.grid.y),
                                        static_cast<unsigned>(l.shape.grid.z),
                                        static_cast<unsigned>(l.shape.block.x),
                                        static_cast<unsigned>(l.shape.block.y),
                                        static_cast<unsigned>(l.shape.block.z),
                                        static_cast<unsigned>(l.sharedBytes),
                                        laid.pointers(),
                                        nullptr};
    const cuda::CudaDriver& d = detail::driver();
    d.check(d.cuGraphExecKernelNodeSetParams(g.exec, l.node, &params),
            "cuGraphExecKernelNodeSetParams", detail::describeLaunch(index, l) + " of a graph");
  }
  l.arguments.assign(args, types);
}

} // namespace pyk
