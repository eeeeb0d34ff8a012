#include "collectors/jvmti_lock_graph_source.h"

#include <algorithm>

#include "collectors/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {
namespace {

// "Ljava/util/concurrent/locks/ReentrantLock$NonfairSync;" -> "java.util...ReentrantLock$NonfairSync"
std::string java_name(const char* signature) {
  std::string s(signature ? signature : "?");
  if (s.size() > 2 && s.front() == 'L' && s.back() == ';') s = s.substr(1, s.size() - 2);
  for (char& c : s)
    if (c == '/') c = '.';
  return s;
}

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

JvmtiLockGraphSource::JvmtiLockGraphSource(jvmtiEnv* jvmti, JNIEnv* jni, bool monitor_usage)
    : jvmti_(jvmti), jni_(jni), monitor_usage_(monitor_usage) {
  LocalFrame frame(jni, 8);
  jclass thread = jni->FindClass("java/lang/Thread");
  if (!jni_ok(jni, "FindClass(java.lang.Thread)") || thread == nullptr) return;
  tid_ = jni->GetFieldID(thread, "tid", "J");
  if (!jni_ok(jni, "Thread.tid")) return;
  park_blocker_ = jni->GetFieldID(thread, "parkBlocker", "Ljava/lang/Object;");
  if (!jni_ok(jni, "Thread.parkBlocker")) return;
  jclass aos = jni->FindClass("java/util/concurrent/locks/AbstractOwnableSynchronizer");
  if (!jni_ok(jni, "FindClass(AbstractOwnableSynchronizer)") || aos == nullptr) return;
  exclusive_owner_ = jni->GetFieldID(aos, "exclusiveOwnerThread", "Ljava/lang/Thread;");
  if (!jni_ok(jni, "AbstractOwnableSynchronizer.exclusiveOwnerThread")) return;
  aos_ = static_cast<jclass>(jni->NewGlobalRef(aos));
  ready_ = aos_ != nullptr;
}

ThreadKey JvmtiLockGraphSource::key_of(jthread t) { return jni_->GetLongField(t, tid_); }

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
    name = java_name(sig);
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

std::optional<LockScan> JvmtiLockGraphSource::scan(ScanDepth depth) {
  if (!ready_) return std::nullopt;
  // GetAllThreads makes a local reference per thread, blockers and monitors
  // add a few more: the frame frees them all at once.
  LocalFrame frame(jni_, 64);
  if (!frame.ok()) return std::nullopt;
  jint count = 0;
  JvmtiArray<jthread> threads(jvmti_);
  if (!jvmti_ok(jvmti_, jvmti_->GetAllThreads(&count, threads.out()), "GetAllThreads")) return std::nullopt;
  LockScan out;
  out.threads_seen = static_cast<size_t>(count);
  const bool full = depth == ScanDepth::full;

  std::vector<Waiter> waiters;
  for (jint i = 0; i < count; ++i) {
    jthread t = threads[i];
    jint state = 0;
    if (jvmti_->GetThreadState(t, &state) != JVMTI_ERROR_NONE) continue;
    if (state & JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER) {
      jobject monitor = nullptr;
      // Null when the thread got the monitor since its state was read.
      if (jvmti_->GetCurrentContendedMonitor(t, &monitor) == JVMTI_ERROR_NONE && monitor != nullptr)
        waiters.push_back({t, monitor, LockKind::monitor, nullptr});
    } else if (state & JVMTI_THREAD_STATE_PARKED) {
      jobject blocker = jni_->GetObjectField(t, park_blocker_);
      if (blocker == nullptr) continue;
      if (!jni_->IsInstanceOf(blocker, aos_)) {
        jni_->DeleteLocalRef(blocker);  // a Condition, a latch's waiters...: not an ownable lock
        continue;
      }
      jthread owner = static_cast<jthread>(jni_->GetObjectField(blocker, exclusive_owner_));
      if (full) ++out.juc_parked[class_name_of(blocker)];
      if (owner == nullptr && !full) {
        // Unowned (a semaphore, a read lock, a latch): no edge a cycle could use.
        jni_->DeleteLocalRef(blocker);
        continue;
      }
      waiters.push_back({t, blocker, LockKind::juc, owner});
    }
  }
  if (waiters.empty()) return out;

  // Monitor owners. A thread in a cycle is itself waiting, so for cycles the
  // waiting threads' own monitors suffice; those handshakes are cheap because
  // the targets are already blocked or parked.
  std::vector<std::pair<jobject, jthread>> owned;
  bool any_monitor = false;
  for (const auto& w : waiters) any_monitor = any_monitor || w.kind == LockKind::monitor;
  if (any_monitor) {
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
  // Names and classes cost allocations: only for what will be shown. In the
  // background check that is the members of cycles, usually none.
  std::vector<ThreadKey> shown;
  if (full) {
    for (const auto& [k, unused] : out.graph.edges()) shown.push_back(k);
  } else {
    for (const auto& c : out.graph.cycles())
      for (const auto& e : c.edges) shown.push_back(e.waiter);
  }
  if (shown.empty()) return out;
  WaitForGraph named;
  for (const auto& w : waiters) {
    ThreadKey k = key_of(w.thread);
    auto it = out.graph.edges().find(k);
    if (it == out.graph.edges().end() || std::find(shown.begin(), shown.end(), k) == shown.end()) {
      if (it != out.graph.edges().end()) named.add(it->second);
      continue;
    }
    WaitEdge e = it->second;
    e.waiter_name = thread_name(w.thread);
    e.lock.class_name = class_name_of(w.lock);
    if (w.owner != nullptr) e.owner_name = thread_name(w.owner);
    named.add(std::move(e));
  }
  out.graph = std::move(named);
  return out;
}

}  // namespace jvmsight
