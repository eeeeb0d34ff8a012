#include "collectors/lock_graph/blocked_progress.h"

#include <algorithm>

namespace jvmsight {

std::vector<bool> BlockedProgress::unmoved(const std::vector<jlong>& ids, const std::vector<jlong>& counts) {
  std::vector<bool> out(ids.size(), true);
  std::vector<std::pair<jlong, jlong>> now;
  now.reserve(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    const jlong count = i < counts.size() ? counts[i] : unknown;
    now.emplace_back(ids[i], count);
    if (count == unknown) continue;
    auto it = std::lower_bound(last_.begin(), last_.end(), std::make_pair(ids[i], jlong{unknown}));
    out[i] = it != last_.end() && it->first == ids[i] && it->second == count;
  }
  std::sort(now.begin(), now.end());
  last_ = std::move(now);
  return out;
}

}  // namespace jvmsight
