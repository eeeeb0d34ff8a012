#include "collectors/lock_graph/stuck_reports.h"

namespace jvmsight {
namespace {

constexpr size_t no_line = static_cast<size_t>(-1);

}  // namespace

StuckReports::Split StuckReports::split(std::vector<WaitEpisode> newly, Clock::time_point now) {
  for (auto* said : {&described_, &counted_})
    for (auto it = said->begin(); it != said->end();)
      it = now - it->second >= quiet_time ? said->erase(it) : std::next(it);
  Split out;
  std::map<Lock, size_t> counted;  // lock -> index into out.counted
  for (WaitEpisode& e : newly) {
    const Lock lock{e.wait.kind, e.wait.lock_hash};
    const bool describe = out.described.size() < max_described && described_.size() < max_locks_remembered &&
                          described_.emplace(lock, now).second;
    if (describe) {
      out.described.push_back(std::move(e));
      continue;
    }
    auto [it, fresh] = counted.try_emplace(lock, out.counted.size());
    if (fresh && !counted_.emplace(lock, now).second) it->second = no_line;  // said lately
    if (it->second == no_line) continue;
    if (fresh) out.counted.emplace_back(e.wait, 0);
    ++out.counted[it->second].second;
  }
  return out;
}

}  // namespace jvmsight
