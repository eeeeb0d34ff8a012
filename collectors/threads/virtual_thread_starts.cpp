#include "collectors/threads/virtual_thread_starts.h"

#include "common/jvm_calls.h"

namespace jvmsight {

bool VirtualThreadStarts::open(JNIEnv* jni, const ThreadRoster& roster) {
  LocalFrame frame(jni, 4);
  jclass thread = jni->FindClass("java/lang/Thread");
  if (thread == nullptr) {
    jni->ExceptionClear();
    return false;
  }
  // JNI calls a private method without asking: no module or access check.
  jmethodID offset = jni->GetStaticMethodID(thread, "getNextThreadIdOffset", "()J");
  if (offset == nullptr) {
    jni->ExceptionClear();
    return false;
  }
  const jlong address = jni->CallStaticLongMethod(thread, offset);
  if (jni->ExceptionCheck() || address == 0) {
    jni->ExceptionClear();
    return false;
  }
  roster_ = &roster;
  platform_at_open_ = roster.platform_starts();
  next_id_ = reinterpret_cast<const volatile int64_t*>(static_cast<intptr_t>(address));
  ids_at_open_ = *next_id_;
  return true;
}

std::optional<uint64_t> VirtualThreadStarts::started() {
  if (next_id_ == nullptr) return std::nullopt;
  last_ = count(*next_id_, ids_at_open_, roster_->platform_starts(), platform_at_open_, last_);
  return last_;
}

uint64_t VirtualThreadStarts::count(int64_t ids, int64_t ids_at_open, uint64_t platform_starts,
                                    uint64_t platform_at_open, uint64_t last) {
  const uint64_t issued = ids > ids_at_open ? static_cast<uint64_t>(ids - ids_at_open) : 0;
  const uint64_t platform = platform_starts - platform_at_open;
  const uint64_t now = issued > platform ? issued - platform : 0;
  return now > last ? now : last;
}

}  // namespace jvmsight
