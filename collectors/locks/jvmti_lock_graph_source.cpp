#include "collectors/locks/jvmti_lock_graph_source.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>

#include "collectors/locks/java_lock_scan.h"
#include "collectors/locks/tagged_lock_classes.h"
#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {

namespace {

// A bound on distinct classes remembered, so a JVM that parks on endless
// generated classes cannot grow the cache.
constexpr size_t max_cached_classes = 256;
// GetObjectMonitorUsage (a VM operation each) for at most this many distinct
// monitors per scan.
constexpr size_t max_monitor_usage_queries = 32;
// A full scan (scrape time) makes at most this many per-thread handshakes
// beyond those: its cost stays bounded whatever the threads do.
constexpr size_t max_scrape_handshakes = 64;
// Blocked threads whose contended-entry counts the background check reads
// to skip those that moved (JvmtiLockGraphSource::skip_moved).
constexpr size_t max_progress_reads = 256;
constexpr size_t no_lock = static_cast<size_t>(-1);

}  // namespace

// A distinct lock some candidates wait for: its per-lock work (owner, hash,
// class, owner name) is done once, however many threads queue on it.
struct JvmtiLockGraphSource::Lock {
  jobject object = nullptr;  // null: a monitor the scan had no budget left to name
  LockKind kind = LockKind::monitor;
  jthread owner = nullptr;   // j.u.c.: exclusiveOwnerThread; monitors: from GetObjectMonitorUsage or later
  bool owner_known = false;  // monitors: owner asked already (null then means unowned)
  int32_t hash = 0;
  std::optional<ThreadKey> owner_id;
  std::string class_name;
  std::string owner_name;
};

struct JvmtiLockGraphSource::Waiter {
  jthread thread;
  ThreadKey id;
  size_t lock;  // into the scan's locks; no_lock: a blocked thread whose monitor is not known yet
};

JvmtiLockGraphSource::JvmtiLockGraphSource(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, bool monitor_usage,
                                           std::atomic<bool>* blocked_anew, JvmBlockedCounts* blocked_counts,
                                           const VirtualThreadCounter* virtual_threads)
    : jvmti_(jvmti),
      jni_(jni),
      roster_(roster),
      monitor_usage_(monitor_usage),
      virtual_threads_(virtual_threads),
      blocked_anew_(blocked_anew),
      blocked_counts_(blocked_counts) {
  // The roster resolves java.lang.Thread's layout (tid, status word, park blocker).
  if (!roster_.update(jni, jvmti)) return;
  LocalFrame frame(jni, 8);
  jclass aos = jni->FindClass("java/util/concurrent/locks/AbstractOwnableSynchronizer");
  if (!jni_ok(jni, "FindClass(AbstractOwnableSynchronizer)") || aos == nullptr) return;
  exclusive_owner_ = jni->GetFieldID(aos, "exclusiveOwnerThread", "Ljava/lang/Thread;");
  if (!jni_ok(jni, "AbstractOwnableSynchronizer.exclusiveOwnerThread")) return;
  aos_ = static_cast<jclass>(jni->NewGlobalRef(aos));
  ready_ = aos_ != nullptr;
  if (ready_) {
    java_pass_ = std::make_unique<JavaLockScan>(jvmti, jni);
    if (!java_pass_->ok()) {
      java_pass_.reset();
      log::debug("JvmsightLockScan unavailable; the deadlock check and thread states read threads via JNI");
    } else {
      roster_.set_status_gather(java_pass_.get());  // the thread-state collector's status words too
    }
  }
}

JvmtiLockGraphSource::~JvmtiLockGraphSource() {
  if (java_pass_) roster_.set_status_gather(nullptr);
}

bool JvmtiLockGraphSource::take_threads(ScanDepth depth) {
  // A full scan (scrape time) wants the threads as they are; the background
  // check can live with a list up to refresh_interval old.
  auto min_interval = depth == ScanDepth::full ? std::chrono::milliseconds{0} : refresh_interval;
  if (!roster_.update(jni_, jvmti_, min_interval)) return false;
  if (roster_.version() != roster_version_) {
    roster_version_ = roster_.version();
    // Candidate indices name other threads from now on: remembered edges are void.
    reuse_valid_ = false;
    if (java_pass_) java_pass_->set_threads(roster_.thread_array(jni_), static_cast<jsize>(roster_.threads().size()));
  }
  return true;
}

ThreadKey JvmtiLockGraphSource::key_of(jthread t) { return roster_.layout().id(jni_, t); }

jobject JvmtiLockGraphSource::ownable_blocker(jthread t, jthread& owner) {
  owner = nullptr;
  jobject blocker = jni_->GetObjectField(t, roster_.layout().park_blocker);
  if (blocker == nullptr) return nullptr;
  if (!jni_->IsInstanceOf(blocker, aos_)) {
    jni_->DeleteLocalRef(blocker);  // a Condition, a latch's waiters...: not an ownable lock
    return nullptr;
  }
  owner = static_cast<jthread>(jni_->GetObjectField(blocker, exclusive_owner_));
  return blocker;
}

std::string JvmtiLockGraphSource::thread_name(jthread t) {
  jvmtiThreadInfo info{};
  if (jvmti_->GetThreadInfo(t, &info) != JVMTI_ERROR_NONE) return "?";
  std::string name = info.name ? info.name : "";
  if (info.name) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(info.name));
  if (info.thread_group) jni_->DeleteLocalRef(info.thread_group);
  if (info.context_class_loader) jni_->DeleteLocalRef(info.context_class_loader);
  return name;
}

std::string JvmtiLockGraphSource::class_name_of(jobject o) {
  jclass cls = jni_->GetObjectClass(o);
  for (const auto& [known, name] : class_names_) {
    if (jni_->IsSameObject(known, cls)) {
      jni_->DeleteLocalRef(cls);
      return name;
    }
  }
  char* sig = nullptr;
  std::string name = "?";
  if (jvmti_->GetClassSignature(cls, &sig, nullptr) == JVMTI_ERROR_NONE) {
    name = java_class_name(sig);
    jvmti_->Deallocate(reinterpret_cast<unsigned char*>(sig));
  }
  if (class_names_.size() < max_cached_classes) {
    if (jclass global = static_cast<jclass>(jni_->NewGlobalRef(cls))) class_names_.emplace_back(global, name);
  }
  jni_->DeleteLocalRef(cls);
  return name;
}

int32_t JvmtiLockGraphSource::hash_of(jobject o) {
  jint hash = 0;
  jvmti_->GetObjectHashCode(o, &hash);
  return hash;
}

void JvmtiLockGraphSource::remember_monitor_edges(const LockScan& scan, const Plan& plan) {
  // Edges of moved threads were not read: not a whole set to reuse.
  const bool all_read = std::find(plan.moved.begin(), plan.moved.end(), true) == plan.moved.end();
  reuse_valid_ = plan.from_java && all_read && scan.graph.cycles().empty();
  if (!reuse_valid_) return;
  reuse_candidates_ = plan.candidates;
  reuse_edges_.clear();
  for (const auto& [k, e] : scan.graph.edges())
    if (e.lock.kind == LockKind::monitor) reuse_edges_.push_back(e);
}

std::optional<LockScan> JvmtiLockGraphSource::scan(ScanDepth depth) {
  auto result = scan_once(depth, true);
  if (result && depth == ScanDepth::cycles && reused_ > 0 && !result->graph.cycles().empty()) {
    // Reused edges carry no names, and a cycle deserves a fresh look anyway.
    reuse_valid_ = false;
    const size_t stops = result->thread_stops;
    result = scan_once(depth, false);
    if (result) result->thread_stops += stops;
  }
  if (result && depth == ScanDepth::cycles) cycle_in_last_scan_ = !result->graph.cycles().empty();
  return result;
}

// The steps of one scan: which threads to look at (plan), who waits for
// which lock (platform_waiters, add_virtual_waiters), which monitor each
// blocked thread waits for and who owns it (resolve_monitors,
// find_monitor_owners), the per-lock facts (describe_locks), and the graph
// (add_edges, name_cycles). Work is per distinct lock wherever it can be:
// a pileup of thousands of threads on one lock costs about what one does.
std::optional<LockScan> JvmtiLockGraphSource::scan_once(ScanDepth depth, bool allow_reuse) {
  if (!ready_) return std::nullopt;
  // Monitors, blockers and owners make local references: the frame frees them.
  LocalFrame frame(jni_, 64);
  if (!frame.ok() || !take_threads(depth)) return std::nullopt;
  const auto now = std::chrono::steady_clock::now();
  LockScan out;
  out.threads_seen = roster_.threads().size();
  std::optional<Plan> p = plan(depth, allow_reuse);
  if (!p) return std::nullopt;
  std::vector<Lock> locks;
  std::vector<Waiter> waiters = platform_waiters(*p, locks);
  if (p->from_java && !p->full) add_virtual_waiters(waiters, locks, now);
  if (p->reuse)
    for (const auto& e : reuse_edges_) out.graph.add(e);
  if (!waiters.empty()) {
    resolve_monitors(waiters, locks, p->full, out.thread_stops);
    find_monitor_owners(waiters, locks, p->full, out.thread_stops);
    describe_locks(waiters, locks, p->full, out);
    add_edges(waiters, locks, p->full, out);
  }
  if (!p->reuse && !p->full) remember_monitor_edges(out, *p);
  if (!out.graph.cycles().empty()) {
    name_cycles(waiters, locks, out);
    add_list_order(*p, out);
  }
  return out;
}

// The roster lists threads in GetAllThreads' order, which is the JVM's
// thread-list order; candidates are ascending indices into it.
void JvmtiLockGraphSource::add_list_order(const Plan& p, LockScan& out) {
  const auto& threads = roster_.threads();
  for (size_t k = 0; k < p.candidates.size(); ++k) {
    jint i = p.candidates[k];
    if (i < 0 || static_cast<size_t>(i) >= threads.size()) continue;
    ThreadKey key = k < p.ids.size() ? p.ids[k] : key_of(threads[static_cast<size_t>(i)]);
    if (out.graph.edges().count(key)) out.list_order.push_back(key);
  }
}

std::optional<JvmtiLockGraphSource::Plan> JvmtiLockGraphSource::plan(ScanDepth depth, bool allow_reuse) {
  Plan p;
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
    p.java_locks = std::move(found->locks);
  } else {
    p.candidates.resize(roster_.threads().size());
    for (size_t i = 0; i < p.candidates.size(); ++i) p.candidates[i] = static_cast<jint>(i);
  }
  p.reuse = allow_reuse && !p.full && p.from_java && !blocked_anew && reuse_valid_ && reused_ < max_reuse &&
            p.candidates == reuse_candidates_;
  if (!p.full) reused_ = p.reuse ? reused_ + 1 : 0;
  if (!p.full && p.from_java) {
    const bool fresh_anew = blocked_anew && !p.reuse;
    if (fresh_anew) skip_moved(p);
    churn_ = fresh_anew;
  }
  return p;
}

// Reads the blocked candidates' counts at every check that re-reads edges
// because threads blocked anew, so the next one can compare; skips the moved
// ones only if the previous check was such a check too (churn). A single
// burst of new blocking, like a deadlock forming, is read whole at once.
// Past max_progress_reads blocked threads the counts would cost more than
// they save (about 1 us a thread, against a handshake and a VM operation
// per distinct monitor, however many queue on it): every edge is read.
void JvmtiLockGraphSource::skip_moved(Plan& p) {
  if (blocked_counts_ == nullptr) return;
  std::vector<jlong> ids;
  std::vector<size_t> at;
  for (size_t k = 0; k < p.candidates.size(); ++k) {
    if (p.groups[k] != JavaLockScan::Candidates::monitor_group) continue;
    ids.push_back(p.ids[k]);
    at.push_back(k);
  }
  if (ids.size() > max_progress_reads) {
    progress_.forget();
    return;
  }
  std::optional<std::vector<jlong>> counts;
  if (!ids.empty()) counts = blocked_counts_->of(ids);
  std::vector<bool> unmoved = progress_.unmoved(ids, counts ? *counts : std::vector<jlong>{});
  if (!churn_) return;
  p.moved.assign(p.candidates.size(), false);
  for (size_t j = 0; j < at.size(); ++j) p.moved[at[j]] = !unmoved[j];
}

size_t JvmtiLockGraphSource::add_juc_lock(std::vector<Lock>& locks, jobject blocker, jthread owner) {
  Lock l;
  l.object = blocker;
  l.kind = LockKind::juc;
  l.owner = owner;
  l.owner_known = true;
  locks.push_back(std::move(l));
  return locks.size() - 1;
}

std::vector<JvmtiLockGraphSource::Waiter> JvmtiLockGraphSource::platform_waiters(const Plan& p,
                                                                                 std::vector<Lock>& locks) {
  std::vector<Waiter> waiters;
  waiters.reserve(p.candidates.size());
  const auto& threads = roster_.threads();
  // Java slot -> index into locks: each distinct lock's owner read once.
  std::vector<size_t> slot_lock(p.java_locks.size(), no_lock);
  for (size_t k = 0; k < p.candidates.size(); ++k) {
    jint i = p.candidates[k];
    if (i < 0 || static_cast<size_t>(i) >= threads.size()) continue;
    jthread t = threads[static_cast<size_t>(i)];
    bool blocked = false;
    jint group = JavaLockScan::Candidates::overflow_group;
    if (p.from_java) {
      group = p.groups[k];
      blocked = group == JavaLockScan::Candidates::monitor_group;
    } else {
      jint state = roster_.status(jni_, static_cast<size_t>(i));
      blocked = (state & JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER) != 0;
      if (!blocked && !(state & JVMTI_THREAD_STATE_PARKED)) continue;
    }
    const ThreadKey id = p.from_java ? p.ids[k] : key_of(t);
    if (blocked) {
      if (p.reuse) continue;  // its edge comes from reuse_edges_
      if (!p.moved.empty() && p.moved[k]) continue;
      waiters.push_back({t, id, no_lock});
      continue;
    }
    size_t lock = no_lock;
    if (group >= 0 && static_cast<size_t>(group) < slot_lock.size()) {
      lock = slot_lock[static_cast<size_t>(group)];
      if (lock == no_lock) {
        jobject blocker = p.java_locks[static_cast<size_t>(group)];
        auto owner = static_cast<jthread>(jni_->GetObjectField(blocker, exclusive_owner_));
        lock = slot_lock[static_cast<size_t>(group)] = add_juc_lock(locks, blocker, owner);
      }
    } else {
      jthread owner = nullptr;
      jobject blocker = ownable_blocker(t, owner);
      if (blocker == nullptr) continue;
      lock = add_juc_lock(locks, blocker, owner);
    }
    // Unowned (a semaphore, a read lock, a latch): no edge a cycle could
    // use, but a full scan counts the thread as parked on it.
    if (locks[lock].owner == nullptr && !p.full) continue;
    waiters.push_back({t, id, lock});
  }
  return waiters;
}

void JvmtiLockGraphSource::add_virtual_waiters(std::vector<Waiter>& waiters, std::vector<Lock>& locks,
                                               std::chrono::steady_clock::time_point now) {
  const uint64_t live_virtual = virtual_threads_ ? virtual_threads_->live() : 0;
  if (live_virtual == 0 || live_virtual > max_virtual_threads_walked) return;
  if (!cycle_in_last_scan_ && now < next_virtual_walk_) return;
  auto walk_start = std::chrono::steady_clock::now();
  std::vector<jthread> parked = java_pass_->virtual_candidates(max_virtual_candidates);
  next_virtual_walk_ = walk_start + virtual_walk_spacing * (std::chrono::steady_clock::now() - walk_start);
  for (jthread t : parked) {
    // Java saw it parked on an owned lock; it may have moved on since.
    jthread owner = nullptr;
    jobject blocker = ownable_blocker(t, owner);
    if (owner != nullptr) waiters.push_back({t, key_of(t), add_juc_lock(locks, blocker, owner)});
  }
}

// Which monitor each blocked thread waits for. GetCurrentContendedMonitor
// is a handshake with one thread (0.1-1 ms measured at 10,000 threads), so
// it is asked of one thread per distinct monitor only: GetObjectMonitorUsage
// of that monitor (one VM operation) names its owner and every thread
// queued to enter it, which are then resolved without a call of their own.
// Its waiters list is matched against the blocked candidates (JDK 17-22 also
// list Object.wait() threads there). Past max_monitor_usage_queries distinct
// monitors the background check goes on thread by thread (a cycle must not
// be missed), and a full scan, which must stay bounded, at most
// max_scrape_handshakes more, then counts the rest as waiting for an
// unknown monitor.
void JvmtiLockGraphSource::resolve_monitors(std::vector<Waiter>& waiters, std::vector<Lock>& locks, bool full,
                                            size_t& stops) {
  std::unordered_map<ThreadKey, size_t> pending;
  for (size_t w = 0; w < waiters.size(); ++w)
    if (waiters[w].lock == no_lock) pending.emplace(waiters[w].id, w);
  if (pending.empty()) return;
  size_t usage_queries = 0, handshakes = 0, unknown = no_lock;
  for (size_t w = 0; w < waiters.size(); ++w) {
    if (waiters[w].lock != no_lock) continue;
    const bool over_budget = full && handshakes >= max_scrape_handshakes;
    if (over_budget) {
      if (unknown == no_lock) {
        locks.push_back(Lock{});
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
      Lock l;
      l.object = monitor;
      jvmtiMonitorUsage usage{};
      if (jvmti_->GetObjectMonitorUsage(monitor, &usage) == JVMTI_ERROR_NONE) {
        l.owner = usage.owner;
        l.owner_known = true;
        locks.push_back(std::move(l));
        for (jint i = 0; i < usage.waiter_count; ++i) {
          auto it = pending.find(key_of(usage.waiters[i]));
          if (it != pending.end() && waiters[it->second].lock == no_lock) waiters[it->second].lock = locks.size() - 1;
          jni_->DeleteLocalRef(usage.waiters[i]);
        }
        for (jint i = 0; i < usage.notify_waiter_count; ++i) jni_->DeleteLocalRef(usage.notify_waiters[i]);
        if (usage.waiters) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(usage.waiters));
        if (usage.notify_waiters) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(usage.notify_waiters));
      } else {
        locks.push_back(std::move(l));
      }
      waiters[w].lock = locks.size() - 1;
      continue;
    }
    // Thread by thread: the same monitor as one seen in this scan?
    size_t same = no_lock;
    for (size_t l = 0; l < locks.size() && same == no_lock; ++l)
      if (locks[l].kind == LockKind::monitor && locks[l].object && jni_->IsSameObject(locks[l].object, monitor))
        same = l;
    if (same == no_lock) {
      Lock l;
      l.object = monitor;
      locks.push_back(std::move(l));
      same = locks.size() - 1;
    } else {
      jni_->DeleteLocalRef(monitor);
    }
    waiters[w].lock = same;
  }
  stops += handshakes + usage_queries;
  // The monitor of a thread that got it meanwhile stays unknown: no edge.
  waiters.erase(std::remove_if(waiters.begin(), waiters.end(), [](const Waiter& w) { return w.lock == no_lock; }),
                waiters.end());
}

// Monitors whose owner GetObjectMonitorUsage did not give (no capability,
// or past its budget): a thread in a cycle is itself waiting, so the waiting
// threads' own monitors (GetOwnedMonitorInfo, handshakes with threads
// already blocked or parked) suffice for the background check. A full
// scan asks at most max_scrape_handshakes threads.
void JvmtiLockGraphSource::find_monitor_owners(std::vector<Waiter>& waiters, std::vector<Lock>& locks, bool full,
                                               size_t& stops) {
  bool any_unknown = false;
  for (const auto& l : locks) any_unknown = any_unknown || (l.kind == LockKind::monitor && !l.owner_known);
  if (!any_unknown) return;
  size_t asked = 0;
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
}

// Hash, owner id, and for a full scan class and owner name: once per lock.
void JvmtiLockGraphSource::describe_locks(const std::vector<Waiter>& waiters, std::vector<Lock>& locks, bool full,
                                          LockScan& out) {
  std::vector<size_t> queued(locks.size(), 0);
  for (const auto& w : waiters) ++queued[w.lock];
  std::unordered_map<ThreadKey, std::string> owner_names;
  for (size_t i = 0; i < locks.size(); ++i) {
    Lock& l = locks[i];
    if (queued[i] == 0 || l.object == nullptr) continue;
    l.hash = hash_of(l.object);
    if (l.owner != nullptr) l.owner_id = key_of(l.owner);
    // Contention events only carry a hash; name the classes of monitors seen
    // contended here so those events can be labelled (cached, so cheap).
    const bool name_class = full || (l.kind == LockKind::monitor && out.monitor_classes.size() < max_cached_classes);
    if (name_class) l.class_name = class_name_of(l.object);
    if (l.kind == LockKind::monitor && out.monitor_classes.size() < max_cached_classes)
      out.monitor_classes[l.hash] = l.class_name;
    if (!full) continue;
    if (l.kind == LockKind::juc) out.juc_parked[l.class_name] += queued[i];
    if (l.owner_id) {
      auto [it, fresh] = owner_names.try_emplace(*l.owner_id);
      if (fresh) it->second = thread_name(l.owner);
      l.owner_name = it->second;
    }
  }
}

// A full scan (scrape) counts per lock and builds no graph. The background
// check adds first only the edges of waiting threads that own a lock
// someone waits for: every thread on a cycle does, so that smaller graph has
// the same cycles, and a pileup behind a running holder adds none. Only when
// there is a cycle does it get every edge (the deadlocked gauges count the
// threads waiting on a cycle too).
void JvmtiLockGraphSource::add_edges(const std::vector<Waiter>& waiters, const std::vector<Lock>& locks, bool full,
                                     LockScan& out) {
  if (full) {
    LockQueues q;
    for (const auto& w : waiters) {
      const Lock& l = locks[w.lock];
      (l.kind == LockKind::monitor ? q.monitor_waiters : q.juc_waiters)++;
      if (l.owner_id && *l.owner_id != w.id) ++q.queued[{*l.owner_id, l.owner_name, l.class_name}];
    }
    out.queues = std::move(q);
    return;
  }
  std::vector<ThreadKey> owners;
  for (const auto& e : out.graph.edges())  // reused monitor edges
    if (e.second.owner) owners.push_back(*e.second.owner);
  for (const auto& l : locks)
    if (l.owner_id) owners.push_back(*l.owner_id);
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  auto edge_of = [&](const Waiter& w) {
    const Lock& l = locks[w.lock];
    WaitEdge e;
    e.waiter = w.id;
    e.lock.kind = l.kind;
    e.lock.identity_hash = l.hash;
    e.owner = l.owner_id;
    return e;
  };
  auto owns = [&](ThreadKey id) { return std::binary_search(owners.begin(), owners.end(), id); };
  for (const auto& w : waiters)
    if (owns(w.id)) out.graph.add(edge_of(w));
  if (out.graph.cycles().empty()) return;
  for (const auto& w : waiters)
    if (!owns(w.id)) out.graph.add(edge_of(w));
}

// Names cost allocations: only for what will be shown. In the background
// check that is the members of cycles, usually none.
void JvmtiLockGraphSource::name_cycles(const std::vector<Waiter>& waiters, const std::vector<Lock>& locks,
                                       LockScan& out) {
  std::vector<ThreadKey> shown;
  for (const auto& c : out.graph.cycles())
    for (const auto& e : c.edges) shown.push_back(e.waiter);
  WaitForGraph named = out.graph;
  for (const auto& w : waiters) {
    auto it = out.graph.edges().find(w.id);
    if (it == out.graph.edges().end() || std::find(shown.begin(), shown.end(), w.id) == shown.end()) continue;
    const Lock& l = locks[w.lock];
    WaitEdge e = it->second;
    e.waiter_name = thread_name(w.thread);
    if (l.object != nullptr) e.lock.class_name = class_name_of(l.object);
    if (l.owner != nullptr) e.owner_name = thread_name(l.owner);
    named.add(std::move(e));
  }
  out.graph = std::move(named);
}

}  // namespace jvmsight
