#pragma once
// The one thread that talks to the JVM on behalf of everyone else: a JVM TI
// agent thread (RunAgentThread), hidden from ThreadMXBean and thread dumps'
// counts. It runs posted jobs and periodic tasks, each inside a JNI local
// frame, because it never returns to Java to free local references.
#include <jni.h>
#include <jvmti.h>

#include <chrono>
#include <functional>
#include <optional>
#include <vector>

#include "agent/job_queue.h"
#include "common/jvm_calls.h"

namespace jvmsight {

class AgentThread {
 public:
  using Setup = std::function<void(JNIEnv*)>;

  AgentThread() : queue_(16) {}

  // Before start(): a task run every `interval` on the agent thread, the
  // first time `first` after the thread starts (default: one interval).
  void every(std::chrono::milliseconds interval, std::function<void()> task,
             std::optional<std::chrono::milliseconds> first = std::nullopt);
  // Before start(): a task that says when it wants to run next (its answer,
  // from when it ran), the first time `first` after the thread starts.
  void paced(std::function<std::chrono::nanoseconds()> task, std::chrono::milliseconds first);

  // Live phase only. `setup` runs first on the new thread (to build what
  // needs its JNIEnv). False if the thread could not be started.
  bool start(jvmtiEnv* jvmti, JNIEnv* jni, Setup setup);

  // Runs fn on the agent thread, inside a local frame, and waits up to
  // timeout for what it returns. nullopt when full, timed out, or stopped.
  template <class Fn>
  auto call(Fn fn, std::chrono::milliseconds timeout) {
    return queue_.call(
        [this, fn = std::move(fn)]() mutable {
          LocalFrame frame(jni_, local_refs_per_job);
          return fn();
        },
        timeout);
  }

  void stop() { queue_.close(); }

 private:
  static void JNICALL run(jvmtiEnv* jvmti, JNIEnv* jni, void* self);
  void loop(JNIEnv* jni);

  struct Periodic {
    std::chrono::milliseconds first;
    std::chrono::milliseconds retry;                 // after the task threw
    std::function<std::chrono::nanoseconds()> task;  // returns the time until its next run
    JobQueue::Clock::time_point next;
  };

  static constexpr jint local_refs_per_job = 64;

  JobQueue queue_;
  JNIEnv* jni_ = nullptr;  // the agent thread's own, set before any job runs
  Setup setup_;
  std::vector<Periodic> periodic_;
};

}  // namespace jvmsight
