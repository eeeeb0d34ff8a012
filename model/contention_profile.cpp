#include "model/contention_profile.h"

#include <unordered_map>
#include <utility>

namespace jvmsight {

ContentionProfile profile_delta(ContentionProfile end, const ContentionProfile& start) {
  std::unordered_map<uint32_t, const ProfileStack*> before;
  before.reserve(start.stacks.size());
  for (const auto& s : start.stacks) before.emplace(s.id, &s);
  std::vector<ProfileStack> changed;
  for (auto& s : end.stacks) {
    auto found = before.find(s.id);
    if (found != before.end()) {
      s.contentions -= found->second->contentions;
      s.delay_ns -= found->second->delay_ns;
    }
    if (s.contentions != 0 || s.delay_ns != 0) changed.push_back(std::move(s));
  }
  end.stacks = std::move(changed);
  const int64_t end_time = end.time_ns + end.duration_ns;
  end.time_ns = start.time_ns + start.duration_ns;
  end.duration_ns = end_time - end.time_ns;
  end.dropped -= start.dropped;
  return end;
}

}  // namespace jvmsight
