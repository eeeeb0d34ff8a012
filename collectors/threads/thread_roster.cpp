#include "collectors/threads/thread_roster.h"

#include <unordered_map>
#include <utility>

#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {

bool ThreadRoster::resolve_layout(JNIEnv* jni) {
  if (!layout_tried_) {
    layout_tried_ = true;
    LocalFrame frame(jni, 8);
    layout_ok_ = frame.ok() && layout_.resolve(jni);
    if (!layout_ok_) log::warn("unknown java.lang.Thread layout: thread states and the deadlock check are off");
  }
  return layout_ok_;
}

void ThreadRoster::release(JNIEnv* jni, jthread thread, jobject holder) {
  if (holder != nullptr && holder != thread) jni->DeleteGlobalRef(holder);
  if (thread != nullptr) jni->DeleteGlobalRef(thread);
}

bool ThreadRoster::hold(JNIEnv* jni, jthread local, jthread& thread, jobject& holder) {
  thread = static_cast<jthread>(jni->NewGlobalRef(local));
  holder = thread;
  if (layout_.holder != nullptr) {
    jobject field_holder = layout_.status_holder(jni, local);
    holder = field_holder != nullptr ? jni->NewGlobalRef(field_holder) : nullptr;
    jni->DeleteLocalRef(field_holder);
  }
  if (thread != nullptr && holder != nullptr) return true;
  release(jni, thread, holder);  // e.g. a FieldHolder not set yet: not listed, and nothing kept
  return false;
}

bool ThreadRoster::refresh(JNIEnv* jni, jvmtiEnv* jvmti) {
  LocalFrame frame(jni, 16);
  if (!frame.ok()) return false;
  jint count = 0;
  JvmtiArray<jthread> all(jvmti);
  if (!jvmti_ok(jvmti, jvmti->GetAllThreads(&count, all.out()), "GetAllThreads")) return false;
  // GetAllThreads lists JVM TI agent threads; ThreadMXBean does not: leave ourselves out.
  jthread self = nullptr;
  if (!jvmti_ok(jvmti, jvmti->GetCurrentThread(&self), "GetCurrentThread")) return false;
  const jlong self_tid = layout_.id(jni, self);

  // Threads already listed keep their references and marks; new ones get theirs.
  struct Listed {
    jthread thread;
    jobject holder;
    uint32_t mark;
  };
  std::unordered_map<jlong, Listed> known;
  known.reserve(threads_.size());
  for (size_t i = 0; i < threads_.size(); ++i)
    known.emplace(layout_.id(jni, threads_[i]), Listed{threads_[i], holders_[i], marks_[i]});
  std::vector<jthread> threads;
  std::vector<jobject> holders;
  std::vector<uint32_t> marks;
  threads.reserve(static_cast<size_t>(count));
  holders.reserve(static_cast<size_t>(count));
  marks.reserve(static_cast<size_t>(count));
  auto list = [&](jthread thread, jobject holder, uint32_t mark) {
    threads.push_back(thread);
    holders.push_back(holder);
    marks.push_back(mark);
  };
  for (jint i = 0; i < count; ++i) {
    const jlong tid = layout_.id(jni, all[i]);
    if (tid == self_tid) continue;
    if (auto it = known.find(tid); it != known.end()) {
      list(it->second.thread, it->second.holder, it->second.mark);
      known.erase(it);
      continue;
    }
    jthread thread;
    jobject holder;
    if (hold(jni, all[i], thread, holder)) list(thread, holder, watcher_ ? watcher_->joined(jni, thread) : no_mark);
  }
  for (auto& [tid, gone] : known) {
    if (watcher_ != nullptr && gone.mark != no_mark) watcher_->left(jni, gone.thread, gone.mark);
    release(jni, gone.thread, gone.holder);
  }
  drop_arrays(jni);
  threads_ = std::move(threads);
  holders_ = std::move(holders);
  marks_ = std::move(marks);
  // A started thread's daemon flag never changes: read once per listing,
  // not on every walk.
  daemon_.assign(holders_.size(), 0);
  for (size_t i = 0; i < holders_.size(); ++i) daemon_[i] = layout_.daemon_of_holder(jni, holders_[i]);
  ++version_;
  return true;
}

bool ThreadRoster::update(JNIEnv* jni, jvmtiEnv* jvmti, std::chrono::milliseconds min_interval) {
  if (!resolve_layout(jni)) return false;
  // Acquire: the listing below may not be read before the counter (on ARM a
  // later load can be satisfied first); on_thread_start says why.
  const uint64_t changes = changes_.load(std::memory_order_acquire);
  const bool changed = stale_ || !change_events_ || changes != seen_changes_;
  const auto now = std::chrono::steady_clock::now();
  if (!changed || (version_ != 0 && now - refreshed_at_ < min_interval)) return true;
  // Read the counter before listing: a thread starting meanwhile makes the next update refresh again.
  if (!refresh(jni, jvmti)) return false;
  seen_changes_ = changes;
  stale_ = false;
  refreshed_at_ = now;
  return true;
}

void ThreadRoster::drop_arrays(JNIEnv* jni) {
  if (thread_array_ != nullptr) jni->DeleteGlobalRef(thread_array_);
  if (status_array_ != nullptr) jni->DeleteGlobalRef(status_array_);
  thread_array_ = nullptr;
  status_array_ = nullptr;
}

jobjectArray ThreadRoster::thread_array(JNIEnv* jni) {
  if (thread_array_ != nullptr) return thread_array_;
  LocalFrame frame(jni, 4);
  if (!frame.ok()) return nullptr;
  const auto n = static_cast<jsize>(threads_.size());
  jclass thread = jni->FindClass("java/lang/Thread");
  jobjectArray array = thread != nullptr ? jni->NewObjectArray(n, thread, nullptr) : nullptr;
  if (!jni_ok(jni, "Thread[] of the roster") || array == nullptr) return nullptr;
  // One JNI call per thread, once per list.
  for (jsize i = 0; i < n; ++i) jni->SetObjectArrayElement(array, i, threads_[static_cast<size_t>(i)]);
  thread_array_ = static_cast<jobjectArray>(jni->NewGlobalRef(array));
  return thread_array_;
}

bool ThreadRoster::gather_statuses(JNIEnv* jni) {
  jobjectArray threads = thread_array(jni);
  if (threads == nullptr) return false;
  const auto n = static_cast<jsize>(threads_.size());
  if (status_array_ == nullptr) {
    LocalFrame frame(jni, 2);
    jintArray out = frame.ok() ? jni->NewIntArray(n) : nullptr;
    if (!jni_ok(jni, "int[] for the roster's status words") || out == nullptr) return false;
    status_array_ = static_cast<jintArray>(jni->NewGlobalRef(out));
    if (status_array_ == nullptr) return false;
  }
  if (!gather_->gather(threads, status_array_)) {
    log::warn("reading thread status words through JNI from now on, one call per thread");
    gather_ = nullptr;
    return false;
  }
  jni->GetIntArrayRegion(status_array_, 0, n, statuses_.data());
  return jni_ok(jni, "the roster's status words");
}

void ThreadRoster::read_statuses(JNIEnv* jni) {
  statuses_.resize(threads_.size());
  // One JNI call and one copy for all the threads, or one call per thread.
  if (gather_ != nullptr && gather_statuses(jni)) return;
  for (size_t i = 0; i < threads_.size(); ++i) statuses_[i] = status(jni, i);
}

}  // namespace jvmsight
