// LargeStack: a thread with a large stack for the compiler's recursive walks.
#include "base/LargeStack.h"

#include <pthread.h>

#include <cstddef>
#include <exception>

namespace pyk::base {

namespace {

// The parser recurses once per rule; its depth is bounded (PythonParserBase), and this stack is
// large enough for that bound with room to spare. Only touched pages are ever committed.
constexpr std::size_t kLargeStackBytes = std::size_t{512} << 20;

struct Job {
  const std::function<void()>& work;
  std::exception_ptr failure;
};

} // namespace

void runWithLargeStack(const std::function<void()>& work) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kLargeStackBytes);
  pthread_t thread;
  auto trampoline = [](void* arg) -> void* {
    Job& job = *static_cast<Job*>(arg);
    try {
      job.work();
    } catch (...) {
      job.failure = std::current_exception();
    }
    return nullptr;
  };
  Job job{work, nullptr};
  if (pthread_create(&thread, &attr, trampoline, &job) != 0) {
    pthread_attr_destroy(&attr);
    work(); // no thread to be had: run here, still bounded by the parser's rule-depth limit
    return;
  }
  pthread_attr_destroy(&attr);
  pthread_join(thread, nullptr);
  if (job.failure)
    std::rethrow_exception(job.failure);
}

} // namespace pyk::base
