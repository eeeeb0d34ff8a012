#include "tests/harness/thread_truth.h"

#include <algorithm>
#include <thread>

#include "tests/harness/http_client.h"

namespace jvmsight::test {

std::map<std::string, long> agent_thread_view(const PromScrape& s) {
  auto get = [&](const std::string& name, const std::map<std::string, std::string>& labels = {}) {
    return static_cast<long>(s.value(name, labels).value_or(-1));
  };
  std::map<std::string, long> v;
  for (const char* state : {"NEW", "RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING", "TERMINATED"})
    v[state] = get("jvm_threads_state", {{"state", state}});
  for (const char* sub : {"parked", "sleeping", "object_wait", "native"})
    v[sub] = get("jvmsight_threads_substate", {{"substate", sub}});
  v["current"] = get("jvm_threads_current");
  v["daemon"] = get("jvm_threads_daemon");
  v["peak"] = get("jvm_threads_peak");
  v["started"] = get("jvm_threads_started_total");
  return v;
}

std::string request_report(Process& fixture, const std::string& prefix) {
  size_t before = 0;
  for (size_t n = 1; fixture.wait_for_line(prefix + " ", 0ms, n); ++n) before = n;
  fixture.send("report");
  auto line = fixture.wait_for_line(prefix + " ", 30s, before + 1);
  return line ? *line : "";
}

std::string threads_agree(Process& fixture, int port, const std::vector<std::string>& keys) {
  std::string diff;
  for (int attempt = 0; attempt < 10; ++attempt) {
    // A 503 (the agent thread late, as a cold emulated JVM can be) is no
    // view: ask again, as a scraper would at its next interval.
    HttpResult scrape = http_get(port, "/metrics");
    if (scrape.status != 200) {
      diff = "scrape answered " + std::to_string(scrape.status);
      std::this_thread::sleep_for(200ms);
      continue;
    }
    auto seen = agent_thread_view(PromScrape(scrape.body));
    std::string line = request_report(fixture);
    if (line.empty()) return "fixture gave no report";
    auto truth = parse_report(line);
    diff.clear();
    for (const auto& [key, value] : truth) {
      if (!keys.empty() && std::find(keys.begin(), keys.end(), key) == keys.end()) continue;
      if (seen[key] != value)
        diff += key + ": agent " + std::to_string(seen[key]) + ", JVM " + std::to_string(value) + "; ";
    }
    if (diff.empty()) return "";
    std::this_thread::sleep_for(200ms);
  }
  return diff;
}

}  // namespace jvmsight::test
