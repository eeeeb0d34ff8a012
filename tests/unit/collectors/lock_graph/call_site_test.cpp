#include "collectors/lock_graph/call_site.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

// A thread parked on a ReentrantLock shows Unsafe.park, LockSupport, AQS and
// the lock's own frames above the caller that asked for it: the call site
// is the first frame below them.
TEST(CallSite, LockMachineryIsSkippedOnEveryJdk) {
  for (const char* c :
       {"jdk.internal.misc.Unsafe", "sun.misc.Unsafe", "java.util.concurrent.locks.LockSupport",
        "java.util.concurrent.locks.AbstractQueuedSynchronizer", "java.util.concurrent.locks.ReentrantLock$NonfairSync",
        "java.lang.VirtualThread", "jdk.internal.misc.VirtualThreads", "jdk.internal.vm.Continuation"})
    EXPECT_TRUE(is_lock_machinery(c)) << c;
  for (const char* c : {"com.example.Bank", "java.util.concurrent.LinkedBlockingQueue", "java.lang.Object",
                        "java.lang.Thread", "java.util.concurrent.lockstep.Mine"})
    EXPECT_FALSE(is_lock_machinery(c)) << c;
}

}  // namespace
}  // namespace jvmsight
