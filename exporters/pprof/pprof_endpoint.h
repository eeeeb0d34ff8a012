#pragma once
// /debug/pprof/mutex and /debug/pprof/block as Go's net/http/pprof serves
// them: a gzipped profile.proto of the totals since the agent started, or
// with ?seconds=N the delta over the next N seconds, answered later from
// the server's loop (its thread is never held), or ?debug=1 as text.
#include <memory>
#include <optional>
#include <string>

#include "exporters/http/http_server.h"
#include "model/contention_profile.h"

namespace jvmsight {

// Where a profile route gets its snapshots: taken on the agent thread and
// waited for; nullopt when none came in time (503).
class ProfileSource {
 public:
  virtual ~ProfileSource() = default;
  virtual std::optional<ContentionProfile> snapshot() = 0;
};

// title: the text form's first word ("mutex", "block").
HttpRoute profile_route(std::string path, std::string summary, std::string title,
                        std::shared_ptr<ProfileSource> source);

// The response for a profile: gzipped pprof, or text.
HttpResponse profile_response(const ContentionProfile& profile, bool text, const std::string& title);

}  // namespace jvmsight
