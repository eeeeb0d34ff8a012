#include "collectors/lock_graph/lock_order_probe.h"

#include <unordered_map>

#include "common/jvm_calls.h"

namespace jvmsight {

size_t LockOrderProbe::probe(WaitEpisodes& episodes, const std::vector<ScanWaiter>& waiters,
                             const std::vector<ScanLock>& locks, Clock::time_point now) {
  for (const ScanLock& l : locks)
    if (l.kind == LockKind::juc && l.object != nullptr) nodes_.met_juc(l.object);
  const ProbeSchedule::Pick picked = schedule_.pick(episodes, now);
  for (ThreadKey id : picked.skip) episodes.all().at(id).examined = true;
  if (picked.look.empty()) return 0;
  std::unordered_map<ThreadKey, const ScanWaiter*> by_id;
  for (const ScanWaiter& w : waiters)
    if (w.lock < locks.size()) by_id[w.id] = &w;
  const auto start = Clock::now();
  // Once per probing check: a field read per remembered j.u.c. lock.
  const JucOwners owners = nodes_.juc_owners();
  size_t stops = 0;
  for (ThreadKey id : picked.look) {
    if (Clock::now() - start >= ProbeSchedule::max_check_time) break;  // the rest next time
    auto w = by_id.find(id);
    if (w == by_id.end()) continue;
    WaitEpisode& e = episodes.all().at(id);
    e.examined = true;
    schedule_.looked(e.wait, now);
    stops += examine(*w->second, locks[w->second->lock], owners);
  }
  schedule_.spent(Clock::now() - start);
  return stops;
}

size_t LockOrderProbe::examine(const ScanWaiter& waiter, const ScanLock& lock, const JucOwners& owners) {
  size_t stops = 1;
  std::vector<LockVertex> held;
  jint n = 0;
  JvmtiArray<jobject> monitors(jvmti_);
  if (jvmti_->GetOwnedMonitorInfo(waiter.thread, &n, monitors.out()) == JVMTI_ERROR_NONE) {
    for (jint m = 0; m < n; ++m) {
      if (auto v = nodes_.vertex_of(monitors[m], LockKind::monitor)) held.push_back(*v);
      jni_->DeleteLocalRef(monitors[m]);
    }
  }
  for (const auto& [vertex, owner] : owners)
    if (jni_->IsSameObject(owner, waiter.thread)) held.push_back(vertex);
  if (held.empty() || lock.object == nullptr) return stops;  // holds nothing: no order
  auto wanted = nodes_.vertex_of(lock.object, lock.kind);
  if (!wanted) return stops;
  FrameRecord site;
  if (!graph_.knows_all(held, wanted->node)) {
    ++stops;
    if (auto s = sites_.of(waiter.thread)) site = std::move(*s);
  }
  for (auto& inversion : graph_.add(held, *wanted, waiter.id, lookup_.thread_name(waiter.thread), site))
    found_.push_back(std::move(inversion));
  return stops;
}

void LockOrderProbe::sweep() {
  for (LockNode collected : nodes_.sweep(graph_)) graph_.forget(collected);
}

}  // namespace jvmsight
