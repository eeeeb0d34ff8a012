#pragma once
// A contention profile as the exporters read it: where threads waited
// (each stack leaf first, its frames named), how often and how long. The
// agent thread builds one from the stack table (collectors/contention/);
// exporters/pprof encodes it as Go's pprof does its mutex and block
// profiles. Values are estimates of the whole (docs/PROFILES.md): sampled
// waits scaled up, and, for j.u.c. locks, observations times the interval.
#include <cstdint>
#include <string>
#include <vector>

namespace jvmsight {

struct ProfileFunction {
  std::string name;  // "java.util.HashMap.get": package.Class.method
  std::string file;  // "HashMap.java", "" when unknown
};

struct ProfileFrame {
  uint32_t function = 0;  // index into ContentionProfile::functions
  int32_t line = 0;       // 0 when unknown
};

struct ProfileStack {
  uint32_t id = 0;                   // the stack table's: the same stack has the same id in every snapshot
  std::vector<ProfileFrame> frames;  // leaf first
  int64_t contentions = 0;           // waits, estimated
  int64_t delay_ns = 0;              // time waited, estimated
};

struct ContentionProfile {
  std::vector<ProfileFunction> functions;
  std::vector<ProfileStack> stacks;
  int64_t time_ns = 0;      // wall clock (Unix ns) the profile starts at
  int64_t duration_ns = 0;  // how long it covers
  uint64_t dropped = 0;     // waits counted under the "other" stack: the table was full
};

// What `end` gained since `start`, two snapshots of the same table (each
// stack's values only grow): the stacks that changed, their differences,
// time and duration spanning the window between the two.
ContentionProfile profile_delta(ContentionProfile end, const ContentionProfile& start);

}  // namespace jvmsight
