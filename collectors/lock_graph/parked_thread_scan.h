#pragma once
// What the block profile (collectors/contention/block_sampler.h) asks of the
// lock scan's Java pass: the threads parked on a java.util.concurrent
// synchronizer (an AbstractQueuedSynchronizer or AbstractQueuedLongSynchronizer
// blocker; not a Condition), each with a token for the wait it is in, and the
// stacks of virtual threads, which JVM TI cannot take without
// can_support_virtual_threads. Agent thread only.
#include <jni.h>

#include <optional>
#include <string>
#include <vector>

namespace jvmsight {

struct ParkedThreads {
  // Platform: into the Thread[] scanned; virtual: into the scan's own list of
  // the last parked_virtual, for virtual_stacks.
  std::vector<jint> index;
  std::vector<jlong> id;  // Thread.getId(), never reused in a JVM's life
  // The wait's queue node's identity hash: the same while the thread stays
  // in one acquisition, another in its next; 0 when the node was not found.
  std::vector<jint> token;
  std::vector<jint> lock;   // the synchronizer's identity hash
  bool none_alive = false;  // virtual: the walk met no virtual thread at all
};

class ParkedThreadScan {
 public:
  virtual ~ParkedThreadScan() = default;
  // Platform threads among the first count of threads; nullopt if the call failed.
  virtual std::optional<ParkedThreads> parked(jobjectArray threads, jsize count) = 0;
  // JDK 21+: at most max virtual threads (none before 21); nullopt if the call failed.
  virtual std::optional<ParkedThreads> parked_virtual(jint max) = 0;
  // The stacks of some of the last parked_virtual's threads (by index),
  // from Java (Thread.getStackTrace), leaf first, at most depth frames: a
  // line per frame, "Class.method\tFile.java\tline"; "" for a thread that
  // is no longer parked on a synchronizer.
  virtual std::vector<std::string> virtual_stacks(const std::vector<jint>& index, jint depth) = 0;
};

}  // namespace jvmsight
