#pragma once
#include <jni.h>
#include <jvmti.h>

#include <string>
#include <vector>

#include "collectors/lock_graph_source.h"

namespace jvmsight {

// The wait-for graph from JVM TI without stopping the world: GetAllThreads
// and GetThreadState pick out threads blocked on a monitor or parked;
// GetCurrentContendedMonitor (a handshake with that thread only) names the
// monitor, Thread.parkBlocker names the j.u.c. lock and its
// exclusiveOwnerThread the owner. Monitor owners come from GetOwnedMonitorInfo
// of the waiting threads (handshakes with already-blocked threads), and in a
// full scan from GetObjectMonitorUsage for the rest. Agent thread only.
// Needs can_get_current_contended_monitor and can_get_owned_monitor_info,
// which HotSpot grants only at startup (OnLoad).
class JvmtiLockGraphSource : public LockGraphSource {
 public:
  // Resolves the JNI ids it needs; check ready() afterwards.
  JvmtiLockGraphSource(jvmtiEnv* jvmti, JNIEnv* jni, bool monitor_usage);
  bool ready() const { return ready_; }

  std::optional<LockScan> scan(ScanDepth depth) override;
  bool stops_the_world() const override { return false; }

 private:
  struct Waiter;
  ThreadKey key_of(jthread t);
  std::string thread_name(jthread t);
  std::string class_name_of(jobject o);
  int32_t hash_of(jobject o);

  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  bool monitor_usage_;  // can_get_monitor_info: owners that are not themselves waiting
  bool ready_ = false;
  jfieldID tid_ = nullptr;
  jfieldID park_blocker_ = nullptr;
  jclass aos_ = nullptr;  // global ref: java.util.concurrent.locks.AbstractOwnableSynchronizer
  jfieldID exclusive_owner_ = nullptr;
  std::vector<std::pair<jclass, std::string>> class_names_;  // global refs, few distinct lock classes
};

}  // namespace jvmsight
