#include "agent/agent_thread.h"

#include <algorithm>
#include <exception>

#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {
namespace {
// With nothing periodic, wake now and then anyway; costs nothing measurable.
constexpr std::chrono::seconds idle_wakeup{1};
}  // namespace

void AgentThread::every(std::chrono::milliseconds interval, std::function<void()> task,
                        std::optional<std::chrono::milliseconds> first) {
  auto fixed = [interval, task = std::move(task)]() -> std::chrono::nanoseconds {
    task();
    return interval;
  };
  periodic_.push_back({first.value_or(interval), interval, std::move(fixed), {}});
}

void AgentThread::paced(std::function<std::chrono::nanoseconds()> task, std::chrono::milliseconds first) {
  periodic_.push_back({first, first, std::move(task), {}});
}

bool AgentThread::start(jvmtiEnv* jvmti, JNIEnv* jni, Setup setup) {
  setup_ = std::move(setup);
  jclass thread_class = jni->FindClass("java/lang/Thread");
  if (!jni_ok(jni, "FindClass(java.lang.Thread)") || thread_class == nullptr) return false;
  jmethodID ctor = jni->GetMethodID(thread_class, "<init>", "(Ljava/lang/String;)V");
  if (!jni_ok(jni, "Thread(String) constructor") || ctor == nullptr) return false;
  jstring name = jni->NewStringUTF("jvmsight");
  jobject thread = name ? jni->NewObject(thread_class, ctor, name) : nullptr;
  if (!jni_ok(jni, "new Thread(\"jvmsight\")") || thread == nullptr) return false;
  bool ok = jvmti_ok(jvmti, jvmti->RunAgentThread(thread, &AgentThread::run, this, JVMTI_THREAD_NORM_PRIORITY),
                     "RunAgentThread");
  jni->DeleteLocalRef(name);
  jni->DeleteLocalRef(thread);
  jni->DeleteLocalRef(thread_class);
  return ok;
}

void JNICALL AgentThread::run(jvmtiEnv*, JNIEnv* jni, void* self) {
  // A JNICALL boundary: nothing may escape into the JVM.
  try {
    static_cast<AgentThread*>(self)->loop(jni);
  } catch (const std::exception& e) {
    log::error("agent thread stopped: ", e.what());
  } catch (...) {
    log::error("agent thread stopped");
  }
}

void AgentThread::loop(JNIEnv* jni) {
  jni_ = jni;
  {
    LocalFrame frame(jni, local_refs_per_job);
    if (setup_) setup_(jni);
  }
  const auto started = JobQueue::Clock::now();
  for (auto& p : periodic_) p.next = started + p.first;
  for (;;) {
    // Due tasks before jobs: a task due at start (the first deadlock check)
    // runs before the first scrape, which may have queued during setup.
    auto now = JobQueue::Clock::now();
    for (auto& p : periodic_) {
      if (now < p.next) continue;
      LocalFrame frame(jni, local_refs_per_job);
      std::chrono::nanoseconds after = p.retry;
      try {
        after = p.task();
      } catch (const std::exception& e) {
        log::warn("periodic agent task failed: ", e.what());
      }
      p.next = now + std::chrono::duration_cast<JobQueue::Clock::duration>(after);
    }
    auto until = JobQueue::Clock::now() + idle_wakeup;
    for (const auto& p : periodic_) until = std::min(until, p.next);
    if (!queue_.run_until(until)) return;  // closed: the VM is going away
  }
}

}  // namespace jvmsight
