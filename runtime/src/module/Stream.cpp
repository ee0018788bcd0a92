// Stream: pyk::Stream and pyk::Event over CUstream and CUevent on CUDA, and over the host's clock
// on the CPU backend (where every launch and copy has completed when it returns).
#include "module/StreamState.h"

#include "cuda/CudaContext.h"
#include "pyk/error.hpp"
#include "pyk/stream.hpp"

namespace pyk {

namespace detail {

StreamState::~StreamState() {
  if (!owned || stream == nullptr)
    return;
  cuda::releaseInContext(device->context, [&](const cuda::CudaDriver& driver) {
    (void)driver.cuStreamDestroy(stream);
  });
}

EventState::~EventState() {
  if (event == nullptr)
    return;
  cuda::releaseInContext(
      device->context, [&](const cuda::CudaDriver& driver) { (void)driver.cuEventDestroy(event); });
}

} // namespace detail

namespace {

const cuda::CudaDriver& driver() {
  return *cuda::CudaDriver::shared();
}

// Whether work of this thread runs on CUDA: the default stream's backend is the current one.
bool onCuda(const std::shared_ptr<detail::StreamState>& state) {
  return state != nullptr ? state->backend == Backend::Cuda : current_backend() == Backend::Cuda;
}

} // namespace

void Stream::synchronize() const {
  if (state_ != nullptr && state_->capture != nullptr)
    throw Error(ErrorKind::InvalidArgument,
                "Stream::synchronize: the stream is being captured into a graph, and a captured "
                "stream cannot be waited for (CUDA refuses it; a copy of a strided view waits "
                "for its staging copy); end the capture first");
  if (!onCuda(state_))
    return;
  if (state_ == nullptr) {
    cuda::currentDevice();
    driver().check(driver().cuStreamSynchronize(nullptr), "cuStreamSynchronize",
                   "the default stream");
    return;
  }
  driver().check(driver().cuStreamSynchronize(state_->stream), "cuStreamSynchronize", "a stream");
}

bool Stream::query() const {
  if (!onCuda(state_))
    return true;
  if (state_ == nullptr)
    cuda::currentDevice();
  const cuda::CUresult r = driver().cuStreamQuery(state_ != nullptr ? state_->stream : nullptr);
  if (r == cuda::kCudaErrorNotReady)
    return false;
  driver().check(r, "cuStreamQuery", "a stream");
  return true;
}

void* Stream::handle() const {
  return state_ != nullptr ? static_cast<void*>(state_->stream) : nullptr;
}

Stream Stream::external(void* cuStream) {
  auto state = std::make_shared<detail::StreamState>();
  state->backend = Backend::Cuda;
  state->device = &cuda::currentDevice();
  state->stream = static_cast<cuda::CUstream>(cuStream);
  state->owned = false;
  return Stream(std::move(state));
}

Stream stream() {
  auto state = std::make_shared<detail::StreamState>();
  state->backend = current_backend();
  if (state->backend == Backend::Cuda) {
    state->device = &cuda::currentDevice();
    driver().check(driver().cuStreamCreate(&state->stream, 0), "cuStreamCreate",
                   "a new stream on device " + std::to_string(state->device->id));
    state->owned = true;
  }
  return Stream(std::move(state));
}

Event event(bool timing) {
  auto state = std::make_shared<detail::EventState>();
  state->backend = current_backend();
  state->timing = timing;
  if (state->backend == Backend::Cuda) {
    state->device = &cuda::currentDevice();
    driver().check(driver().cuEventCreate(&state->event,
                                          timing ? cuda::kEventDefault : cuda::kEventDisableTiming),
                   "cuEventCreate", "a new event on device " + std::to_string(state->device->id));
  }
  return Event(std::move(state));
}

void synchronize() {
  if (current_backend() != Backend::Cuda)
    return;
  const cuda::DeviceContext& device = cuda::currentDevice();
  driver().check(driver().cuCtxSynchronize(), "cuCtxSynchronize",
                 "device " + std::to_string(device.id));
}

namespace {
detail::EventState& requireEvent(const std::shared_ptr<detail::EventState>& state,
                                 const char* what) {
  if (state == nullptr)
    throw Error(ErrorKind::InvalidArgument,
                std::string(what) +
                    ": this Event was default-constructed; make one with pyk::event()");
  return *state;
}
} // namespace

void Event::record(const Stream& stream) {
  detail::EventState& e = requireEvent(state_, "Event::record");
  e.recorded = true;
  if (e.backend == Backend::Cpu) {
    e.time = std::chrono::steady_clock::now();
    return;
  }
  driver().check(driver().cuEventRecord(e.event, static_cast<cuda::CUstream>(stream.handle())),
                 "cuEventRecord", "an event");
}

void Event::synchronize() const {
  detail::EventState& e = requireEvent(state_, "Event::synchronize");
  if (e.backend == Backend::Cuda)
    driver().check(driver().cuEventSynchronize(e.event), "cuEventSynchronize", "an event");
}

bool Event::query() const {
  detail::EventState& e = requireEvent(state_, "Event::query");
  if (e.backend == Backend::Cpu)
    return true;
  const cuda::CUresult r = driver().cuEventQuery(e.event);
  if (r == cuda::kCudaErrorNotReady)
    return false;
  driver().check(r, "cuEventQuery", "an event");
  return true;
}

void Event::wait(const Stream& stream) const {
  detail::EventState& e = requireEvent(state_, "Event::wait");
  if (e.backend == Backend::Cuda)
    driver().check(
        driver().cuStreamWaitEvent(static_cast<cuda::CUstream>(stream.handle()), e.event, 0),
        "cuStreamWaitEvent", "an event");
}

bool Event::recorded() const {
  return state_ != nullptr && state_->recorded;
}

float Event::elapsed_time(const Event& end) const {
  detail::EventState& start = requireEvent(state_, "Event::elapsed_time");
  detail::EventState& stop = requireEvent(end.state_, "Event::elapsed_time");
  if (!start.recorded || !stop.recorded)
    throw Error(ErrorKind::InvalidArgument, "Event::elapsed_time: both events must be recorded");
  if (start.backend != stop.backend)
    throw Error(ErrorKind::InvalidArgument,
                "Event::elapsed_time: the events belong to different backends");
  if (!start.timing || !stop.timing)
    throw Error(ErrorKind::InvalidArgument,
                "Event::elapsed_time: an event made with event(false) does not time");
  if (start.backend == Backend::Cpu)
    return std::chrono::duration<float, std::milli>(stop.time - start.time).count();
  driver().check(driver().cuEventSynchronize(stop.event), "cuEventSynchronize", "an event");
  float ms = 0;
  driver().check(driver().cuEventElapsedTime(&ms, start.event, stop.event), "cuEventElapsedTime",
                 "two events");
  return ms;
}

} // namespace pyk
