// SlowCompileNotice: the one line a compile still running after a while writes (to stderr unless
// told otherwise), so that the seconds a first launch spends in the host compiler or NVRTC are
// never silent. A compile done sooner (a disk-cache hit) says nothing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace pyk::detail {

class SlowCompileNotice {
public:
  using Writer = std::function<void(const std::string& line)>;

  // Writes `line` if this object still lives `after` from now.
  explicit SlowCompileNotice(std::string line,
                             std::chrono::milliseconds after = std::chrono::milliseconds(100),
                             Writer write = {});
  ~SlowCompileNotice();
  SlowCompileNotice(const SlowCompileNotice&) = delete;
  SlowCompileNotice& operator=(const SlowCompileNotice&) = delete;

private:
  std::mutex mutex_;
  std::condition_variable finished_;
  bool done_ = false;
  std::thread watcher_;
};

} // namespace pyk::detail
