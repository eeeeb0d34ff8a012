// Deadlock detection compared with the JVM's own verdict (ThreadMXBean, as
// printed by the fixture) and with jstack's report of the same process.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <thread>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

struct Truth {
  std::set<std::string> names;
  long all = 0;
  long monitor = 0;
  long long at_ms = 0;  // wall clock when ThreadMXBean first saw it
};

Truth parse_truth(const std::string& line) {
  Truth t;
  std::stringstream ss(line);
  for (std::string word; ss >> word;) {
    size_t eq = word.find('=');
    if (eq == std::string::npos) continue;
    std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "names") {
      std::stringstream names(value);
      for (std::string n; std::getline(names, n, ',');)
        if (!n.empty()) t.names.insert(n);
    } else if (key == "all")
      t.all = std::stol(value);
    else if (key == "monitor")
      t.monitor = std::stol(value);
    else if (key == "at_ms")
      t.at_ms = std::stoll(value);
  }
  return t;
}

long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Thread names in jstack's "Found one Java-level deadlock" sections.
std::set<std::string> jstack_deadlocked(const Jdk& jdk, pid_t pid) {
  Completed c = run({jdk.tool("jstack"), std::to_string(pid)}, {{"JAVA_TOOL_OPTIONS", ""}});
  EXPECT_EQ(c.exit_code, 0) << c.err;
  std::set<std::string> names;
  std::stringstream ss(c.out);
  bool in_summary = false;
  for (std::string line; std::getline(ss, line);) {
    if (line.rfind("Found one Java-level deadlock", 0) == 0)
      in_summary = true;
    else if (line.rfind("Java stack information", 0) == 0)
      in_summary = false;
    else if (in_summary && line.size() > 3 && line[0] == '"' && line.substr(line.size() - 2) == "\":")
      names.insert(line.substr(1, line.size() - 3));
  }
  return names;
}

// Thread names in the agent's report text (the same section layout).
std::set<std::string> report_deadlocked(const std::string& text) {
  std::set<std::string> names;
  std::stringstream ss(text);
  bool in_summary = false;
  for (std::string line; std::getline(ss, line);) {
    if (line.rfind("Found one Java-level deadlock", 0) == 0)
      in_summary = true;
    else if (line.rfind("Java stack information", 0) == 0)
      in_summary = false;
    else if (in_summary && line.size() > 3 && line[0] == '"' && line.substr(line.size() - 2) == "\":")
      names.insert(line.substr(1, line.size() - 3));
  }
  return names;
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

// Polls stderr until it contains `what`; the wall-clock time it was seen.
std::optional<long long> wait_for_stderr(const Process& p, const std::string& what, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (p.err().find(what) != std::string::npos) return now_ms();
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(5ms);
  }
}

struct Case {
  std::string kind;
  std::string lock_class;  // a class the report must name
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.kind; }

class Deadlock : public ::testing::TestWithParam<std::tuple<Jdk, Case>> {};

TEST_P(Deadlock, MatchesThreadMXBeanAndJstack) {
  const auto& [jdk, c] = GetParam();
  AgentJvm jvm(jdk, "Deadlocks", {c.kind});
  ASSERT_GT(jvm.port, 0);
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 30s);
  ASSERT_TRUE(line) << jvm.process->err();
  Truth truth = parse_truth(*line);
  ASSERT_GE(truth.all, 2);

  // The background check has had time to confirm by now or very soon.
  std::optional<double> all, monitor, cycles;
  for (int i = 0; i < 40; ++i) {
    PromScrape s = jvm.scrape();
    all = s.value("jvm_threads_deadlocked");
    monitor = s.value("jvm_threads_deadlocked_monitor");
    cycles = s.value("jvmsight_deadlock_cycles");
    if (all == truth.all) break;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(all, truth.all) << "findDeadlockedThreads";
  EXPECT_EQ(monitor, truth.monitor) << "findMonitorDeadlockedThreads";
  EXPECT_EQ(cycles, 1.0);

  HttpResult text = jvm.get("/deadlocks");
  EXPECT_EQ(text.status, 200);
  EXPECT_EQ(report_deadlocked(text.body), truth.names) << text.body;
  EXPECT_NE(text.body.find("(a " + c.lock_class + ")"), std::string::npos) << text.body;
  EXPECT_NE(text.body.find("Found 1 deadlock."), std::string::npos) << text.body;
  HttpResult json = jvm.get("/deadlocks?format=json");
  EXPECT_EQ(json.status, 200);
  EXPECT_NE(json.headers.find("application/json"), std::string::npos);
  EXPECT_NE(json.body.find("\"count\":1}"), std::string::npos) << json.body;
  EXPECT_NE(json.body.find(std::string("\"monitor_only\":") + (truth.monitor > 0 ? "true" : "false")),
            std::string::npos);
  for (const auto& name : truth.names) EXPECT_NE(json.body.find("\"name\":\"" + name + "\""), std::string::npos);

  // /threads shows each deadlocked thread waiting, with the lock's owner.
  HttpResult threads = jvm.get("/threads");
  EXPECT_EQ(threads.status, 200);
  for (const auto& name : truth.names) {
    size_t at = threads.body.find("\n\"" + name + "\" #");
    ASSERT_NE(at, std::string::npos) << name << "\n" << threads.body;
    size_t end = threads.body.find("\n\n", at);
    std::string block = threads.body.substr(at, end - at);
    EXPECT_TRUE(block.find("- waiting to lock <") != std::string::npos ||
                block.find("- parking to wait for  <") != std::string::npos)
        << block;
    EXPECT_NE(block.find(" is held by \"dl-"), std::string::npos) << block;
    EXPECT_NE(block.find("\tat Deadlocks.with(Deadlocks.java:"), std::string::npos) << block;
  }
  HttpResult threads_json = jvm.get("/threads?format=json");
  EXPECT_EQ(threads_json.status, 200);
  EXPECT_EQ(threads_json.body.rfind("{\"threads\":[", 0), 0u);
  for (const auto& name : truth.names)
    EXPECT_NE(threads_json.body.find("\"name\":\"" + name + "\""), std::string::npos);

  EXPECT_EQ(jstack_deadlocked(jdk, jvm.process->pid()), truth.names) << "jstack of the same process";

  // Logged once to stderr with the same threads, never repeated.
  std::this_thread::sleep_for(1200ms);  // more than two further checks
  std::string err = jvm.process->err();
  EXPECT_EQ(count_of(err, "deadlock detected"), 1u) << err;
  EXPECT_EQ(report_deadlocked(err), truth.names) << err;
}

TEST_P(Deadlock, BackgroundCheckReportsWithoutAnyScrape) {
  const auto& [jdk, c] = GetParam();
  // The deadlock forms 1.5 s after start, with other threads blocked all
  // along: the check is in its steady state (reusing monitor edges) by then.
  AgentJvm jvm(jdk, "Deadlocks", {c.kind, "1500"});
  ASSERT_GT(jvm.port, 0);
  auto seen = wait_for_stderr(*jvm.process, "deadlock detected", 10s);
  ASSERT_TRUE(seen) << jvm.process->err();
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 5s);
  ASSERT_TRUE(line);
  long long latency = *seen - parse_truth(*line).at_ms;
  std::printf("[jvmsight] %s %s: stderr report %lld ms after ThreadMXBean first saw the deadlock\n", jdk.name.c_str(),
              c.kind.c_str(), latency);
  // Check every 500 ms + 100 ms confirmation: under 1 s by design. The bound
  // adds JVM and polling noise on a loaded 2-CPU machine, still well under a scrape interval.
  EXPECT_LT(latency, 1500) << "reported " << latency << " ms after forming";
  EXPECT_EQ(report_deadlocked(jvm.process->err()), parse_truth(*line).names);
}

// In a contention storm the blocked threads change at every check. The check
// reads monitor edges (handshakes, VM operations) only for threads that made
// no contended entry since the previous check, so the storm costs it next to
// no thread stops, and a deadlock forming in it is still found, one check later.
class StormDeadlock : public ::testing::TestWithParam<std::tuple<Jdk, Case>> {};

TEST_P(StormDeadlock, FoundWithoutStoppingTheStormsThreads) {
  const auto& [jdk, c] = GetParam();
  AgentJvm jvm(jdk, "Deadlocks", {c.kind, "6000", "storm"});
  ASSERT_GT(jvm.port, 0);
  // Before the deadlock: 8 threads storming on 2 monitors.
  std::this_thread::sleep_for(2s);
  PromScrape before = jvm.scrape();
  std::this_thread::sleep_for(3s);
  PromScrape after = jvm.scrape();
  double checks = after.value("jvmsight_deadlock_checks_total").value_or(0) -
                  before.value("jvmsight_deadlock_checks_total").value_or(0);
  double stops = after.value("jvmsight_deadlock_check_thread_stops_total").value_or(-1) -
                 before.value("jvmsight_deadlock_check_thread_stops_total").value_or(0);
  std::printf("[jvmsight] %s storm: %.0f thread stops in %.0f checks\n", jdk.name.c_str(), stops, checks);
  ASSERT_GE(checks, 4);
  // Re-reading the storm costs at least a handshake and a VM operation per
  // check (4-9 measured).
  EXPECT_GE(stops, 0);
  EXPECT_LT(stops, checks) << "the storm's edges are re-read at every check";

  auto seen = wait_for_stderr(*jvm.process, "deadlock detected", 10s);
  ASSERT_TRUE(seen) << jvm.process->err();
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 5s);
  ASSERT_TRUE(line);
  Truth truth = parse_truth(*line);
  long long latency = *seen - truth.at_ms;
  std::printf("[jvmsight] %s %s in a storm: reported %lld ms after ThreadMXBean first saw it\n", jdk.name.c_str(),
              c.kind.c_str(), latency);
  // Two checks 500 ms apart + 100 ms confirmation, plus noise.
  EXPECT_LT(latency, 2000) << "reported " << latency << " ms after forming";
  EXPECT_EQ(report_deadlocked(jvm.process->err()), truth.names);
  EXPECT_EQ(count_of(jvm.process->err(), "deadlock detected"), 1u) << jvm.process->err();
}

std::string case_name(const ::testing::TestParamInfo<std::tuple<Jdk, Case>>& i) {
  return std::get<0>(i.param).name + "_" + std::get<1>(i.param).kind;
}

INSTANTIATE_TEST_SUITE_P(
    Jdks, Deadlock,
    ::testing::Combine(::testing::ValuesIn(all_jdks().list()),
                       ::testing::Values(Case{"monitor2", "Deadlocks$Resource"}, Case{"monitor3", "Deadlocks$Resource"},
                                         Case{"reentrant", "java.util.concurrent.locks.ReentrantLock$NonfairSync"},
                                         Case{"mixed", "java.util.concurrent.locks.ReentrantLock$NonfairSync"},
                                         Case{"rwlock",
                                              "java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync"})),
    case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Deadlock);

// The cases with a monitor on the cycle: the edges a storm could hide.
INSTANTIATE_TEST_SUITE_P(Jdks, StormDeadlock,
                         ::testing::Combine(::testing::ValuesIn(system_jdks().list()),
                                            ::testing::Values(Case{"monitor2", "Deadlocks$Resource"},
                                                              Case{"mixed", "Deadlocks$Resource"})),
                         case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(StormDeadlock);

class VirtualDeadlock : public ::testing::TestWithParam<Jdk> {};

// ThreadMXBean and jstack cannot see virtual threads; the fixture's ground
// truth is what the locks say (owner, queued threads).
TEST_P(VirtualDeadlock, FoundByTheBackgroundCheckOnJdk21Plus) {
  if (GetParam().feature < 21) GTEST_SKIP() << GetParam().name << " has no virtual threads";
  AgentJvm jvm(GetParam(), "Deadlocks", {"virtual"});
  ASSERT_GT(jvm.port, 0);
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 30s);
  ASSERT_TRUE(line) << jvm.process->err();
  Truth truth = parse_truth(*line);
  ASSERT_EQ(truth.names, (std::set<std::string>{"vt-a", "vt-b"})) << *line;
  auto seen = wait_for_stderr(*jvm.process, "deadlock detected", 10s);
  ASSERT_TRUE(seen) << jvm.process->err();
  EXPECT_LT(*seen - truth.at_ms, 1500) << "reported late";
  EXPECT_EQ(report_deadlocked(jvm.process->err()), truth.names) << jvm.process->err();
  // Stacks from the virtual threads themselves (ThreadMXBean has none).
  EXPECT_EQ(count_of(jvm.process->err(), "\tat Deadlocks.with(Deadlocks.java:"), 4u) << jvm.process->err();
  EXPECT_EQ(jvm.process->err().find("(stack unavailable)"), std::string::npos) << jvm.process->err();
  PromScrape s = jvm.scrape();
  EXPECT_EQ(s.value("jvm_threads_deadlocked"), truth.all);
  EXPECT_EQ(s.value("jvm_threads_deadlocked_monitor"), 0.0);
  EXPECT_EQ(s.value("jvmsight_deadlock_cycles"), 1.0);
  HttpResult text = jvm.get("/deadlocks");
  EXPECT_EQ(report_deadlocked(text.body), truth.names) << text.body;
  EXPECT_NE(text.body.find("(a java.util.concurrent.locks.ReentrantLock$NonfairSync)"), std::string::npos) << text.body;
}

JVMSIGHT_JDKS(VirtualDeadlock, all_jdks());

class NoDeadlock : public ::testing::TestWithParam<Jdk> {};

TEST_P(NoDeadlock, HeavilyBlockedPoolReportsZeroRepeatedly) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"pool"});
  ASSERT_GT(jvm.port, 0);
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 30s);
  ASSERT_TRUE(line);
  ASSERT_EQ(parse_truth(*line).all, 0);
  for (int i = 0; i < 8; ++i) {
    PromScrape s = jvm.scrape();
    EXPECT_EQ(s.value("jvm_threads_deadlocked"), 0.0);
    EXPECT_EQ(s.value("jvm_threads_deadlocked_monitor"), 0.0);
    EXPECT_EQ(s.value("jvmsight_deadlock_cycles"), 0.0);
    EXPECT_EQ(jvm.get("/deadlocks").body, "No deadlock found.\n");
    std::this_thread::sleep_for(300ms);
  }
  PromScrape s = jvm.scrape();
  EXPECT_GE(s.value("jvmsight_deadlock_checks_total").value_or(0), 4);
  EXPECT_EQ(parse_truth(jvm.report("DEADLOCKED")).all, 0);
  EXPECT_EQ(jvm.process->err().find("deadlock detected"), std::string::npos) << jvm.process->err();
  EXPECT_EQ(jvm.get("/deadlocks?format=json").body, "{\"deadlocks\":[],\"count\":0}\n");
}

TEST_P(NoDeadlock, QueuesBehindHoldersMatchThreadMXBean) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"pool"});
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(jvm.process->wait_for_line("DEADLOCKED ", 30s));
  jvm.process->send("queues");
  auto line = jvm.process->wait_for_line("QUEUES ", 30s);
  ASSERT_TRUE(line);
  auto truth = parse_report(*line);
  PromScrape s = jvm.scrape();
  std::map<std::string, long> seen;
  for (const auto& q : s.all("jvmsight_lock_queue_length")) seen[q.labels.at("holder")] += static_cast<long>(q.value);
  // The top holders the agent lists, each with ThreadMXBean's count of threads waiting on it.
  EXPECT_EQ(seen["pool-holder"], 21);  // 20 blocked + pool-middle
  EXPECT_EQ(seen["pool-middle"], 10);  // parked on its ReentrantLock
  for (const auto& [holder, n] : seen) EXPECT_EQ(n, truth[holder]) << holder;
  EXPECT_EQ(s.all("jvmsight_lock_queue_length").size(), 10u) << "bounded to the top 10 holders";
  const std::string rl = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
  const std::string sem = "java.util.concurrent.Semaphore$NonfairSync";
  EXPECT_EQ(s.value("jvmsight_juc_parked_threads", {{"lock_class", rl}}), truth["parked." + rl]);
  EXPECT_EQ(s.value("jvmsight_juc_parked_threads", {{"lock_class", sem}}), truth["parked." + sem]);
  EXPECT_EQ(truth["parked." + rl], 10);
  EXPECT_EQ(truth["parked." + sem], 5);
  EXPECT_EQ(s.value("jvmsight_lock_waiting_threads", {{"kind", "monitor"}}), 30.0);  // 20 + middle + 9 chain links
  EXPECT_EQ(s.value("jvmsight_lock_waiting_threads", {{"kind", "juc"}}), 15.0);
  // Who holds it and where: the holder's stack in /threads.
  std::string threads = jvm.get("/threads").body;
  EXPECT_NE(threads.find("is held by \"pool-holder\""), std::string::npos);
  size_t holder = threads.find("\n\"pool-holder\" #");
  ASSERT_NE(holder, std::string::npos);
  EXPECT_NE(threads.find("- locked <", holder), std::string::npos);
}

TEST_P(NoDeadlock, DetailsOffRemovesThreadAndDeadlockEndpoints) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"monitor2"}, "details=off");
  ASSERT_GT(jvm.port, 0);
  EXPECT_EQ(jvm.get("/threads").status, 404);
  EXPECT_EQ(jvm.get("/deadlocks").status, 404);
  EXPECT_EQ(jvm.get("/deadlocks?format=xml").status, 404);
  // The gauges and the stderr report stay: they say that, not where.
  ASSERT_TRUE(wait_for_stderr(*jvm.process, "deadlock detected", 10s));
  EXPECT_EQ(jvm.scrape().value("jvm_threads_deadlocked"), 2.0);
}

TEST_P(NoDeadlock, UnknownFormatIsABadRequest) {
  AgentJvm jvm(GetParam(), "Idle");
  ASSERT_GT(jvm.port, 0);
  EXPECT_EQ(jvm.get("/threads?format=xml").status, 400);
  EXPECT_EQ(jvm.get("/deadlocks?format=xml").status, 400);
  HttpResult t = jvm.get("/threads");
  EXPECT_EQ(t.status, 200);
  EXPECT_NE(t.body.find("\n\"main\" #"), std::string::npos) << t.body;
  EXPECT_NE(t.body.find("\tat java.io.FileInputStream.read"), std::string::npos) << t.body;
}

JVMSIGHT_JDKS(NoDeadlock, system_jdks());

class DeadlockGauges : public ::testing::TestWithParam<Jdk> {};

// client_java's jvm_threads_deadlocked is findDeadlockedThreads().length,
// which lists a thread blocked on a deadlocked one when the JVM's thread
// list has it before the cycle: the same number as the JVM, bystanders and all.
TEST_P(DeadlockGauges, CountBystandersAsFindDeadlockedThreadsDoes) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"bystanders"});
  ASSERT_GT(jvm.port, 0);
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 30s);
  ASSERT_TRUE(line) << jvm.process->err();
  Truth truth = parse_truth(*line);
  EXPECT_EQ(truth.all, 3) << "the JVM lists the early bystander: " << *line;
  std::optional<double> all;
  for (int i = 0; i < 40 && all != truth.all; ++i) {
    all = jvm.scrape().value("jvm_threads_deadlocked");
    if (all != truth.all) std::this_thread::sleep_for(100ms);
  }
  PromScrape s = jvm.scrape();
  EXPECT_EQ(s.value("jvm_threads_deadlocked"), truth.all);
  EXPECT_EQ(s.value("jvm_threads_deadlocked_monitor"), truth.monitor);
  EXPECT_EQ(s.value("jvmsight_deadlock_cycles"), 1.0) << "one cycle, whatever waits on it";
  EXPECT_EQ(parse_truth(jvm.report("DEADLOCKED")).all, truth.all);
}

// A check that is off reports nothing rather than a 0 that would hide a
// deadlock: absent() alerts can tell.
TEST_P(DeadlockGauges, AbsentWhenTheCheckIsOff) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"monitor2"}, "deadlock_check_ms=0");
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(jvm.process->wait_for_line("DEADLOCKED ", 30s));
  PromScrape s = jvm.scrape();
  EXPECT_TRUE(s.value("jvm_threads_current").has_value());
  EXPECT_FALSE(s.value("jvm_threads_deadlocked").has_value());
  EXPECT_FALSE(s.value("jvm_threads_deadlocked_monitor").has_value());
  EXPECT_FALSE(s.value("jvmsight_deadlock_cycles").has_value());
  EXPECT_FALSE(s.value("jvmsight_deadlock_check_last_success_timestamp_seconds").has_value());
  EXPECT_EQ(s.value("jvmsight_deadlock_checks_total"), 0.0);
}

JVMSIGHT_JDKS(DeadlockGauges, all_jdks());

class LockScanBudgets : public ::testing::TestWithParam<Jdk> {};

// What the agent serves from the background is never older than twice its
// refresh interval: a second, or 200 times the CPU the work last cost.
double served_age_bound(const PromScrape& s, const std::string& cost_family) {
  return 2 * std::max(1.0, 200 * s.value(cost_family).value_or(0));
}

// More distinct locks than any budget of the scan (32 monitor lookups, 64
// handshakes a scrape, 64 j.u.c. locks grouped in Java): the background
// check still finds the cycle whose threads come last, and the scrape
// still counts every waiting thread as ThreadMXBean does.
TEST_P(LockScanBudgets, OverflowFindsTheCycleAndCountsEveryWaiter) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"many"});
  ASSERT_GT(jvm.port, 0);
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 60s);
  ASSERT_TRUE(line) << jvm.process->err();
  Truth truth = parse_truth(*line);
  EXPECT_EQ(truth.names, (std::set<std::string>{"dl-a", "dl-b"}));
  ASSERT_TRUE(wait_for_stderr(*jvm.process, "deadlock detected", 10s)) << jvm.process->err();
  EXPECT_EQ(report_deadlocked(jvm.process->err()), truth.names);
  jvm.process->send("queues");
  auto queues = jvm.process->wait_for_line("QUEUES ", 30s);
  ASSERT_TRUE(queues);
  auto q = parse_report(*queues);
  EXPECT_EQ(q["blocked"], 82);  // 80 + the cycle's 2
  const std::string rl = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
  EXPECT_EQ(q["parked." + rl], 70);
  PromScrape s = jvm.scrape();
  EXPECT_EQ(s.value("jvm_threads_deadlocked"), truth.all);
  EXPECT_EQ(s.value("jvmsight_lock_waiting_threads", {{"kind", "monitor"}}), q["blocked"]);
  EXPECT_EQ(s.value("jvmsight_lock_waiting_threads", {{"kind", "juc"}}), q["parked." + rl]);
  EXPECT_EQ(s.value("jvmsight_juc_parked_threads", {{"lock_class", rl}}), q["parked." + rl]);
  // Holders listed are real ones, each with its one waiter.
  auto holders = s.all("jvmsight_lock_queue_length");
  EXPECT_EQ(holders.size(), 10u);
  for (const auto& h : holders) EXPECT_EQ(h.value, q[h.labels.at("holder")]) << h.labels.at("holder");
}

// The queue families are gathered in the background while someone scrapes
// and served with their age, bounded: a change shows within the bound.
TEST_P(LockScanBudgets, QueuesServedFromTheBackgroundFollowChangesWithinTheirAge) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"pool"});
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(jvm.process->wait_for_line("DEADLOCKED ", 30s));
  PromScrape first = jvm.scrape();
  double monitor = first.value("jvmsight_lock_waiting_threads", {{"kind", "monitor"}}).value_or(-1);
  EXPECT_EQ(monitor, 30.0);
  double oldest = 0;
  for (int round = 1; round <= 3; ++round) {
    jvm.process->send("more");
    ASSERT_TRUE(jvm.process->wait_for_line("MORE", 30s, static_cast<size_t>(round)));
    jvm.process->send("queues");
    auto line = jvm.process->wait_for_line("QUEUES ", 30s, static_cast<size_t>(round));
    ASSERT_TRUE(line);
    auto q = parse_report(*line);
    // Longer than the bound (2 s for a scan under 5 ms of CPU; twice 200
    // times its cost above): what is served was gathered since.
    auto changed = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(2500ms);
    PromScrape s = jvm.scrape();
    double bound = served_age_bound(s, "jvmsight_lock_queue_refresh_seconds");
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - changed).count() <= bound) {
      std::this_thread::sleep_for(std::chrono::duration<double>(bound));
      s = jvm.scrape();
      bound = served_age_bound(s, "jvmsight_lock_queue_refresh_seconds");
    }
    double age = s.value("jvmsight_lock_queue_age_seconds").value_or(-1);
    EXPECT_GE(age, 0);
    EXPECT_LE(age, bound) << "served older than its bound";
    oldest = std::max(oldest, age);
    EXPECT_EQ(s.value("jvmsight_lock_waiting_threads", {{"kind", "monitor"}}), q["blocked"]) << "round " << round;
    EXPECT_EQ(q["blocked"], 30 + 5 * round);
    bool listed = false;
    for (const auto& h : s.all("jvmsight_lock_queue_length"))
      if (h.labels.at("holder") == "more-holder-" + std::to_string(round - 1)) listed = h.value == 5;
    EXPECT_TRUE(listed) << "the new holder with its 5 waiters, round " << round;
    EXPECT_GT(s.value("jvmsight_lock_queue_refresh_seconds").value_or(-1), 0);
  }
  // A scan at scrape time is microseconds old: at least one came from the background.
  EXPECT_GT(oldest, 0.001);
}

JVMSIGHT_JDKS(LockScanBudgets, system_jdks());

class AttachedDeadlock : public ::testing::TestWithParam<std::tuple<Jdk, Case>> {};

// The agent attached into a JVM that is already deadlocked: the
// OnLoad-only capabilities are missing, so the ThreadMXBean fallback finds it.
TEST_P(AttachedDeadlock, IsReported) {
  const auto& [jdk, c] = GetParam();
  TempDir dir;
  Process p(java_command(jdk, {}, "Deadlocks", {c.kind}), {{"JAVA_TOOL_OPTIONS", ""}});
  auto line = p.wait_for_line("DEADLOCKED ", 30s);
  ASSERT_TRUE(line) << p.err();
  Truth truth = parse_truth(*line);
  // jcmd JVMTI.agent_load, or jattach on JDK 8 (its jcmd has no such command).
  Completed attach = attach_agent(jdk, p.pid(), agent_path(), "port=0,host=127.0.0.1,portfile=" + dir.path("port"),
                                  false, {{"JAVA_TOOL_OPTIONS", ""}});
  ASSERT_EQ(attach.exit_code, 0) << attach.out << attach.err;
  auto port = read_portfile(dir.path("port"), 30s);
  ASSERT_TRUE(port) << p.err();
  ASSERT_TRUE(wait_for_stderr(p, "deadlock detected", 10s)) << p.err();
  EXPECT_NE(p.err().find("using ThreadMXBean.findDeadlockedThreads"), std::string::npos) << p.err();
  EXPECT_EQ(report_deadlocked(p.err()), truth.names) << p.err();
  PromScrape s(http_get(*port, "/metrics").body);
  EXPECT_EQ(s.value("jvm_threads_deadlocked"), truth.all);
  EXPECT_EQ(s.value("jvm_threads_deadlocked_monitor"), truth.monitor);
  EXPECT_EQ(s.value("jvmsight_deadlock_check_stops_the_world"), 1.0);
  EXPECT_EQ(report_deadlocked(http_get(*port, "/deadlocks").body), truth.names);
}

INSTANTIATE_TEST_SUITE_P(Jdks, AttachedDeadlock,
                         ::testing::Combine(::testing::ValuesIn(all_jdks().list()),
                                            ::testing::Values(Case{"monitor2", "Deadlocks$Resource"},
                                                              Case{"mixed", "Deadlocks$Resource"})),
                         case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AttachedDeadlock);

}  // namespace
}  // namespace jvmsight::test
