// SlowCompileNotice: the line comes only when the work outlasts the delay, once.
#include "module/SlowCompileNotice.h"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using pyk::detail::SlowCompileNotice;
using namespace std::chrono_literals;

struct NoticeLines {
  std::mutex mutex;
  std::vector<std::string> lines;
  SlowCompileNotice::Writer writer() {
    return [this](const std::string& line) {
      std::lock_guard lock(mutex);
      lines.push_back(line);
    };
  }
};

TEST(SlowCompileNotice, WorkThatOutlastsTheDelaySaysSoOnce) {
  NoticeLines out;
  {
    SlowCompileNotice notice("pyk: compiling k(int64,) for the CPU (k.pyk)...", 10ms, out.writer());
    std::this_thread::sleep_for(200ms);
  }
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0], "pyk: compiling k(int64,) for the CPU (k.pyk)...");
}

TEST(SlowCompileNotice, WorkDoneBeforeTheDelayIsSilent) {
  NoticeLines out;
  {
    SlowCompileNotice notice("never", 10s, out.writer()); // ends at once, not after 10 s
  }
  EXPECT_TRUE(out.lines.empty());
}

} // namespace
