#pragma once
// The query a profile endpoint takes, as Go's net/http/pprof reads it:
// seconds=N answers the delta over the next N seconds (1 to max_seconds,
// so no client holds a connection open for long), debug=0|1 the encoding
// (1: text for people). Anything else in the query is ignored, as Go does.
// Pure: the bytes come from anyone who may scrape.
#include <string>

namespace jvmsight {

struct ProfileQuery {
  int seconds = 0;  // 0: the totals since the agent started
  bool text = false;
  std::string error;  // one line for a 400 when the query cannot be served
  bool ok() const { return error.empty(); }
};

inline constexpr int max_profile_seconds = 300;

ProfileQuery parse_profile_query(const std::string& query);

}  // namespace jvmsight
