#include "collectors/threads/thread_state_collector.h"

#include <string>

namespace jvmsight {

void ThreadStateCollector::collect(MetricFamilies& out) {
  if (auto c = source_.counts()) {
    add_sample(add_family(out, "jvm_threads_current"), c->live);
    add_sample(add_family(out, "jvm_threads_daemon"), c->daemon);
    add_sample(add_family(out, "jvm_threads_peak"), c->peak);
    add_sample(add_family(out, "jvm_threads_started_total"), c->started);
  }

  ThreadStateCounts counts;
  if (source_.count_states(counts)) {
    if (counts.daemon_known) {
      auto& by_daemon = add_family(out, "jvmsight_threads_state_by_daemon");
      for (size_t i = 0; i < java_thread_state_count; ++i) {
        auto s = static_cast<JavaThreadState>(i);
        const std::string state(name_of(s));
        add_sample(by_daemon, counts.daemon_of(s), {{"state", state}, {"daemon", "true"}});
        add_sample(by_daemon, counts.of(s) - counts.daemon_of(s), {{"state", state}, {"daemon", "false"}});
      }
    }
    auto& states = add_family(out, "jvm_threads_state");
    for (size_t i = 0; i < java_thread_state_count; ++i) {
      auto s = static_cast<JavaThreadState>(i);
      add_sample(states, counts.of(s), {{"state", std::string(name_of(s))}});
    }
    // client_java counts thread ids <= 0 as UNKNOWN; the JVM never gives
    // one, and every thread the roster lists has a state.
    add_sample(states, 0, {{"state", "UNKNOWN"}});
    auto& subs = add_family(out, "jvmsight_threads_substate");
    for (size_t i = 0; i < thread_sub_state_count; ++i) {
      auto s = static_cast<ThreadSubState>(i);
      bool needs_jvmti = s == ThreadSubState::native || s == ThreadSubState::suspended;
      if (needs_jvmti && !counts.native_and_suspended_known) continue;  // absent, not a false zero
      add_sample(subs, counts.of(s), {{"substate", std::string(name_of(s))}});
    }
  }

  add_virtual_threads(out);
}

void ThreadStateCollector::add_virtual_threads(MetricFamilies& out) {
  const std::optional<uint64_t> live = source_.live_virtual_threads();
  add_sample(add_family(out, "jvmsight_virtual_threads_supported"), live ? 1 : 0);
  if (live) add_sample(add_family(out, "jvmsight_virtual_threads_live"), *live);
  if (const std::optional<uint64_t> started = source_.virtual_threads_started())
    add_sample(add_family(out, "jvmsight_virtual_threads_started_total"), *started);
}

}  // namespace jvmsight
