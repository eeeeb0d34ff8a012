// Lock-order inversions (potential deadlocks) against the JVM's own view of
// every wait: tests/java/LockOrders.java prints, for each thread it makes wait,
// what ThreadMXBean shows it holding, waiting for, and where. No deadlock
// ever forms there (the fixture's findDeadlockedThreads never finds one).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

// "ORDER scenario=S thread=T held=H[,H] wanted=H site=C.m:line", H = "0x...:class".
struct Order {
  std::string scenario, thread, wanted, site;
  std::set<std::string> held;
};

std::map<std::string, std::string> fields(const std::string& line) {
  std::map<std::string, std::string> out;
  std::stringstream ss(line);
  for (std::string word; ss >> word;)
    if (size_t eq = word.find('='); eq != std::string::npos) out[word.substr(0, eq)] = word.substr(eq + 1);
  return out;
}

std::set<std::string> split(const std::string& s) {
  std::set<std::string> out;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, ',');)
    if (!part.empty()) out.insert(part);
  return out;
}

std::vector<Order> orders_of(const std::string& out) {
  std::vector<Order> orders;
  std::stringstream ss(out);
  for (std::string line; std::getline(ss, line);) {
    if (line.rfind("ORDER ", 0) != 0) continue;
    auto f = fields(line);
    orders.push_back({f["scenario"], f["thread"], f["wanted"], f["site"], split(f["held"])});
  }
  return orders;
}

std::string lock_of(const nlohmann::json& l) {
  return l["identity_hash"].get<std::string>() + ":" + l["class"].get<std::string>();
}

std::string site_of(const nlohmann::json& s) {
  if (s.is_null()) return "null";
  return s["class"].get<std::string>() + "." + s["method"].get<std::string>() + ":" +
         std::to_string(s["line"].get<int>());
}

// The scenario whose waits name this inversion's locks (every lock of an
// inversion was waited for in its scenario), or "" if none does.
std::string scenario_of(const nlohmann::json& inversion, const std::vector<Order>& truth) {
  std::set<std::string> found;
  for (const auto& o : inversion["orders"])
    for (const auto& t : truth)
      if (t.wanted == lock_of(o["waited_for"])) found.insert(t.scenario);
  return found.size() == 1 ? *found.begin() : "";
}

class LockOrder : public ::testing::TestWithParam<Jdk> {};

TEST_P(LockOrder, InversionsMatchTheJvmsOwnViewOfEachWait) {
  AgentJvm jvm(GetParam(), "LockOrders");
  ASSERT_GT(jvm.port, 0);
  auto done = jvm.process->wait_for_line("DONE ", 120s);
  ASSERT_TRUE(done) << jvm.process->err();
  auto summary = fields(*done);
  ASSERT_EQ(summary["deadlocks"], "0") << "a deadlock formed: the fixture is wrong";
  const std::set<std::string> expected = split(summary["inversions"]), innocent = split(summary["none"]);
  const std::vector<Order> truth = orders_of(jvm.process->out());
  ASSERT_FALSE(truth.empty());

  // The last phase's waits were seen by the check while they lasted.
  PromScrape s = jvm.scrape();
  EXPECT_EQ(s.value("jvmsight_lock_order_inversions"), static_cast<double>(expected.size()));
  EXPECT_EQ(s.value("jvm_threads_deadlocked"), 0.0);
  EXPECT_GE(s.value("jvmsight_lock_order_edges").value_or(0), 2.0 * static_cast<double>(expected.size()));

  HttpResult page = jvm.get("/deadlocks?format=json");
  ASSERT_EQ(page.status, 200);
  auto json = nlohmann::json::parse(page.body);
  EXPECT_EQ(json["count"], 0);
  ASSERT_EQ(json["potential_count"].get<size_t>(), expected.size()) << page.body;
  std::set<std::string> seen;
  for (const auto& inversion : json["potential_deadlocks"]) {
    const std::string scenario = scenario_of(inversion, truth);
    SCOPED_TRACE(scenario + ": " + inversion.dump());
    EXPECT_TRUE(expected.count(scenario)) << "not an inversion by the JVM's account";
    EXPECT_FALSE(innocent.count(scenario));
    EXPECT_TRUE(seen.insert(scenario).second) << "reported twice";
    ASSERT_EQ(inversion["orders"].size(), 2u);
    for (const auto& o : inversion["orders"]) {
      // Some wait of the scenario held this lock, waited for that one, was
      // this thread, asking at this site.
      bool matched = false;
      for (const auto& t : truth)
        matched = matched ||
                  (t.scenario == scenario && t.held.count(lock_of(o["held"])) && t.wanted == lock_of(o["waited_for"]) &&
                   t.thread == o["thread"]["name"] && t.site == site_of(o["site"]));
      EXPECT_TRUE(matched) << o.dump();
    }
  }
  EXPECT_EQ(seen, expected);

  // Each once on stderr, and the text page names both classes and sites.
  const std::string err = jvm.process->err();
  size_t warnings = 0;
  for (size_t p = err.find("potential deadlock: "); p != std::string::npos; p = err.find("potential deadlock: ", p + 1))
    ++warnings;
  EXPECT_EQ(warnings, expected.size()) << err;
  HttpResult text = jvm.get("/deadlocks");
  EXPECT_EQ(text.body.rfind("No deadlock found.\n", 0), 0u) << text.body;
  EXPECT_NE(text.body.find("(a LockOrders$Left)"), std::string::npos) << text.body;
  EXPECT_NE(text.body.find("(a LockOrders$Right)"), std::string::npos);
  EXPECT_NE(text.body.find("at LockOrders.abMonitor(LockOrders.java:"), std::string::npos);
  EXPECT_NE(text.body.find("at LockOrders.baMonitor(LockOrders.java:"), std::string::npos);

  // Its locks collected (the JVM's own WeakReferences cleared), an inversion leaves.
  jvm.process->send("forget m-inversion");
  ASSERT_TRUE(jvm.process->wait_for_line("FORGOTTEN m-inversion", 60s)) << jvm.process->out();
  std::optional<double> left;
  for (auto until = std::chrono::steady_clock::now() + 15s; std::chrono::steady_clock::now() < until;) {
    left = jvm.scrape().value("jvmsight_lock_order_inversions");
    if (left == static_cast<double>(expected.size() - 1)) break;
    std::this_thread::sleep_for(200ms);
  }
  EXPECT_EQ(left, static_cast<double>(expected.size() - 1));
}

JVMSIGHT_JDKS(LockOrder, all_jdks());

}  // namespace
}  // namespace jvmsight::test
