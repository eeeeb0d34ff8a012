#include "exporters/reports/lock_order_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace jvmsight {
namespace {

LockOrderInversion two_locks() {
  LockId left{0x11, "Bank$Left", LockKind::monitor};
  LockId right{0x22, "java.util.concurrent.locks.ReentrantLock$NonfairSync", LockKind::juc};
  LockOrder ab{left, right, 7, "teller \"1\"", {"Bank", "debit", "Bank.java", 40, false, {}}};
  LockOrder ba{right, left, 8, "teller-2", {}};  // call site unknown
  return {{ab, ba}};
}

TEST(LockOrderReport, InversionTextNamesLocksThreadsAndSites) {
  std::string s = inversion_text(two_locks());
  EXPECT_EQ(s.rfind("Lock-order inversion of 2 locks (a potential deadlock; none has formed):\n", 0), 0u) << s;
  EXPECT_NE(s.find("  \"teller \"1\"\" #7 held <0x00000011> (a Bank$Left) and waited for <0x00000022> (a "
                   "java.util.concurrent.locks.ReentrantLock$NonfairSync)\n\tat Bank.debit(Bank.java:40)\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("\"teller-2\" #8 held <0x00000022>"), std::string::npos) << s;
  EXPECT_NE(s.find("\t(call site unknown)\n"), std::string::npos) << s;
}

TEST(LockOrderReport, PageKeepsTheDeadlockTextAndAddsInversionsOnlyWhenThereAreAny) {
  EXPECT_EQ(deadlocks_page_text({}), "No deadlock found.\n");
  DeadlocksPage page;
  page.inversions = {two_locks()};
  std::string s = deadlocks_page_text(page);
  EXPECT_EQ(s.rfind("No deadlock found.\n\nPotential deadlocks (lock-order inversions): 1\n\n", 0), 0u) << s;
}

TEST(LockOrderReport, JsonIsValidAndCarriesEveryOrder) {
  DeadlocksPage page;
  page.inversions = {two_locks()};
  auto j = nlohmann::json::parse(deadlocks_page_json(page));
  EXPECT_EQ(j["count"], 0);
  EXPECT_TRUE(j["deadlocks"].empty());
  ASSERT_EQ(j["potential_count"], 1);
  const auto& inv = j["potential_deadlocks"][0];
  ASSERT_EQ(inv["locks"].size(), 2u);
  EXPECT_EQ(inv["locks"][1]["kind"], "ownable_synchronizer");
  const auto& ab = inv["orders"][0];
  EXPECT_EQ(ab["thread"]["name"], "teller \"1\"");
  EXPECT_EQ(ab["held"]["identity_hash"], "0x00000011");
  EXPECT_EQ(ab["waited_for"]["class"], "java.util.concurrent.locks.ReentrantLock$NonfairSync");
  EXPECT_EQ(ab["site"]["method"], "debit");
  EXPECT_EQ(ab["site"]["line"], 40);
  EXPECT_TRUE(inv["orders"][1]["site"].is_null());
}

TEST(LockOrderReport, StuckTextNamesThreadLockOwnerAndBothStacks) {
  StuckThreadReport r;
  r.thread = 3;
  r.lock = {0x33, "Ledger", LockKind::monitor};
  r.owner = 4;
  r.seconds = 61.25;
  ThreadRecord waiter;
  waiter.id = 3;
  waiter.name = "waiter";
  waiter.state = "BLOCKED";
  waiter.stack = {{"App", "post", "App.java", 12, false, {}}};
  ThreadRecord owner;
  owner.id = 4;
  owner.name = "holder";
  owner.state = "TIMED_WAITING";
  owner.stack = {{"java.lang.Thread", "sleep", "", -1, true, {}}, {"App", "hold", "App.java", 30, false, {}}};
  r.threads = {waiter, owner};
  std::string s = stuck_text(r);
  EXPECT_EQ(s.rfind("thread \"waiter\" #3 has waited 61.2 s to lock monitor <0x00000033> (a Ledger), held by "
                    "\"holder\" #4:\n",
                    0),
            0u)
      << s;
  EXPECT_NE(s.find("\tat App.post(App.java:12)\n"), std::string::npos) << s;
  EXPECT_NE(s.find("\tat App.hold(App.java:30)\n"), std::string::npos) << s;
  r.threads.pop_back();  // the owner ended meanwhile
  r.lock.kind = LockKind::juc;
  EXPECT_NE(stuck_text(r).find("for ownable synchronizer <0x00000033> (a Ledger), held by #4:"), std::string::npos);
}

}  // namespace
}  // namespace jvmsight
