// The counter the VirtualThreadStart/End callbacks bump.
#include "collectors/threads/virtual_thread_counter.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

TEST(VirtualThreadCounter, LiveNeverNegativeAfterAttach) {
  VirtualThreadCounter vt;
  vt.on_end();  // a thread that started before the agent attached
  EXPECT_EQ(vt.live(), 0u);
}

}  // namespace
}  // namespace jvmsight
