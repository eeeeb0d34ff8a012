#pragma once
// Profiles as Go's own reader sees them: `go tool pprof -raw` (Debian
// golang-go, which scripts/quickstart.sh installs for the tests) on the
// bytes an endpoint served, its output parsed into samples.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace jvmsight::test {

struct PprofSample {
  std::vector<int64_t> values;         // in the order of the sample types
  std::vector<std::string> functions;  // leaf first
  std::vector<std::string> places;     // "file:line", leaf first
};

struct GoPprof {
  std::string error;  // "" when go tool pprof read the profile
  std::string raw;    // its whole output
  std::string period_type;
  std::vector<std::string> sample_types;  // "contentions/count", "delay/nanoseconds"
  std::vector<PprofSample> samples;

  // Value `index` summed over the samples whose leaf is each function.
  std::map<std::string, int64_t> by_leaf(size_t index) const;
  // Value `index` summed over the samples whose stack holds this function.
  int64_t through(size_t index, const std::string& function) const;
  int64_t total(size_t index) const;
};

GoPprof go_pprof_raw(const std::string& profile_bytes);

// GET path (with its query) from the agent on port, read by go tool pprof:
// expects a 200 and a contention profile as Go serves one (sample types
// contentions/count and delay/nanoseconds), gtest failures otherwise.
GoPprof served_contention_profile(int port, const std::string& path);

// WaitSplit's two sites in a profile against the fixture's own report
// (`truth`: slow_ns, fast_ns, and slow/fast + `waits_suffix`, "_waits" or
// "_blocked"; slow_blocked_ms and fast_blocked_ms, where not -1, are the
// JVM's own blocked times, which the split is then checked against):
// each site's share of the delay within 10 points, the total
// within 0.6-1.5x, each site's contentions within 0.5-2x; gtest failures.
struct SitePair {
  double slow = 0, fast = 0;
};
void check_site_split(const GoPprof& p, SitePair delay, SitePair contentions, const std::map<std::string, long>& truth,
                      const std::string& waits_suffix);

}  // namespace jvmsight::test
