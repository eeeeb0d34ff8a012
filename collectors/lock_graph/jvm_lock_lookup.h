#pragma once
// What a lock-graph scan asks the JVM about one object or thread: a
// thread's id and name, a lock's identity hash and class, a parked
// thread's ownable lock and that lock's owner. Class names are cached (few
// distinct lock classes). Agent thread only.
#include <jni.h>
#include <jvmti.h>

#include <string>
#include <utility>
#include <vector>

#include "collectors/threads/thread_roster.h"
#include "model/thread_record.h"

namespace jvmsight {

class JvmLockLookup {
 public:
  // A bound on distinct classes remembered, so a JVM that parks on endless
  // generated classes cannot grow the cache.
  static constexpr size_t max_cached_classes = 256;

  // roster: its ThreadLayout names Thread's fields (tid, park blocker).
  JvmLockLookup(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster) : jvmti_(jvmti), jni_(jni), roster_(roster) {}
  // Resolves AbstractOwnableSynchronizer; false if the JVM has none to offer.
  bool resolve();

  ThreadKey key_of(jthread t);
  // The lock a parked thread waits for when its park blocker is an
  // AbstractOwnableSynchronizer, with that lock's exclusive owner (null if
  // none); null for no or any other blocker.
  jobject ownable_blocker(jthread t, jthread& owner);
  // An AbstractOwnableSynchronizer's exclusive owner, or null.
  jthread owner_of(jobject synchronizer);
  std::string thread_name(jthread t);
  std::string class_name_of(jobject o);
  int32_t hash_of(jobject o);

 private:
  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  ThreadRoster& roster_;
  jclass aos_ = nullptr;  // global ref: java.util.concurrent.locks.AbstractOwnableSynchronizer
  jfieldID exclusive_owner_ = nullptr;
  std::vector<std::pair<jclass, std::string>> class_names_;  // global refs
};

}  // namespace jvmsight
