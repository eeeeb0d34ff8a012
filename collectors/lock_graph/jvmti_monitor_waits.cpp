#include "collectors/lock_graph/jvmti_monitor_waits.h"

#include <algorithm>

#include "common/jvm_calls.h"

namespace jvmsight {
namespace {

constexpr size_t no_lock = ScanWaiter::no_lock;

}  // namespace

size_t JvmtiMonitorWaits::resolve(std::vector<ScanWaiter>& waiters, std::vector<ScanLock>& locks, bool full) {
  size_t stops = resolve_monitors(waiters, locks, full);
  return stops + find_monitor_owners(waiters, locks, full);
}

// Its waiters list is matched against the blocked candidates (JDK 17-22 also
// list Object.wait() threads there). Past max_monitor_usage_queries distinct
// monitors the background check goes on thread by thread (a cycle must not
// be missed), and a full scan, which must stay bounded, at most
// max_scrape_handshakes more, then counts the rest as waiting for an
// unknown monitor.
size_t JvmtiMonitorWaits::resolve_monitors(std::vector<ScanWaiter>& waiters, std::vector<ScanLock>& locks, bool full) {
  Pending pending;
  for (size_t w = 0; w < waiters.size(); ++w)
    if (waiters[w].lock == no_lock) pending.emplace(waiters[w].id, w);
  if (pending.empty()) return 0;
  size_t usage_queries = 0, handshakes = 0, unknown = no_lock;
  for (size_t w = 0; w < waiters.size(); ++w) {
    if (waiters[w].lock != no_lock) continue;
    if (full && handshakes >= max_scrape_handshakes) {
      if (unknown == no_lock) {
        locks.push_back(ScanLock{});
        unknown = locks.size() - 1;
        locks[unknown].owner_known = true;
      }
      waiters[w].lock = unknown;
      continue;
    }
    ++handshakes;
    jobject monitor = nullptr;
    // Null when the thread got the monitor since its state was read.
    if (jvmti_->GetCurrentContendedMonitor(waiters[w].thread, &monitor) != JVMTI_ERROR_NONE || monitor == nullptr)
      continue;
    if (monitor_usage_ && usage_queries < max_monitor_usage_queries) {
      ++usage_queries;
      waiters[w].lock = usage_of(monitor, pending, waiters, locks);
    } else {
      waiters[w].lock = same_monitor(monitor, locks);  // thread by thread
    }
  }
  // The monitor of a thread that got it meanwhile stays unknown: no edge.
  waiters.erase(std::remove_if(waiters.begin(), waiters.end(), [](const ScanWaiter& w) { return w.lock == no_lock; }),
                waiters.end());
  return handshakes + usage_queries;
}

// GetObjectMonitorUsage: the monitor's owner, and its queue resolved at once.
size_t JvmtiMonitorWaits::usage_of(jobject monitor, const Pending& pending, std::vector<ScanWaiter>& waiters,
                                   std::vector<ScanLock>& locks) {
  ScanLock l;
  l.object = monitor;
  jvmtiMonitorUsage usage{};
  if (jvmti_->GetObjectMonitorUsage(monitor, &usage) != JVMTI_ERROR_NONE) {
    locks.push_back(std::move(l));
    return locks.size() - 1;
  }
  l.owner = usage.owner;
  l.owner_known = true;
  locks.push_back(std::move(l));
  for (jint i = 0; i < usage.waiter_count; ++i) {
    auto it = pending.find(lookup_.key_of(usage.waiters[i]));
    if (it != pending.end() && waiters[it->second].lock == no_lock) waiters[it->second].lock = locks.size() - 1;
    jni_->DeleteLocalRef(usage.waiters[i]);
  }
  for (jint i = 0; i < usage.notify_waiter_count; ++i) jni_->DeleteLocalRef(usage.notify_waiters[i]);
  if (usage.waiters) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(usage.waiters));
  if (usage.notify_waiters) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(usage.notify_waiters));
  return locks.size() - 1;
}

// The same monitor as one seen in this scan, or a new one.
size_t JvmtiMonitorWaits::same_monitor(jobject monitor, std::vector<ScanLock>& locks) {
  for (size_t l = 0; l < locks.size(); ++l) {
    if (locks[l].kind == LockKind::monitor && locks[l].object && jni_->IsSameObject(locks[l].object, monitor)) {
      jni_->DeleteLocalRef(monitor);
      return l;
    }
  }
  ScanLock l;
  l.object = monitor;
  locks.push_back(std::move(l));
  return locks.size() - 1;
}

// Monitors whose owner GetObjectMonitorUsage did not give (no capability,
// or past its budget): a thread in a cycle is itself waiting, so the waiting
// threads' own monitors (GetOwnedMonitorInfo, handshakes with threads
// already blocked or parked) suffice for the background check. A full
// scan asks at most max_scrape_handshakes threads.
size_t JvmtiMonitorWaits::find_monitor_owners(const std::vector<ScanWaiter>& waiters, std::vector<ScanLock>& locks,
                                              bool full) {
  bool any_unknown = false;
  for (const auto& l : locks) any_unknown = any_unknown || (l.kind == LockKind::monitor && !l.owner_known);
  if (!any_unknown) return 0;
  size_t asked = 0, stops = 0;
  for (const auto& w : waiters) {
    if (full && asked++ >= max_scrape_handshakes) break;
    ++stops;
    jint n = 0;
    JvmtiArray<jobject> monitors(jvmti_);
    if (jvmti_->GetOwnedMonitorInfo(w.thread, &n, monitors.out()) != JVMTI_ERROR_NONE) continue;
    for (jint m = 0; m < n; ++m) {
      for (auto& l : locks) {
        if (l.kind != LockKind::monitor || l.owner_known || l.object == nullptr) continue;
        if (jni_->IsSameObject(monitors[m], l.object)) {
          l.owner = w.thread;
          l.owner_known = true;
        }
      }
      jni_->DeleteLocalRef(monitors[m]);
    }
  }
  return stops;
}

}  // namespace jvmsight
