// SlowCompileNotice: see SlowCompileNotice.h. A watcher thread waits on the compile's end for the
// delay; the line goes out with one write(2), so lines from several threads never interleave.
#include "module/SlowCompileNotice.h"

#include <unistd.h>

namespace pyk::detail {

SlowCompileNotice::SlowCompileNotice(std::string line, std::chrono::milliseconds after,
                                     Writer write) {
  watcher_ = std::thread([this, line = std::move(line), after, write = std::move(write)] {
    std::unique_lock lock(mutex_);
    if (finished_.wait_for(lock, after, [&] { return done_; }))
      return;
    lock.unlock();
    if (write) {
      write(line);
      return;
    }
    const std::string text = line + "\n";
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, text.data(), text.size());
  });
}

SlowCompileNotice::~SlowCompileNotice() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  finished_.notify_one();
  watcher_.join();
}

} // namespace pyk::detail
