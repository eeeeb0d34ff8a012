#include "collectors/locks/jvmti_lock_graph_source.h"

#include <algorithm>
#include <chrono>

#include "collectors/locks/java_lock_scan.h"
#include "collectors/locks/tagged_lock_classes.h"
#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {

namespace {

// A bound on distinct classes remembered, so a JVM that parks on endless
// generated classes cannot grow the cache.
constexpr size_t max_cached_classes = 256;
// A full scan asks GetObjectMonitorUsage (a safepoint each) for at most this
// many distinct monitors whose owner is not itself waiting.
constexpr size_t max_monitor_usage_queries = 32;

}  // namespace

struct JvmtiLockGraphSource::Waiter {
  jthread thread;
  jobject lock;
  LockKind kind;
  jthread owner;  // j.u.c.: exclusiveOwnerThread; monitors: filled in later
};

JvmtiLockGraphSource::JvmtiLockGraphSource(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, bool monitor_usage,
                                           std::atomic<bool>* blocked_anew, const VirtualThreadCounter* virtual_threads)
    : jvmti_(jvmti),
      jni_(jni),
      roster_(roster),
      monitor_usage_(monitor_usage),
      virtual_threads_(virtual_threads),
      blocked_anew_(blocked_anew) {
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
      log::debug("JvmsightLockScan unavailable; the deadlock check reads threads via JNI");
    }
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
    reuse_valid_ = false;
    if (java_pass_) java_pass_->set_threads(roster_.threads());
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
  reuse_valid_ = plan.from_java && scan.graph.cycles().empty();
  if (!reuse_valid_) return;
  reuse_candidates_ = plan.candidates;
  reuse_edges_.clear();
  for (const auto& [k, e] : scan.graph.edges())
    if (e.lock.kind == LockKind::monitor) reuse_edges_.push_back(e);
}

std::optional<LockScan> JvmtiLockGraphSource::scan(ScanDepth depth) {
  auto result = scan_once(depth, true);
  if (result && reused_ > 0 && !result->graph.cycles().empty()) {
    // Reused edges carry no names, and a cycle deserves a fresh look anyway.
    reuse_valid_ = false;
    result = scan_once(depth, false);
  }
  if (result && depth == ScanDepth::cycles) cycle_in_last_scan_ = !result->graph.cycles().empty();
  return result;
}

// The steps of one scan: which threads to look at (plan), who waits for
// which lock (platform_waiters, add_virtual_waiters), who owns the
// monitors (find_monitor_owners), the graph (add_edges), and names for
// what will be shown (name_shown).
std::optional<LockScan> JvmtiLockGraphSource::scan_once(ScanDepth depth, bool allow_reuse) {
  if (!ready_) return std::nullopt;
  // Monitors, blockers and owners make local references: the frame frees them.
  LocalFrame frame(jni_, 64);
  if (!frame.ok() || !take_threads(depth)) return std::nullopt;
  const auto now = std::chrono::steady_clock::now();
  LockScan out;
  out.threads_seen = roster_.threads().size();
  const Plan p = plan(depth, allow_reuse);
  std::vector<Waiter> waiters = platform_waiters(p, out);
  if (p.from_java) add_virtual_waiters(waiters, now);
  if (p.reuse)
    for (const auto& e : reuse_edges_) out.graph.add(e);
  if (!waiters.empty()) {
    find_monitor_owners(waiters, p.full);
    add_edges(waiters, out);
  }
  if (!p.reuse) remember_monitor_edges(out, p);
  if (!waiters.empty()) name_shown(waiters, p.full, out);
  if (!out.graph.cycles().empty()) add_list_order(p, out);
  return out;
}

// The roster lists threads in GetAllThreads' order, which is the JVM's
// thread-list order; candidates are ascending indices into it.
void JvmtiLockGraphSource::add_list_order(const Plan& p, LockScan& out) {
  const auto& threads = roster_.threads();
  for (jint i : p.candidates) {
    if (i < 0 || static_cast<size_t>(i) >= threads.size()) continue;
    ThreadKey k = key_of(threads[static_cast<size_t>(i)]);
    if (out.graph.edges().count(k)) out.list_order.push_back(k);
  }
}

JvmtiLockGraphSource::Plan JvmtiLockGraphSource::plan(ScanDepth depth, bool allow_reuse) {
  Plan p;
  p.full = depth == ScanDepth::full;
  // The background check asks Java for the few candidates; a full scan (and
  // a JVM where the Java pass is unavailable) looks at every thread via JNI.
  const bool background = !p.full && java_pass_;
  // Taken before the pass, so a thread that blocks after it sets it again.
  const bool blocked_anew =
      !background || blocked_anew_ == nullptr || blocked_anew_->exchange(false, std::memory_order_acq_rel);
  std::optional<std::vector<jint>> from_java = background ? java_pass_->candidates() : std::nullopt;
  p.from_java = from_java.has_value();
  if (from_java) {
    p.candidates = std::move(*from_java);
  } else {
    p.candidates.resize(roster_.threads().size());
    for (size_t i = 0; i < p.candidates.size(); ++i) p.candidates[i] = static_cast<jint>(i);
  }
  p.reuse = allow_reuse && p.from_java && !blocked_anew && reuse_valid_ && reused_ < max_reuse &&
            p.candidates == reuse_candidates_;
  reused_ = p.reuse ? reused_ + 1 : 0;
  return p;
}

std::vector<JvmtiLockGraphSource::Waiter> JvmtiLockGraphSource::platform_waiters(const Plan& p, LockScan& out) {
  std::vector<Waiter> waiters;
  const auto& threads = roster_.threads();
  for (jint i : p.candidates) {
    if (i < 0 || static_cast<size_t>(i) >= threads.size()) continue;
    jthread t = threads[static_cast<size_t>(i)];
    jint state = roster_.status(jni_, static_cast<size_t>(i));
    if (state & JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER) {
      if (p.reuse) continue;  // its edge comes from reuse_edges_
      jobject monitor = nullptr;
      // Null when the thread got the monitor since its state was read.
      if (jvmti_->GetCurrentContendedMonitor(t, &monitor) == JVMTI_ERROR_NONE && monitor != nullptr)
        waiters.push_back({t, monitor, LockKind::monitor, nullptr});
    } else if (state & JVMTI_THREAD_STATE_PARKED) {
      jthread owner = nullptr;
      jobject blocker = ownable_blocker(t, owner);
      if (blocker == nullptr) continue;
      if (p.full) ++out.juc_parked[class_name_of(blocker)];
      if (owner == nullptr && !p.full) {
        // Unowned (a semaphore, a read lock, a latch): no edge a cycle could use.
        jni_->DeleteLocalRef(blocker);
        continue;
      }
      waiters.push_back({t, blocker, LockKind::juc, owner});
    }
  }
  return waiters;
}

void JvmtiLockGraphSource::add_virtual_waiters(std::vector<Waiter>& waiters,
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
    if (owner != nullptr) waiters.push_back({t, blocker, LockKind::juc, owner});
  }
}

// A thread in a cycle is itself waiting, so for cycles the waiting threads'
// own monitors suffice; those handshakes are cheap because the targets are
// already blocked or parked. A full scan also asks GetObjectMonitorUsage
// (a safepoint each, so bounded) for owners that are not waiting.
void JvmtiLockGraphSource::find_monitor_owners(std::vector<Waiter>& waiters, bool full) {
  bool any_monitor = false;
  for (const auto& w : waiters) any_monitor = any_monitor || w.kind == LockKind::monitor;
  if (!any_monitor) return;
  std::vector<std::pair<jobject, jthread>> owned;
  for (const auto& w : waiters) {
    jint n = 0;
    JvmtiArray<jobject> monitors(jvmti_);
    if (jvmti_->GetOwnedMonitorInfo(w.thread, &n, monitors.out()) != JVMTI_ERROR_NONE) continue;
    for (jint m = 0; m < n; ++m) owned.emplace_back(monitors[m], w.thread);
  }
  size_t usage_queries = 0;
  for (auto& w : waiters) {
    if (w.kind != LockKind::monitor) continue;
    for (const auto& [monitor, owner] : owned) {
      if (jni_->IsSameObject(monitor, w.lock)) {
        w.owner = owner;
        break;
      }
    }
    if (w.owner == nullptr && full && monitor_usage_ && usage_queries < max_monitor_usage_queries) {
      ++usage_queries;
      jvmtiMonitorUsage usage{};
      if (jvmti_->GetObjectMonitorUsage(w.lock, &usage) == JVMTI_ERROR_NONE) {
        w.owner = usage.owner;
        if (usage.waiters) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(usage.waiters));
        if (usage.notify_waiters) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(usage.notify_waiters));
      }
      if (w.owner != nullptr) owned.emplace_back(w.lock, w.owner);
    }
  }
}

void JvmtiLockGraphSource::add_edges(const std::vector<Waiter>& waiters, LockScan& out) {
  for (const auto& w : waiters) {
    WaitEdge e;
    e.waiter = key_of(w.thread);
    e.lock.kind = w.kind;
    e.lock.identity_hash = hash_of(w.lock);
    if (w.owner != nullptr) e.owner = key_of(w.owner);
    // Contention events only carry a hash; name the classes of monitors seen
    // contended here so those events can be labelled (cached, so cheap).
    if (w.kind == LockKind::monitor && out.monitor_classes.size() < max_cached_classes)
      out.monitor_classes[e.lock.identity_hash] = class_name_of(w.lock);
    out.graph.add(std::move(e));
  }
}

// Names and classes cost allocations: only for what will be shown. In the
// background check that is the members of cycles, usually none.
void JvmtiLockGraphSource::name_shown(const std::vector<Waiter>& waiters, bool full, LockScan& out) {
  std::vector<ThreadKey> shown;
  if (full) {
    for (const auto& [k, unused] : out.graph.edges()) shown.push_back(k);
  } else {
    for (const auto& c : out.graph.cycles())
      for (const auto& e : c.edges) shown.push_back(e.waiter);
  }
  if (shown.empty()) return;
  WaitForGraph named = out.graph;
  for (const auto& w : waiters) {
    ThreadKey k = key_of(w.thread);
    auto it = out.graph.edges().find(k);
    if (it == out.graph.edges().end() || std::find(shown.begin(), shown.end(), k) == shown.end()) continue;
    WaitEdge e = it->second;
    e.waiter_name = thread_name(w.thread);
    e.lock.class_name = class_name_of(w.lock);
    if (w.owner != nullptr) e.owner_name = thread_name(w.owner);
    named.add(std::move(e));
  }
  out.graph = std::move(named);
}

}  // namespace jvmsight
