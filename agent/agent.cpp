#include "agent/agent.h"

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <string>

#include "agent/jdk_tool.h"
#include "agent/other_agents.h"
#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {
namespace {

// The running agent. Deliberately leaked: at JVM exit, the HTTP thread and
// the agent thread may still be running, and destroying what they use from a
// static destructor would crash a JVM that was exiting cleanly.
std::atomic<Agent*> running{nullptr};

// The agent's start-up (class loading and JIT of what it calls, the first
// deadlock check) leaves freed memory in malloc arenas that glibc keeps
// resident: several MB on JDK 25. Handed back once start-up is over, then
// now and then (malloc_trim locks each arena briefly; no Java thread waits
// on it for long).
constexpr std::chrono::milliseconds trim_first{5'000};
constexpr std::chrono::milliseconds trim_interval{60'000};
// At JVM exit, the last OTLP collection plus flush take at most about this long.
constexpr std::chrono::milliseconds otlp_exit_budget{1000};

std::string system_property(jvmtiEnv* jvmti, const char* name) {
  char* value = nullptr;
  if (jvmti->GetSystemProperty(name, &value) != JVMTI_ERROR_NONE || value == nullptr) return "";
  std::string result(value);
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(value));
  return result;
}

// pinning=auto leaves the breakpoints to another native agent named in the
// JVM's options (agent/other_agents.h): JVM TI gives them to one agent only.
bool want_breakpoints(Tristate pinning, bool live) {
  if (pinning != Tristate::auto_ || live) return pinning != Tristate::off;
  const std::string other = other_native_agent(jvm_options_text());
  if (other.empty()) return true;
  log::info("virtual-thread pinning is not counted: ", other,
            " may need JVM TI breakpoints, which go to one agent only (pinning=on takes them first)");
  return false;
}

// ended_thread_cpu=auto, resolved once at load. On JDK 21 a ThreadEnd event
// enabled for any thread makes the VM create and free its JVM TI state for
// every virtual thread, to which it posts nothing: Skynet (a million short
// virtual threads) 25-40% slower. JDK 22 creates that state lazily
// (JDK-8308614); on 25 the event costs nothing measurable (BENCHMARKS.md).
Tristate resolve_ended_thread_cpu(jvmtiEnv* jvmti, Tristate asked) {
  if (asked != Tristate::auto_) return asked;
  if (jvmti_major(jvmti) != 21) return Tristate::on;
  log::info(
      "the thread pools' CPU leaves out what a thread used between the last reading and its end: on JDK 21 ",
      "that needs ThreadEnd events, which slow every virtual thread's start and end (ended_thread_cpu=on keeps it)");
  return Tristate::off;
}

}  // namespace

Agent::Agent(jvmtiEnv* jvmti, Options options)
    : jvmti_(jvmti),
      options_(std::move(options)),
      threads_(jvmti, options_),
      gc_(options_),
      runtime_(jvmti, options_),
      contention_(jvmti, options_, capabilities_, events_),
      deadlocks_(jvmti, options_, capabilities_),
      metrics_(options_, collectors_) {}

jint Agent::load(JavaVM* vm, const char* raw_options, bool live) noexcept {
  try {
    if (Agent* agent = running.load()) {
      log::info("already running in this JVM (port ", agent->server_ ? agent->server_->port() : 0,
                "); this load is ignored");
      return JNI_OK;
    }
    jvmtiEnv* jvmti = nullptr;
    if (vm->GetEnv(reinterpret_cast<void**>(&jvmti), JVMTI_VERSION_1_2) != JNI_OK || jvmti == nullptr) {
      log::error("this JVM offers no JVM TI 1.2 environment; the JVM continues without jvmsight");
      return live ? JNI_ERR : JNI_OK;
    }
    if (!live && is_jdk_tool(system_property(jvmti, "sun.java.command"))) {
      jvmti->DisposeEnvironment();
      return JNI_OK;  // jcmd, jps, javac... inherit JAVA_TOOL_OPTIONS: stay silent
    }
    ParsedOptions parsed = parse_options(raw_options ? raw_options : "");
    if (!parsed.ok()) {
      log::error(parsed.error, "; the JVM continues without jvmsight");
      jvmti->DisposeEnvironment();
      // At startup an error code would abort the JVM; on attach it tells jcmd.
      return live ? JNI_ERR : JNI_OK;
    }
    log::set_level(parsed.options.log_level);

    if (parsed.options.thread_pools > 0)
      parsed.options.ended_thread_cpu = resolve_ended_thread_cpu(jvmti, parsed.options.ended_thread_cpu);
    auto* agent = new Agent(jvmti, std::move(parsed.options));
    agent->capabilities_ = acquire_capabilities(jvmti, want_breakpoints(agent->options_.pinning, live));
    agent->contention_.open_profile_env(vm);
    if (!install_event_callbacks(jvmti, agent->event_sinks(), agent->capabilities_, live, agent->options_.contention,
                                 agent->events_)) {
      log::error("cannot register JVM TI events; the JVM continues without jvmsight");
      return live ? JNI_ERR : JNI_OK;
    }
    running.store(agent);
    if (live) {
      JNIEnv* jni = nullptr;
      if (vm->GetEnv(reinterpret_cast<void**>(&jni), JNI_VERSION_1_8) != JNI_OK) {
        log::error("attach: no JNI environment; the JVM continues without jvmsight");
        return JNI_ERR;
      }
      agent->start_live(jni);
    }
    return JNI_OK;
  } catch (const std::exception& e) {
    log::error("load failed: ", e.what(), "; the JVM continues without jvmsight");
  } catch (...) {
    log::error("load failed; the JVM continues without jvmsight");
  }
  return live ? JNI_ERR : JNI_OK;
}

EventSinks Agent::event_sinks() {
  EventSinks sinks;
  sinks.threads = &threads_.roster();
  if (options_.thread_pools > 0 && options_.ended_thread_cpu == Tristate::on)
    sinks.ended_threads = &threads_.ended_threads();
  sinks.gc_pauses = &gc_.pauses();
  sinks.contention = &contention_.recorder();
  sinks.pinning = &threads_.pinning();
  sinks.tag_locks = capabilities_.tag_objects;
  sinks.monitor_stacks = contention_.monitor_stacks();
  sinks.profile_env = contention_.profile_env();
  sinks.vm_init = &Agent::on_vm_init;
  sinks.vm_death = &Agent::on_vm_death;
  return sinks;
}

void Agent::on_vm_init(JNIEnv* jni) {
  if (Agent* agent = running.load()) agent->start_live(jni);
}

void Agent::start_live(JNIEnv* jni) {
  // Read at VMInit: not all of these are set yet at OnLoad.
  std::string jdk_version = system_property(jvmti_, "java.vm.version");
  std::string vm_name = system_property(jvmti_, "java.vm.name");
  if (otlp::otlp_requested(options_.otlp_endpoint.c_str())) {
    // The resource's facts (resource.h): System.getProperty, since
    // java.runtime.* are set by the class library, not the VM.
    std::string properties;
    for (const char* name : otlp::resource_properties)
      properties += std::string(name) + "=" + java_system_property(jni, name) + "\n";
    otlp_ = OtlpPlugin::load({options_.otlp_endpoint, options_.otlp_protocol, properties});
  }
  metrics_.set_vm(jdk_version, vm_name, otlp_.get());
  deadlocks_.add_sink(stderr_deadlocks_);
  if (otlp_ && otlp_->exports_deadlocks()) deadlocks_.add_sink(*otlp_);
  schedule_periodic_work();
  if (!agent_thread_.start(jvmti_, jni, [this](JNIEnv* agent_jni) { build_signals(agent_jni); })) {
    log::error("cannot start the agent thread; the JVM continues without jvmsight");
    return;
  }
  server_ = serve_http(options_, agent_routes(options_, answers_));
}

// The agent thread's background work. Each task checks that what it drives
// was built: a JVM can refuse some of it (e.g. no lock source).
void Agent::schedule_periodic_work() {
  if (otlp_ && otlp_->metrics_interval().count() > 0)
    agent_thread_.every(otlp_->metrics_interval(), [this] { otlp_->push(metrics_.collect()); });
  if (otlp_ && otlp_->spans_interval().count() > 0)
    agent_thread_.every(otlp_->spans_interval(), [this] { push_spans(); });
  gc_.schedule(agent_thread_);
  threads_.schedule(agent_thread_);
  runtime_.schedule(agent_thread_);
  agent_thread_.every(
      trim_interval, [] { malloc_trim(0); }, trim_first);
  contention_.schedule(agent_thread_);
  deadlocks_.schedule(agent_thread_, contention_);
}

// In the order a scrape lists the families.
void Agent::build_signals(JNIEnv* jni) {
  threads_.build(jni, events_.thread_start, capabilities_, collectors_);
  gc_.build(jni, spans_, collectors_);
  runtime_.build(jni, collectors_);
  contention_.build(jni, threads_, spans_, collectors_);
  deadlocks_.build(jni, threads_, contention_, collectors_);
  // What two signals share: the lock scan's Java pass also reads every
  // thread's status word for the thread-state walk, in one call instead of
  // a JNI read per thread (without it, the roster reads them one by one).
  threads_.roster().set_status_gather(deadlocks_.status_gather());
  // And its scan of parked threads feeds the block profile.
  contention_.build_profiles(jni, threads_, deadlocks_.parked_scan(), collectors_);
}

void Agent::push_spans() {
  constexpr size_t max_spans_per_request = 512;  // the SDKs' OTEL_BSP_MAX_EXPORT_BATCH_SIZE
  for (;;) {
    std::vector<SpanRecord> batch = spans_.take(max_spans_per_request);
    if (batch.empty()) return;
    otlp_->push_spans(batch);
  }
}

void Agent::on_vm_death() {
  if (Agent* agent = running.load()) agent->stop();
}

// Never delay exit: pending and future scrapes get 503 at once, the agent
// thread leaves its loop, and the HTTP server is not stopped (nothing to
// flush); the process exit ends its threads.
void Agent::stop() {
  const auto exit_started = std::chrono::steady_clock::now();
  // OTLP: one last collection and a flush, within otlp_exit_budget in all.
  if (otlp_)
    agent_thread_.call(
        [this] {
          if (otlp_->metrics_interval().count() > 0) otlp_->push(metrics_.collect());
          if (otlp_->spans_interval().count() > 0) push_spans();
          return true;
        },
        otlp_exit_budget / 4);
  agent_thread_.stop();
  if (otlp_)
    otlp_->shutdown(std::max(std::chrono::milliseconds(100),
                             otlp_exit_budget - std::chrono::duration_cast<std::chrono::milliseconds>(
                                                    std::chrono::steady_clock::now() - exit_started)));
  log::debug("VM death: stopped");
}

}  // namespace jvmsight
