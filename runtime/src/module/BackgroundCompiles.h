// BackgroundCompiles: compiles that make a kernel faster, not possible, run on a thread of their
// own while launches go on with what they have (a split kernel specialized for its launch's block
// shape: CpuLauncher). One job at a time, in order; at process exit the queue is dropped and the
// job running is waited for.
#pragma once

#include <functional>

namespace pyk::detail {

// Runs `job` on the background thread. A job must not throw; it keeps alive what it uses.
void compileInBackground(std::function<void()> job);

// Returns when no job is queued or running (pyk::wait_for_compiles).
void waitForBackgroundCompiles();

} // namespace pyk::detail
