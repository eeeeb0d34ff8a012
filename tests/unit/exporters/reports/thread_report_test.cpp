#include "exporters/reports/thread_report.h"

#include <gtest/gtest.h>

#include "collectors/lock_graph/deadlock_reports.h"

namespace jvmsight {
namespace {

ThreadRecord blocked_thread() {
  ThreadRecord t;
  t.id = 14;
  t.name = "worker \"1\"\n%s";
  t.daemon = true;
  t.priority = 5;
  t.state = "BLOCKED";
  t.lock = LockRef{0x1234abcd, "java.lang.Object"};
  t.lock_owner_id = 15;
  t.lock_owner_name = "holder";
  FrameRecord f{"com.example.Cache", "get", "Cache.java", 42, false, {}};
  FrameRecord g{"com.example.Cache", "refresh", "Cache.java", 17, false, {LockRef{0x00000abc, "com.example.Cache"}}};
  FrameRecord n{"jdk.internal.misc.Unsafe", "park", "Unsafe.java", -2, true, {}};
  t.stack = {f, g, n};
  return t;
}

TEST(ThreadReport, TextReadsLikeJstack) {
  std::string s = threads_text({blocked_thread()});
  EXPECT_NE(s.find("\"worker \"1\"\n%s\" #14 daemon prio=5\n"), std::string::npos) << s;
  EXPECT_NE(s.find("   java.lang.Thread.State: BLOCKED (on object monitor)\n"), std::string::npos) << s;
  EXPECT_NE(s.find("\tat com.example.Cache.get(Cache.java:42)\n\t- waiting to lock <0x1234abcd> (a java.lang.Object)\n"
                   "\tat com.example.Cache.refresh(Cache.java:17)\n\t- locked <0x00000abc> (a com.example.Cache)\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("\tat jdk.internal.misc.Unsafe.park(Native Method)\n"), std::string::npos) << s;
  EXPECT_NE(s.find("is held by \"holder\" #15"), std::string::npos) << s;
}

TEST(ThreadReport, ParkedThreadSaysParkingToWaitFor) {
  ThreadRecord t;
  t.name = "p";
  t.state = "WAITING";
  t.lock = LockRef{1, "java.util.concurrent.locks.ReentrantLock$NonfairSync"};
  t.stack = {{"jdk.internal.misc.Unsafe", "park", "Unsafe.java", -2, true, {}}};
  EXPECT_EQ(wait_verb(t), WaitVerb::parking_to_wait_for);
  EXPECT_NE(threads_text({t}).find("- parking to wait for  <0x00000001>"), std::string::npos);
  t.stack = {{"java.lang.Object", "wait0", "Object.java", -2, true, {}}};
  EXPECT_EQ(wait_verb(t), WaitVerb::waiting_on);
}

TEST(ThreadReport, JsonEscapesUntrustedNames) {
  std::string s = threads_json({blocked_thread()});
  EXPECT_NE(s.find("\"name\":\"worker \\\"1\\\"\\n%s\""), std::string::npos) << s;
  EXPECT_NE(s.find("\"how\":\"waiting_to_lock\""), std::string::npos) << s;
  EXPECT_NE(s.find("\"owner\":{\"id\":15,\"name\":\"holder\"}"), std::string::npos) << s;
}

TEST(ThreadReport, DeadlockReportListsCycleAndOwnedSynchronizers) {
  DeadlockReport r;
  WaitEdge a{1, "a", {10, "java.lang.Object", LockKind::monitor}, 2, "b"};
  WaitEdge b{2, "b", {20, "java.util.concurrent.locks.ReentrantLock$NonfairSync", LockKind::juc}, 1, "a"};
  r.cycle.edges = {a, b};
  ThreadRecord ta;
  ta.id = 1;
  ta.name = "a";
  ThreadRecord tb;
  tb.id = 2;
  tb.name = "b";
  r.threads = {ta, tb};
  add_cycle_synchronizers(r);
  ASSERT_EQ(r.threads[0].owned_synchronizers.size(), 1u);  // a owns the ReentrantLock b wants
  EXPECT_TRUE(r.threads[1].owned_synchronizers.empty());
  std::string s = deadlocks_text({r});
  EXPECT_NE(s.find("Found one Java-level deadlock (with ownable synchronizers):"), std::string::npos) << s;
  EXPECT_NE(s.find("\"a\":\n  waiting to lock monitor <0x0000000a> (a java.lang.Object),\n  which is held by \"b\"\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("\"b\":\n  waiting for ownable synchronizer <0x00000014>, (a java.util.concurrent.locks."
                   "ReentrantLock$NonfairSync),\n  which is held by \"a\"\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("Found 1 deadlock.\n"), std::string::npos);
  std::string j = deadlocks_json({r});
  EXPECT_NE(j.find("\"kind\":\"ownable_synchronizer\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"count\":1}"), std::string::npos) << j;
  EXPECT_EQ(deadlocks_text({}), "No deadlock found.\n");
}

}  // namespace
}  // namespace jvmsight
