#include "collectors/threads/thread_roster.h"

#include <unordered_map>

#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {

bool ThreadRoster::resolve_layout(JNIEnv* jni) {
  if (layout_tried_) return status_ != nullptr;
  layout_tried_ = true;
  jclass thread = jni->FindClass("java/lang/Thread");
  if (!jni_ok(jni, "FindClass(Thread)") || thread == nullptr) return false;
  tid_ = jni->GetFieldID(thread, "tid", "J");
  if (!jni_ok(jni, "Thread.tid")) return false;
  // JDK 19 moved threadStatus into Thread.FieldHolder.
  holder_ = jni->GetFieldID(thread, "holder", "Ljava/lang/Thread$FieldHolder;");
  if (holder_ != nullptr) {
    jclass fh = jni->FindClass("java/lang/Thread$FieldHolder");
    if (fh != nullptr) status_ = jni->GetFieldID(fh, "threadStatus", "I");
  } else {
    jni->ExceptionClear();
    status_ = jni->GetFieldID(thread, "threadStatus", "I");
  }
  if (!jni_ok(jni, "Thread.threadStatus") || status_ == nullptr) {
    log::warn("unknown java.lang.Thread layout: thread states are not collected");
    status_ = nullptr;
    return false;
  }
  return true;
}

void ThreadRoster::release(JNIEnv* jni, Entry& e) {
  jni->DeleteGlobalRef(e.thread);
  if (e.status_holder != e.thread) jni->DeleteGlobalRef(e.status_holder);
}

bool ThreadRoster::refresh(JNIEnv* jni, jvmtiEnv* jvmti) {
  LocalFrame frame(jni, 16);
  if (!frame.ok()) return false;
  jint count = 0;
  JvmtiArray<jthread> threads(jvmti);
  if (!jvmti_ok(jvmti, jvmti->GetAllThreads(&count, threads.out()), "GetAllThreads")) return false;
  // GetAllThreads lists JVM TI agent threads; ThreadMXBean does not: leave ourselves out.
  jthread self = nullptr;
  if (!jvmti_ok(jvmti, jvmti->GetCurrentThread(&self), "GetCurrentThread")) return false;
  jlong self_tid = jni->GetLongField(self, tid_);

  std::unordered_map<jlong, Entry> known;
  known.reserve(entries_.size());
  for (auto& e : entries_) known.emplace(e.tid, e);
  std::vector<Entry> next;
  next.reserve(static_cast<size_t>(count));
  for (jint i = 0; i < count; ++i) {
    jlong tid = jni->GetLongField(threads[i], tid_);
    if (tid == self_tid) continue;
    auto it = known.find(tid);
    if (it != known.end()) {
      next.push_back(it->second);
      known.erase(it);
      continue;
    }
    Entry e{tid, jni->NewGlobalRef(threads[i]), nullptr};
    if (holder_ != nullptr) {
      jobject h = jni->GetObjectField(threads[i], holder_);
      e.status_holder = h ? jni->NewGlobalRef(h) : nullptr;
      jni->DeleteLocalRef(h);
    } else {
      e.status_holder = e.thread;
    }
    if (e.thread == nullptr || e.status_holder == nullptr) continue;
    next.push_back(e);
  }
  for (auto& [tid, gone] : known) release(jni, gone);
  entries_ = std::move(next);
  return true;
}

bool ThreadRoster::for_each(JNIEnv* jni, jvmtiEnv* jvmti, const std::function<void(jthread, jint)>& visit) {
  if (!resolve_layout(jni)) return false;
  uint64_t changes = changes_.load(std::memory_order_relaxed);
  if (stale_ || changes != seen_changes_) {
    // Read the counter before listing: a thread starting meanwhile makes the next scrape refresh again.
    if (!refresh(jni, jvmti)) return false;
    seen_changes_ = changes;
    stale_ = false;
  }
  for (const auto& e : entries_) {
    jint status = jni->GetIntField(e.status_holder, status_);
    if (status & JVMTI_THREAD_STATE_TERMINATED) {
      stale_ = true;  // drop it at the next scrape; ThreadMXBean no longer lists it either
      continue;
    }
    if (!(status & JVMTI_THREAD_STATE_ALIVE)) continue;  // not started yet: not a live thread
    visit(e.thread, status);
  }
  return true;
}

}  // namespace jvmsight
