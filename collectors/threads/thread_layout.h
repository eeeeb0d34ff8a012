#pragma once
// The fields of java.lang.Thread the agent reads directly, resolved once:
// a JNI field read costs nanoseconds where GetThreadState looks the thread
// up in the JVM's thread list (O(threads)) and, on JDK 21+, waits out
// virtual-thread transitions. Agent thread only.
#include <jni.h>

namespace jvmsight {

struct ThreadLayout {
  jfieldID tid = nullptr;           // Thread.tid: Thread.getId()
  jfieldID holder = nullptr;        // Thread.holder (JDK 19+: Thread.FieldHolder), else null
  jfieldID status = nullptr;        // threadStatus, on the Thread or on its FieldHolder
  jfieldID park_blocker = nullptr;  // Thread.parkBlocker: what LockSupport.park waits for
  jfieldID daemon = nullptr;        // the daemon flag beside threadStatus; null if this JVM has none

  // False (and logged once, by the caller) when this JVM's Thread has
  // another layout.
  bool resolve(JNIEnv* jni);

  jlong id(JNIEnv* jni, jobject thread) const { return jni->GetLongField(thread, tid); }
  // The object that carries threadStatus: the Thread itself before JDK 19,
  // else a new local reference to its FieldHolder (null if unset).
  jobject status_holder(JNIEnv* jni, jobject thread) const;
  // java.lang.Thread's threadStatus: HotSpot keeps it in JVM TI state bits
  // (alive, runnable, blocked, waiting, sleeping, parked, in Object.wait),
  // but without in-native and suspended.
  jint status_of_holder(JNIEnv* jni, jobject status_holder) const { return jni->GetIntField(status_holder, status); }
  // Thread.isDaemon(), from the same holder; fixed once the thread started.
  bool daemon_of_holder(JNIEnv* jni, jobject status_holder) const {
    return daemon != nullptr && jni->GetBooleanField(status_holder, daemon) == JNI_TRUE;
  }
};

}  // namespace jvmsight
