// LargeStack: work run on a thread of its own with a large stack, for the compiler's recursive
// walks (the parser's rules, resolution, typing and lowering over the syntax tree): deeply nested
// but within-limits input fits there whichever thread asked (a runtime user's may have 8 MiB).
#pragma once

#include <functional>

namespace pyk::base {

// Runs `work` on a thread with a 512 MiB stack (committed only as touched) and waits for it; runs
// it on the calling thread when no thread can be made. An exception `work` throws is rethrown
// to the caller.
void runWithLargeStack(const std::function<void()>& work);

} // namespace pyk::base
