// Soak: thread churn far beyond what a scrape ever sees at once, with the
// agent's counts compared at the end with what the JVM itself says, while
// clients keep scraping, pulling thread dumps and sending garbage.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "tests/harness/agent_jvm.h"
#include "tests/harness/thread_truth.h"

namespace jvmsight::test {
namespace {

class Soak : public ::testing::TestWithParam<Jdk> {
 protected:
  // Every count of the fixture's report; the in-native sub-state only where
  // the agent collects it by default (JDK 10 to 20, see ThreadMetrics).
  std::vector<std::string> keys() const {
    std::vector<std::string> all = {"NEW",        "RUNNABLE", "BLOCKED",  "WAITING",     "TIMED_WAITING",
                                    "TERMINATED", "parked",   "sleeping", "object_wait", "current",
                                    "daemon",     "peak",     "started"};
    if (GetParam().feature >= 10 && GetParam().feature < 21) all.push_back("native");
    return all;
  }
};
// One JDK is enough for the scale: every JDK runs the same storm for 12 s
// (Churn, below), this one adds the numbers.
JVMSIGHT_JDKS(Soak, system_jdks().from(21));

// Answers by status, per client kind, counted by clients running until stopped.
struct ClientStorm {
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::map<std::string, std::map<int, long>> answers;  // kind -> status -> count
  std::vector<std::thread> clients;

  void start(int port) {
    auto loop = [this](std::string kind, std::function<int()> request) {
      while (!stop) {
        int status = request();
        std::lock_guard<std::mutex> hold(mutex);
        ++answers[kind][status];
      }
    };
    for (int i = 0; i < 4; ++i)
      clients.emplace_back(loop, "metrics", [port] { return http_get(port, "/metrics").status; });
    clients.emplace_back(loop, "details", [port, n = 0]() mutable {
      return http_get(port, ++n % 2 ? "/threads?format=json" : "/deadlocks").status;
    });
    clients.emplace_back(loop, "garbage", [port, n = 0]() mutable {
      static const char* junk[] = {"GET /metrics HTTP/9.9\r\n\r\n", "\x00\xff\r\n\r\n",
                                   "POST /threads HTTP/1.1\r\n\r\n", "GET /%zz?%%% HTTP/1.0\r\nX: \x01\r\n\r\n"};
      return http_raw(port, junk[++n % 4]).status;
    });
  }

  void finish() {
    stop = true;
    for (auto& c : clients) c.join();
  }

  long count(const std::string& kind, int status) {
    std::lock_guard<std::mutex> hold(mutex);
    return answers[kind][status];
  }
  // "status:count ..." for a failure message; 0 is no answer in the client's 10 s.
  std::string spread(const std::string& kind) {
    std::lock_guard<std::mutex> hold(mutex);
    std::string out;
    for (auto& [status, c] : answers[kind]) out += std::to_string(status) + ":" + std::to_string(c) + " ";
    return out;
  }
  long total(const std::string& kind) {
    std::lock_guard<std::mutex> hold(mutex);
    long n = 0;
    for (auto& [status, c] : answers[kind]) n += c;
    return n;
  }
};

// Platform threads start and end (the fixture's command) while 4 clients
// scrape /metrics, one pulls /threads and /deadlocks, and one sends
// malformed requests; then the JVM answers, and every count agrees with
// ThreadMXBean exactly.
void churn_under_storm(const Jdk& jdk, const std::vector<std::string>& keys, const std::string& command,
                       std::chrono::seconds bound) {
  AgentJvm jvm(jdk, "ThreadChurn");
  ASSERT_GT(jvm.port, 0);
  ClientStorm storm;
  storm.start(jvm.port);
  jvm.process->send(command);
  auto done = jvm.process->wait_for_line("PLATFORM ", bound);
  storm.finish();
  ASSERT_TRUE(done) << "the churn did not finish; stderr:\n" << jvm.process->err();
  ASSERT_TRUE(jvm.process->running());
  // Every scrape and dump was answered; 503 (no snapshot in time) is
  // allowed while the JVM is this busy, but must stay rare.
  for (const char* kind : {"metrics", "details"}) {
    long ok = storm.count(kind, 200), busy = storm.count(kind, 503), all = storm.total(kind);
    EXPECT_GT(ok, 0) << kind;
    EXPECT_EQ(ok + busy, all) << kind << ": answers other than 200 and 503: " << storm.spread(kind) << "\nJVM stderr:\n"
                              << jvm.process->err();
    EXPECT_LE(busy * 100, all) << kind << ": more than 1% busy answers";
  }
  // Malformed: an error status, or closed unanswered (0); never served.
  EXPECT_EQ(storm.count("garbage", 200), 0) << "a malformed request was served";
  EXPECT_GT(storm.total("garbage"), 0);
  std::cout << "[ soak     ] scrapes " << storm.total("metrics") << ", dumps " << storm.total("details")
            << ", malformed " << storm.total("garbage") << "\n";
  EXPECT_EQ(threads_agree(*jvm.process, jvm.port, keys), "") << "after " << *done;
  auto truth = parse_report(jvm.report());
  EXPECT_GE(truth["started"], parse_report(*done)["started"]);
  jvm.process->send("exit");
  EXPECT_EQ(jvm.process->wait(60s).value_or(-1), 0) << jvm.process->err();
}

TEST_P(Soak, HundredThousandPlatformThreadsUnderScrapesAndDumps) {
  churn_under_storm(GetParam(), keys(), "platform 100000", 240s);
}

// The same storm for 12 s on every JDK: JDK 8 has no thread-SMR, and a
// thread that ends while the agent reads it must not take the JVM down
// (before the fix, JDK 8 crashed in GetThreadState or hung in 1 run of 2).
class Churn : public Soak {};
JVMSIGHT_JDKS(Churn, all_jdks());
TEST_P(Churn, TwelveSecondsOfPlatformThreadsUnderScrapesAndDumps) {
  churn_under_storm(GetParam(), keys(), "platform-for 12", 90s);
}

// A million virtual threads started and ended, then 5,000 platform threads:
// the agent's counts are exact (started = every virtual start the fixture
// made, from the JVM's thread ids less the platform starts, give or take
// the few threads the JVM makes for itself without a ThreadStart; none
// alive, counted from the JDK's containers) and the platform counts still
// agree with ThreadMXBean.
class VirtualSoak : public Soak {};
JVMSIGHT_JDKS(VirtualSoak, system_jdks().from(21));

TEST_P(VirtualSoak, MillionVirtualThreadsOnJdk21Plus) {
  AgentJvm jvm(GetParam(), "ThreadChurn", {});
  ASSERT_GT(jvm.port, 0);
  double before = jvm.scrape().value("jvmsight_virtual_threads_started_total").value_or(-1);
  ASSERT_GE(before, 0);
  jvm.process->send("virtual 1000000");
  auto line = jvm.process->wait_for_line("VIRTUAL ", 240s);
  ASSERT_TRUE(line) << jvm.process->err();
  auto truth = parse_report(*line);
  jvm.process->send("platform 5000");
  ASSERT_TRUE(jvm.process->wait_for_line("PLATFORM ", 120s)) << jvm.process->err();
  PromScrape s = jvm.scrape();
  const double started = s.value("jvmsight_virtual_threads_started_total").value_or(-1);
  EXPECT_GE(started, before + truth["started"]);
  EXPECT_LE(started, before + truth["started"] + 5);
  EXPECT_EQ(s.value("jvmsight_virtual_threads_live"), truth["alive"]);
  EXPECT_EQ(threads_agree(*jvm.process, jvm.port, keys()), "");
  jvm.process->send("exit");
  EXPECT_EQ(jvm.process->wait(60s).value_or(-1), 0) << jvm.process->err();
}

}  // namespace
}  // namespace jvmsight::test
