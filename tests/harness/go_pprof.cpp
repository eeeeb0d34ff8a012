#include "tests/harness/go_pprof.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tests/harness/http_client.h"
#include "tests/harness/jvm_process.h"

namespace jvmsight::test {
namespace {

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  return {std::istream_iterator<std::string>(in), {}};
}

// "  7: 0x0 M=1 a.B.c B.java:12 s=0" -> id 7, function and place; a
// function may have spaces ("[no Java frames] :0 s=0"): the place is the
// word before "s=".
bool parse_location(const std::string& line, uint64_t& id, std::string& function, std::string& place) {
  auto w = words(line);
  if (w.size() < 4 || w[0].back() != ':') return false;
  id = std::stoull(w[0]);
  size_t at = 2, end = w.size();
  if (w[at].rfind("M=", 0) == 0) ++at;
  if (w[end - 1].rfind("s=", 0) == 0) --end;
  if (at + 1 >= end) return false;
  place = w[end - 1];
  function = w[at];
  for (size_t i = at + 1; i + 1 < end; ++i) function += " " + w[i];
  return true;
}

void parse(GoPprof& p) {
  std::istringstream in(p.raw);
  std::string line, section;
  std::map<uint64_t, std::pair<std::string, std::string>> locations;
  std::vector<std::vector<uint64_t>> sample_locations;
  while (std::getline(in, line)) {
    if (line.rfind("PeriodType: ", 0) == 0) p.period_type = line.substr(12);
    if (line == "Samples:" || line == "Locations" || line == "Mappings") {
      section = line;
      continue;
    }
    if (section == "Samples:" && p.sample_types.empty()) {
      p.sample_types = words(line);
    } else if (section == "Samples:") {
      const size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      PprofSample s;
      for (const auto& v : words(line.substr(0, colon))) s.values.push_back(std::stoll(v));
      std::vector<uint64_t> ids;
      for (const auto& id : words(line.substr(colon + 1))) ids.push_back(std::stoull(id));
      p.samples.push_back(std::move(s));
      sample_locations.push_back(std::move(ids));
    } else if (section == "Locations") {
      uint64_t id = 0;
      std::string function, place;
      if (parse_location(line, id, function, place)) locations[id] = {function, place};
    }
  }
  for (size_t i = 0; i < p.samples.size(); ++i)
    for (uint64_t id : sample_locations[i]) {
      p.samples[i].functions.push_back(locations[id].first);
      p.samples[i].places.push_back(locations[id].second);
    }
}

}  // namespace

std::map<std::string, int64_t> GoPprof::by_leaf(size_t index) const {
  std::map<std::string, int64_t> out;
  for (const auto& s : samples)
    if (!s.functions.empty() && index < s.values.size()) out[s.functions.front()] += s.values[index];
  return out;
}

int64_t GoPprof::through(size_t index, const std::string& function) const {
  int64_t sum = 0;
  for (const auto& s : samples)
    if (index < s.values.size() && std::find(s.functions.begin(), s.functions.end(), function) != s.functions.end())
      sum += s.values[index];
  return sum;
}

int64_t GoPprof::total(size_t index) const {
  int64_t sum = 0;
  for (const auto& s : samples)
    if (index < s.values.size()) sum += s.values[index];
  return sum;
}

GoPprof go_pprof_raw(const std::string& profile_bytes) {
  GoPprof p;
  TempDir dir;
  const std::string path = dir.path("profile.pb.gz");
  std::ofstream(path, std::ios::binary) << profile_bytes;
  Completed done = run({"/usr/bin/env", "go", "tool", "pprof", "-symbolize=none", "-raw", path});
  p.raw = done.out;
  if (done.exit_code != 0) {
    p.error = "go tool pprof exited with " + std::to_string(done.exit_code) + ": " + done.err;
    return p;
  }
  parse(p);
  return p;
}

GoPprof served_contention_profile(int port, const std::string& path) {
  HttpResult r = http_get(port, path, "127.0.0.1", std::chrono::seconds(20));
  EXPECT_EQ(r.status, 200) << r.body;
  GoPprof p = go_pprof_raw(r.body);
  EXPECT_EQ(p.error, "") << p.raw;
  EXPECT_EQ(p.period_type, "contentions count");
  EXPECT_EQ(p.sample_types, (std::vector<std::string>{"contentions/count", "delay/nanoseconds"}));
  return p;
}

void check_site_split(const GoPprof& p, SitePair delay, SitePair contentions, const std::map<std::string, long>& truth,
                      const std::string& waits_suffix) {
  const double slow_truth = truth.at("slow_ns"), fast_truth = truth.at("fast_ns");
  ASSERT_GT(delay.slow + delay.fast, 0) << p.raw;
  // The split as the JVM timed its threads BLOCKED where it did (monitors,
  // platform threads): nanoTime around an acquisition also counts waits
  // resolved by spinning and time runnable without a CPU, which no JVM TI
  // event brackets and which a loaded machine moves between the sites.
  const auto jvm_ms = [&](const char* key) { return truth.count(key) ? double(truth.at(key)) : -1.0; };
  const double slow_blocked = jvm_ms("slow_blocked_ms"), fast_blocked = jvm_ms("fast_blocked_ms");
  const bool jvm_timed = slow_blocked >= 0 && fast_blocked >= 0 && slow_blocked + fast_blocked > 0;
  const double slow_share =
      jvm_timed ? slow_blocked / (slow_blocked + fast_blocked) : slow_truth / (slow_truth + fast_truth);
  EXPECT_NEAR(delay.slow / (delay.slow + delay.fast), slow_share, 0.10)
      << (jvm_timed ? "JVM's blocked times" : "fixture's nanoTime") << "\n"
      << p.raw;
  // The total against the same clock: the profile times the waits the
  // JVM timed as BLOCKED, so on monitors it answers to the JVM's times.
  const double ratio =
      (delay.slow + delay.fast) / (jvm_timed ? (slow_blocked + fast_blocked) * 1e6 : slow_truth + fast_truth);
  EXPECT_GE(ratio, 0.6) << p.raw;
  EXPECT_LE(ratio, 1.5) << p.raw;
  for (const auto& [site, seen] : {std::pair{"slow", contentions.slow}, std::pair{"fast", contentions.fast}}) {
    const double known = truth.at(std::string(site) + waits_suffix);
    EXPECT_GE(seen, 0.5 * known) << site << "\n" << p.raw;
    EXPECT_LE(seen, 2.0 * known) << site << "\n" << p.raw;
  }
}

}  // namespace jvmsight::test
