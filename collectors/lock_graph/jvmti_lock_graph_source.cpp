#include "collectors/lock_graph/jvmti_lock_graph_source.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <unordered_map>

#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {
namespace {

constexpr size_t no_lock = ScanWaiter::no_lock;
static_assert(ScanPlan::monitor_group == JavaLockScan::Candidates::monitor_group);

size_t add_juc_lock(std::vector<ScanLock>& locks, jobject blocker, jthread owner) {
  ScanLock l;
  l.object = blocker;
  l.kind = LockKind::juc;
  l.owner = owner;
  l.owner_known = true;
  locks.push_back(std::move(l));
  return locks.size() - 1;
}

}  // namespace

JvmtiLockGraphSource::JvmtiLockGraphSource(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, bool monitor_usage,
                                           std::atomic<bool>* blocked_anew, BlockedCountReader* blocked_counts,
                                           const VirtualThreadCensus* virtual_threads)
    : jvmti_(jvmti),
      jni_(jni),
      roster_(roster),
      virtual_threads_(virtual_threads),
      blocked_anew_(blocked_anew),
      planner_(blocked_counts),
      lookup_(jvmti, jni, roster),
      monitors_(jvmti, jni, lookup_, monitor_usage) {
  // The roster resolves java.lang.Thread's layout (tid, status word, park blocker).
  if (!roster_.update(jni, jvmti) || !lookup_.resolve()) return;
  ready_ = true;
  java_pass_ = std::make_unique<JavaLockScan>(jvmti, jni);
  if (!java_pass_->ok()) {
    java_pass_.reset();
    log::debug("JvmsightLockScan unavailable; the deadlock check and thread states read threads via JNI");
  }
}

bool JvmtiLockGraphSource::take_threads(ScanDepth depth) {
  // A full scan (scrape time) wants the threads as they are; the background
  // check can live with a list up to refresh_interval old.
  auto min_interval = depth == ScanDepth::full ? std::chrono::milliseconds{0} : refresh_interval;
  if (!roster_.update(jni_, jvmti_, min_interval)) return false;
  if (roster_.version() != roster_version_) {
    roster_version_ = roster_.version();
    // Candidate indices name other threads from now on: remembered edges are void.
    planner_.edges().invalidate();
    if (java_pass_) java_pass_->set_threads(roster_.thread_array(jni_), static_cast<jsize>(roster_.threads().size()));
  }
  return true;
}

std::optional<LockScan> JvmtiLockGraphSource::scan(ScanDepth depth) {
  auto result = scan_once(depth, true);
  if (result && depth == ScanDepth::cycles && planner_.edges().reused_last() && !result->graph.cycles().empty()) {
    // Reused edges carry no names, and a cycle deserves a fresh look anyway.
    planner_.edges().invalidate();
    const size_t stops = result->thread_stops;
    result = scan_once(depth, false);
    if (result) result->thread_stops += stops;
  }
  if (result && depth == ScanDepth::cycles) planner_.checked(!result->graph.cycles().empty());
  return result;
}

// The steps of one scan: which threads to look at (plan), who waits for
// which lock (platform_waiters, add_virtual_waiters), which monitor each
// blocked thread waits for and who owns it (JvmtiMonitorWaits), the
// per-lock facts (describe_locks), and the graph (add_scan_edges,
// name_cycles). Work is per distinct lock wherever it can be: a pileup of
// thousands of threads on one lock costs about what one does.
std::optional<LockScan> JvmtiLockGraphSource::scan_once(ScanDepth depth, bool allow_reuse) {
  if (!ready_) return std::nullopt;
  // Monitors, blockers and owners make local references: the frame frees them.
  LocalFrame frame(jni_, 64);
  if (!frame.ok() || !take_threads(depth)) return std::nullopt;
  const auto now = std::chrono::steady_clock::now();
  LockScan out;
  out.threads_seen = roster_.threads().size();
  std::vector<jobject> java_locks;
  std::optional<ScanPlan> p = plan(depth, allow_reuse, java_locks);
  if (!p) return std::nullopt;
  std::vector<ScanLock> locks;
  std::vector<ScanWaiter> waiters = platform_waiters(*p, java_locks, locks);
  const bool walked = p->from_java && !p->full && add_virtual_waiters(waiters, locks, now);
  if (p->reuse)
    for (const auto& e : planner_.edges().edges()) out.graph.add(e);
  auto read_start = std::chrono::steady_clock::now(), read_end = read_start;  // the JVM's monitor queries
  if (!waiters.empty()) {
    out.thread_stops += monitors_.resolve(waiters, locks, p->full);
    read_end = std::chrono::steady_clock::now();
    describe_locks(waiters, locks, p->full, out);
    add_scan_edges(waiters, locks, p->full, out);
  }
  if (observer_ != nullptr && !p->full) out.thread_stops += observer_->observed(waiters, locks, {!p->reuse, walked});
  planner_.scanned(*p, out.graph, read_end - read_start, read_end);
  if (!out.graph.cycles().empty()) {
    name_cycles(waiters, locks, out);
    add_list_order(*p, out);
  }
  return out;
}

// The roster lists threads in GetAllThreads' order, which is the JVM's
// thread-list order; candidates are ascending indices into it.
void JvmtiLockGraphSource::add_list_order(const ScanPlan& p, LockScan& out) {
  const auto& threads = roster_.threads();
  for (size_t k = 0; k < p.candidates.size(); ++k) {
    jint i = p.candidates[k];
    if (i < 0 || static_cast<size_t>(i) >= threads.size()) continue;
    ThreadKey key = k < p.ids.size() ? p.ids[k] : lookup_.key_of(threads[static_cast<size_t>(i)]);
    if (out.graph.edges().count(key)) out.list_order.push_back(key);
  }
}

std::optional<ScanPlan> JvmtiLockGraphSource::plan(ScanDepth depth, bool allow_reuse,
                                                   std::vector<jobject>& java_locks) {
  ScanPlan p;
  p.full = depth == ScanDepth::full;
  // Taken before the pass, so a thread that blocks after it sets it again.
  const bool blocked_anew =
      p.full || blocked_anew_ == nullptr || blocked_anew_->exchange(false, std::memory_order_acq_rel);
  // The Java pass finds the few candidates (a full scan also wants threads
  // parked on unowned synchronizers); without it every thread is read via JNI.
  if (java_pass_) {
    auto found = java_pass_->candidates(p.full);
    if (!found) return std::nullopt;
    p.from_java = true;
    p.candidates = std::move(found->index);
    p.ids = std::move(found->id);
    p.groups = std::move(found->group);
    java_locks = std::move(found->locks);
  } else {
    p.candidates.resize(roster_.threads().size());
    for (size_t i = 0; i < p.candidates.size(); ++i) p.candidates[i] = static_cast<jint>(i);
  }
  planner_.decide(p, allow_reuse, blocked_anew, std::chrono::steady_clock::now());
  return p;
}

std::vector<ScanWaiter> JvmtiLockGraphSource::platform_waiters(const ScanPlan& p,
                                                               const std::vector<jobject>& java_locks,
                                                               std::vector<ScanLock>& locks) {
  std::vector<ScanWaiter> waiters;
  waiters.reserve(p.candidates.size());
  const auto& threads = roster_.threads();
  // Java slot -> index into locks: each distinct lock's owner read once.
  std::vector<size_t> slot_lock(java_locks.size(), no_lock);
  for (size_t k = 0; k < p.candidates.size(); ++k) {
    jint i = p.candidates[k];
    if (i < 0 || static_cast<size_t>(i) >= threads.size()) continue;
    jthread t = threads[static_cast<size_t>(i)];
    bool blocked = false;
    if (p.from_java) {
      blocked = p.groups[k] == ScanPlan::monitor_group;
    } else {
      jint state = roster_.status(jni_, static_cast<size_t>(i));
      blocked = (state & JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER) != 0;
      if (!blocked && !(state & JVMTI_THREAD_STATE_PARKED)) continue;
    }
    const ThreadKey id = p.from_java ? p.ids[k] : lookup_.key_of(t);
    if (blocked) {
      // Reused: its edge comes from the cache; moved: not deadlocked.
      if (!p.reuse && !p.skips(k)) waiters.push_back({t, id, no_lock});
      continue;
    }
    size_t lock = juc_lock_of(p, k, t, java_locks, slot_lock, locks);
    if (lock != no_lock) waiters.push_back({t, id, lock});
  }
  return waiters;
}

size_t JvmtiLockGraphSource::juc_lock_of(const ScanPlan& p, size_t k, jthread t, const std::vector<jobject>& java_locks,
                                         std::vector<size_t>& slot_lock, std::vector<ScanLock>& locks) {
  const jint group = p.from_java ? p.groups[k] : JavaLockScan::Candidates::overflow_group;
  size_t lock = no_lock;
  if (group >= 0 && static_cast<size_t>(group) < slot_lock.size()) {
    lock = slot_lock[static_cast<size_t>(group)];
    if (lock == no_lock) {
      jobject blocker = java_locks[static_cast<size_t>(group)];
      lock = slot_lock[static_cast<size_t>(group)] = add_juc_lock(locks, blocker, lookup_.owner_of(blocker));
    }
  } else {
    jthread owner = nullptr;
    jobject blocker = lookup_.ownable_blocker(t, owner);
    if (blocker == nullptr) return no_lock;
    lock = add_juc_lock(locks, blocker, owner);
  }
  // Unowned (a semaphore, a read lock, a latch): no edge a cycle could
  // use, but a full scan counts the thread as parked on it.
  if (locks[lock].owner == nullptr && !p.full) return no_lock;
  return lock;
}

bool JvmtiLockGraphSource::add_virtual_waiters(std::vector<ScanWaiter>& waiters, std::vector<ScanLock>& locks,
                                               std::chrono::steady_clock::time_point now) {
  // Uncounted (a JDK whose containers the census cannot read): walked
  // anyway, spaced out like any walk.
  const uint64_t live = virtual_threads_ ? virtual_threads_->live(jni_).value_or(ScanPlanner::max_virtual_walked) : 0;
  // None, or too many to walk ever: no virtual waits are seen, none stand.
  if (live == 0 || live > ScanPlanner::max_virtual_walked) return true;
  if (!planner_.virtual_walk_due(live, now)) return false;
  auto walk_start = std::chrono::steady_clock::now();
  std::vector<jthread> parked = java_pass_->virtual_candidates(ScanPlanner::max_virtual_candidates);
  planner_.virtual_walked(walk_start, std::chrono::steady_clock::now());
  for (jthread t : parked) {
    // Java saw it parked on an owned lock; it may have moved on since.
    jthread owner = nullptr;
    jobject blocker = lookup_.ownable_blocker(t, owner);
    if (owner != nullptr) waiters.push_back({t, lookup_.key_of(t), add_juc_lock(locks, blocker, owner), true});
  }
  return true;
}

// Hash, owner id, and for a full scan class and owner name: once per lock.
void JvmtiLockGraphSource::describe_locks(const std::vector<ScanWaiter>& waiters, std::vector<ScanLock>& locks,
                                          bool full, LockScan& out) {
  constexpr size_t max_classes = JvmLockLookup::max_cached_classes;
  std::vector<size_t> queued(locks.size(), 0);
  for (const auto& w : waiters) ++queued[w.lock];
  std::unordered_map<ThreadKey, std::string> owner_names;
  for (size_t i = 0; i < locks.size(); ++i) {
    ScanLock& l = locks[i];
    if (queued[i] == 0 || l.object == nullptr) continue;
    l.hash = lookup_.hash_of(l.object);
    if (l.owner != nullptr) l.owner_id = lookup_.key_of(l.owner);
    // Contention events only carry a hash; name the classes of monitors seen
    // contended here so those events can be labelled (cached, so cheap).
    const bool monitor_class = l.kind == LockKind::monitor && out.monitor_classes.size() < max_classes;
    if (full || monitor_class) l.class_name = lookup_.class_name_of(l.object);
    if (monitor_class) out.monitor_classes[l.hash] = l.class_name;
    if (!full) continue;
    if (l.kind == LockKind::juc) out.juc_parked[l.class_name] += queued[i];
    if (l.owner_id) {
      auto [it, fresh] = owner_names.try_emplace(*l.owner_id);
      if (fresh) it->second = lookup_.thread_name(l.owner);
      l.owner_name = it->second;
    }
  }
}

// Names cost allocations: only for what will be shown. In the background
// check that is the members of cycles, usually none.
void JvmtiLockGraphSource::name_cycles(const std::vector<ScanWaiter>& waiters, const std::vector<ScanLock>& locks,
                                       LockScan& out) {
  std::vector<ThreadKey> shown;
  for (const auto& c : out.graph.cycles())
    for (const auto& e : c.edges) shown.push_back(e.waiter);
  WaitForGraph named = out.graph;
  for (const auto& w : waiters) {
    auto it = out.graph.edges().find(w.id);
    if (it == out.graph.edges().end() || std::find(shown.begin(), shown.end(), w.id) == shown.end()) continue;
    const ScanLock& l = locks[w.lock];
    WaitEdge e = it->second;
    e.waiter_name = lookup_.thread_name(w.thread);
    if (l.object != nullptr) e.lock.class_name = lookup_.class_name_of(l.object);
    if (l.owner != nullptr) e.owner_name = lookup_.thread_name(l.owner);
    named.add(std::move(e));
  }
  out.graph = std::move(named);
}

}  // namespace jvmsight
