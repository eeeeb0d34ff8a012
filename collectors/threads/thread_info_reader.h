#pragma once
// java.lang.management.ThreadInfo through JNI on the agent thread: thread
// dumps for /threads and deadlock reports, and findDeadlockedThreads for
// the attach fallback. ThreadMXBean dumps stop the world (a VM operation):
// fine on demand or once per new deadlock, not for a frequent check.
#include <jni.h>

#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "collectors/threads/thread_mx_bean.h"
#include "model/thread_record.h"

namespace jvmsight {

class ThreadInfoReader {
 public:
  ThreadInfoReader(JNIEnv* jni, ThreadMxBean& mx) : jni_(jni), mx_(mx) {}

  // Every live platform thread, with locked monitors (not j.u.c. owners: that
  // needs a heap walk). nullopt on failure. max_depth 0: whole stacks.
  std::optional<std::vector<ThreadRecord>> dump_all();
  // These threads (ended ones left out), in the given order.
  std::optional<std::vector<ThreadRecord>> threads(const std::vector<ThreadKey>& ids);
  // Where threads() finds threads ThreadMXBean does not know (virtual
  // threads): a local reference to the Thread with this id, or null.
  void set_thread_lookup(std::function<jthread(ThreadKey)> lookup) { lookup_ = std::move(lookup); }
  // ThreadMXBean.findDeadlockedThreads (monitor_only: findMonitorDeadlockedThreads).
  std::optional<std::vector<ThreadKey>> find_deadlocked(bool monitor_only);

 private:
  bool resolve();
  std::optional<std::vector<ThreadRecord>> convert(jobjectArray infos);
  ThreadRecord convert_one(jobject info);
  std::vector<FrameRecord> frames_of(jobjectArray stack);
  ThreadRecord record_of(jthread thread, ThreadKey id);
  std::optional<LockRef> lock_of(jobject lock_info);
  std::string string_of(jobject s);
  // A method an older JDK may lack: null then, and no exception left pending.
  jmethodID optional_method(jclass c, const char* name, const char* signature);
  // Thread id -> (daemon, priority) of every live thread: JDK 8's ThreadInfo lacks both.
  std::unordered_map<jlong, std::pair<bool, int>> flags_by_id();

  JNIEnv* jni_;
  ThreadMxBean& mx_;
  bool tried_ = false, ready_ = false;
  jmethodID find_deadlocked_ = nullptr, find_monitor_deadlocked_ = nullptr, get_infos_ = nullptr, dump_all_ = nullptr;
  jmethodID ti_id_ = nullptr, ti_name_ = nullptr, ti_state_ = nullptr, ti_lock_ = nullptr, ti_owner_id_ = nullptr,
            ti_owner_name_ = nullptr, ti_stack_ = nullptr, ti_monitors_ = nullptr, ti_synchronizers_ = nullptr,
            ti_daemon_ = nullptr, ti_priority_ = nullptr, ti_native_ = nullptr, ti_suspended_ = nullptr;
  jmethodID li_class_ = nullptr, li_hash_ = nullptr, mi_depth_ = nullptr;
  jmethodID ste_class_ = nullptr, ste_method_ = nullptr, ste_file_ = nullptr, ste_line_ = nullptr,
            ste_native_ = nullptr;
  jmethodID enum_name_ = nullptr;
  jmethodID th_name_ = nullptr, th_state_ = nullptr, th_stack_ = nullptr, th_daemon_ = nullptr;
  jmethodID th_all_ = nullptr, th_id_ = nullptr, th_priority_ = nullptr;  // JDK 8 only
  std::function<jthread(ThreadKey)> lookup_;
};

}  // namespace jvmsight
