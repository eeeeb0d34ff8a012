#include "collectors/threads/thread_info_reader.h"

#include <algorithm>
#include <tuple>

#include "common/jvm_calls.h"

namespace jvmsight {

bool ThreadInfoReader::resolve() {
  if (tried_) return ready_;
  tried_ = true;
  if (mx_.bean(jni_) == nullptr) return false;
  LocalFrame frame(jni_, 16);
  jclass mx = jni_->FindClass("java/lang/management/ThreadMXBean");
  jclass ti = jni_->FindClass("java/lang/management/ThreadInfo");
  jclass li = jni_->FindClass("java/lang/management/LockInfo");
  jclass mi = jni_->FindClass("java/lang/management/MonitorInfo");
  jclass ste = jni_->FindClass("java/lang/StackTraceElement");
  jclass en = jni_->FindClass("java/lang/Enum");
  jclass th = jni_->FindClass("java/lang/Thread");
  if (!jni_ok(jni_, "ThreadInfo classes") || !mx || !ti || !li || !mi || !ste || !en || !th) return false;
  find_deadlocked_ = jni_->GetMethodID(mx, "findDeadlockedThreads", "()[J");
  find_monitor_deadlocked_ = jni_->GetMethodID(mx, "findMonitorDeadlockedThreads", "()[J");
  get_infos_ = jni_->GetMethodID(mx, "getThreadInfo", "([JZZ)[Ljava/lang/management/ThreadInfo;");
  dump_all_ = jni_->GetMethodID(mx, "dumpAllThreads", "(ZZ)[Ljava/lang/management/ThreadInfo;");
  ti_id_ = jni_->GetMethodID(ti, "getThreadId", "()J");
  ti_name_ = jni_->GetMethodID(ti, "getThreadName", "()Ljava/lang/String;");
  ti_state_ = jni_->GetMethodID(ti, "getThreadState", "()Ljava/lang/Thread$State;");
  ti_lock_ = jni_->GetMethodID(ti, "getLockInfo", "()Ljava/lang/management/LockInfo;");
  ti_owner_id_ = jni_->GetMethodID(ti, "getLockOwnerId", "()J");
  ti_owner_name_ = jni_->GetMethodID(ti, "getLockOwnerName", "()Ljava/lang/String;");
  ti_stack_ = jni_->GetMethodID(ti, "getStackTrace", "()[Ljava/lang/StackTraceElement;");
  ti_monitors_ = jni_->GetMethodID(ti, "getLockedMonitors", "()[Ljava/lang/management/MonitorInfo;");
  ti_synchronizers_ = jni_->GetMethodID(ti, "getLockedSynchronizers", "()[Ljava/lang/management/LockInfo;");
  ti_native_ = jni_->GetMethodID(ti, "isInNative", "()Z");
  ti_suspended_ = jni_->GetMethodID(ti, "isSuspended", "()Z");
  li_class_ = jni_->GetMethodID(li, "getClassName", "()Ljava/lang/String;");
  li_hash_ = jni_->GetMethodID(li, "getIdentityHashCode", "()I");
  mi_depth_ = jni_->GetMethodID(mi, "getLockedStackDepth", "()I");
  ste_class_ = jni_->GetMethodID(ste, "getClassName", "()Ljava/lang/String;");
  ste_method_ = jni_->GetMethodID(ste, "getMethodName", "()Ljava/lang/String;");
  ste_file_ = jni_->GetMethodID(ste, "getFileName", "()Ljava/lang/String;");
  ste_line_ = jni_->GetMethodID(ste, "getLineNumber", "()I");
  ste_native_ = jni_->GetMethodID(ste, "isNativeMethod", "()Z");
  enum_name_ = jni_->GetMethodID(en, "name", "()Ljava/lang/String;");
  th_name_ = jni_->GetMethodID(th, "getName", "()Ljava/lang/String;");
  th_state_ = jni_->GetMethodID(th, "getState", "()Ljava/lang/Thread$State;");
  th_stack_ = jni_->GetMethodID(th, "getStackTrace", "()[Ljava/lang/StackTraceElement;");
  th_daemon_ = jni_->GetMethodID(th, "isDaemon", "()Z");
  ready_ = jni_ok(jni_, "ThreadInfo methods");
  // Java 9+: JDK 8's ThreadInfo has neither; its threads tell (flags_by_id).
  ti_daemon_ = optional_method(ti, "isDaemon", "()Z");
  ti_priority_ = optional_method(ti, "getPriority", "()I");
  if (ti_daemon_ == nullptr || ti_priority_ == nullptr) {
    th_all_ = jni_->GetStaticMethodID(th, "getThreads", "()[Ljava/lang/Thread;");  // JDK 8: private, JNI may call it
    th_id_ = jni_->GetMethodID(th, "getId", "()J");
    th_priority_ = jni_->GetMethodID(th, "getPriority", "()I");
    if (!jni_ok(jni_, "Thread.getThreads")) th_all_ = nullptr;
  }
  return ready_;
}

jmethodID ThreadInfoReader::optional_method(jclass c, const char* name, const char* signature) {
  jmethodID m = jni_->GetMethodID(c, name, signature);
  if (jni_->ExceptionCheck()) jni_->ExceptionClear();  // NoSuchMethodError: an older JDK
  return m;
}

std::unordered_map<jlong, std::pair<bool, int>> ThreadInfoReader::flags_by_id() {
  std::unordered_map<jlong, std::pair<bool, int>> out;
  if (th_all_ == nullptr) return out;
  LocalFrame frame(jni_, 8);
  jclass th = jni_->FindClass("java/lang/Thread");
  auto all = th ? static_cast<jobjectArray>(jni_->CallStaticObjectMethod(th, th_all_)) : nullptr;
  if (!jni_ok(jni_, "Thread.getThreads()") || all == nullptr) return out;
  const jsize n = jni_->GetArrayLength(all);
  for (jsize i = 0; i < n; ++i) {
    jobject t = jni_->GetObjectArrayElement(all, i);
    if (t == nullptr) continue;
    out[jni_->CallLongMethod(t, th_id_)] = {jni_->CallBooleanMethod(t, th_daemon_) == JNI_TRUE,
                                            jni_->CallIntMethod(t, th_priority_)};
    jni_->DeleteLocalRef(t);
  }
  jni_ok(jni_, "Thread getters");
  return out;
}

std::string ThreadInfoReader::string_of(jobject s) {
  if (s == nullptr) return "";
  const char* chars = jni_->GetStringUTFChars(static_cast<jstring>(s), nullptr);
  std::string out = chars ? chars : "";
  if (chars) jni_->ReleaseStringUTFChars(static_cast<jstring>(s), chars);
  jni_->DeleteLocalRef(s);
  return out;
}

std::optional<LockRef> ThreadInfoReader::lock_of(jobject lock_info) {
  if (lock_info == nullptr) return std::nullopt;
  LockRef r;
  r.class_name = string_of(jni_->CallObjectMethod(lock_info, li_class_));
  r.identity_hash = jni_->CallIntMethod(lock_info, li_hash_);
  return r;
}

ThreadRecord ThreadInfoReader::convert_one(jobject info) {
  LocalFrame frame(jni_, 32);
  ThreadRecord t;
  t.id = jni_->CallLongMethod(info, ti_id_);
  t.name = string_of(jni_->CallObjectMethod(info, ti_name_));
  jobject state = jni_->CallObjectMethod(info, ti_state_);
  t.state = state ? string_of(jni_->CallObjectMethod(state, enum_name_)) : "";
  t.lock = lock_of(jni_->CallObjectMethod(info, ti_lock_));
  jlong owner = jni_->CallLongMethod(info, ti_owner_id_);
  if (owner >= 0) {
    t.lock_owner_id = owner;
    t.lock_owner_name = string_of(jni_->CallObjectMethod(info, ti_owner_name_));
  }
  if (ti_daemon_ != nullptr) t.daemon = jni_->CallBooleanMethod(info, ti_daemon_);
  if (ti_priority_ != nullptr) t.priority = jni_->CallIntMethod(info, ti_priority_);
  t.in_native = jni_->CallBooleanMethod(info, ti_native_);
  t.suspended = jni_->CallBooleanMethod(info, ti_suspended_);
  t.stack = frames_of(static_cast<jobjectArray>(jni_->CallObjectMethod(info, ti_stack_)));
  auto monitors = static_cast<jobjectArray>(jni_->CallObjectMethod(info, ti_monitors_));
  jsize n = monitors ? jni_->GetArrayLength(monitors) : 0;
  for (jsize i = 0; i < n; ++i) {
    jobject m = jni_->GetObjectArrayElement(monitors, i);
    jint depth = jni_->CallIntMethod(m, mi_depth_);
    auto ref = lock_of(m);
    jni_->DeleteLocalRef(m);
    if (ref && depth >= 0 && depth < static_cast<jint>(t.stack.size())) t.stack[depth].locked.push_back(*ref);
  }
  auto synchronizers = static_cast<jobjectArray>(jni_->CallObjectMethod(info, ti_synchronizers_));
  n = synchronizers ? jni_->GetArrayLength(synchronizers) : 0;
  for (jsize i = 0; i < n; ++i) {
    jobject s = jni_->GetObjectArrayElement(synchronizers, i);
    if (auto ref = lock_of(s)) t.owned_synchronizers.push_back(*ref);
    jni_->DeleteLocalRef(s);
  }
  jni_ok(jni_, "ThreadInfo getters");
  return t;
}

std::vector<FrameRecord> ThreadInfoReader::frames_of(jobjectArray stack) {
  std::vector<FrameRecord> out;
  jsize frames = stack ? jni_->GetArrayLength(stack) : 0;
  for (jsize i = 0; i < frames; ++i) {
    jobject e = jni_->GetObjectArrayElement(stack, i);
    FrameRecord f;
    f.class_name = string_of(jni_->CallObjectMethod(e, ste_class_));
    f.method = string_of(jni_->CallObjectMethod(e, ste_method_));
    f.file = string_of(jni_->CallObjectMethod(e, ste_file_));
    f.line = jni_->CallIntMethod(e, ste_line_);
    f.native = jni_->CallBooleanMethod(e, ste_native_);
    jni_->DeleteLocalRef(e);
    out.push_back(std::move(f));
  }
  return out;
}

ThreadRecord ThreadInfoReader::record_of(jthread thread, ThreadKey id) {
  // What java.lang.Thread itself tells (no lock details: the deadlock
  // report's cycle section has them).
  LocalFrame frame(jni_, 32);
  ThreadRecord t;
  t.id = id;
  t.name = string_of(jni_->CallObjectMethod(thread, th_name_));
  jobject state = jni_->CallObjectMethod(thread, th_state_);
  t.state = state ? string_of(jni_->CallObjectMethod(state, enum_name_)) : "";
  t.daemon = jni_->CallBooleanMethod(thread, th_daemon_);
  t.stack = frames_of(static_cast<jobjectArray>(jni_->CallObjectMethod(thread, th_stack_)));
  jni_ok(jni_, "Thread getters");
  return t;
}

std::optional<std::vector<ThreadRecord>> ThreadInfoReader::convert(jobjectArray infos) {
  if (infos == nullptr) return std::nullopt;
  std::vector<ThreadRecord> out;
  jsize n = jni_->GetArrayLength(infos);
  out.reserve(static_cast<size_t>(n));
  for (jsize i = 0; i < n; ++i) {
    jobject info = jni_->GetObjectArrayElement(infos, i);
    if (info == nullptr) continue;  // ended since the ids were taken
    out.push_back(convert_one(info));
    jni_->DeleteLocalRef(info);
  }
  if (ti_daemon_ == nullptr || ti_priority_ == nullptr) {
    const auto flags = flags_by_id();
    for (auto& t : out)
      if (auto it = flags.find(t.id); it != flags.end()) std::tie(t.daemon, t.priority) = it->second;
  }
  return out;
}

std::optional<std::vector<ThreadRecord>> ThreadInfoReader::dump_all() {
  if (!resolve()) return std::nullopt;
  LocalFrame frame(jni_, 16);
  auto infos = static_cast<jobjectArray>(jni_->CallObjectMethod(mx_.bean(jni_), dump_all_, JNI_TRUE, JNI_FALSE));
  if (!jni_ok(jni_, "ThreadMXBean.dumpAllThreads")) return std::nullopt;
  return convert(infos);
}

std::optional<std::vector<ThreadRecord>> ThreadInfoReader::threads(const std::vector<ThreadKey>& ids) {
  if (!resolve()) return std::nullopt;
  if (ids.empty()) return std::vector<ThreadRecord>{};
  LocalFrame frame(jni_, 16);
  jlongArray array = jni_->NewLongArray(static_cast<jsize>(ids.size()));
  if (array == nullptr || !jni_ok(jni_, "new long[]")) return std::nullopt;
  std::vector<jlong> raw(ids.begin(), ids.end());
  jni_->SetLongArrayRegion(array, 0, static_cast<jsize>(raw.size()), raw.data());
  auto infos =
      static_cast<jobjectArray>(jni_->CallObjectMethod(mx_.bean(jni_), get_infos_, array, JNI_TRUE, JNI_FALSE));
  if (!jni_ok(jni_, "ThreadMXBean.getThreadInfo")) return std::nullopt;
  auto out = convert(infos);
  if (!out || !lookup_) return out;
  // ThreadMXBean leaves out virtual threads: ask the lookup for those.
  std::vector<ThreadRecord> ordered;
  for (ThreadKey id : ids) {
    auto known = std::find_if(out->begin(), out->end(), [&](const ThreadRecord& r) { return r.id == id; });
    if (known != out->end()) {
      ordered.push_back(std::move(*known));
    } else if (jthread t = lookup_(id)) {
      ordered.push_back(record_of(t, id));
      jni_->DeleteLocalRef(t);
    }
  }
  return ordered;
}

std::optional<std::vector<ThreadKey>> ThreadInfoReader::find_deadlocked(bool monitor_only) {
  if (!resolve()) return std::nullopt;
  LocalFrame frame(jni_, 4);
  auto ids = static_cast<jlongArray>(
      jni_->CallObjectMethod(mx_.bean(jni_), monitor_only ? find_monitor_deadlocked_ : find_deadlocked_));
  if (!jni_ok(jni_, "ThreadMXBean.findDeadlockedThreads")) return std::nullopt;
  std::vector<ThreadKey> out;
  if (ids == nullptr) return out;
  jsize n = jni_->GetArrayLength(ids);
  std::vector<jlong> raw(static_cast<size_t>(n));
  jni_->GetLongArrayRegion(ids, 0, n, raw.data());
  out.assign(raw.begin(), raw.end());
  return out;
}

}  // namespace jvmsight
