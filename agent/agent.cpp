#include "agent/agent.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

#include "agent/event_callbacks.h"
#include "agent/jdk_tool.h"
#include "agent/portfile.h"
#include "agent/version.h"
#include "collectors/locks/jvmti_lock_graph_source.h"
#include "collectors/locks/mx_bean_lock_graph_source.h"
#include "collectors/locks/tagged_lock_classes.h"
#include "collectors/threads/jvmti_thread_source.h"
#include "common/jvm_calls.h"
#include "common/log.h"
#include "exporters/http/landing_page.h"
#include "exporters/prometheus/metrics_endpoint.h"
#include "exporters/reports/report_endpoints.h"
#include "exporters/reports/thread_report.h"

namespace jvmsight {
namespace {

// A scrape waits this long for the agent thread, well inside Prometheus'
// default 10 s scrape timeout.
constexpr std::chrono::milliseconds snapshot_timeout{5000};
// A candidate cycle is looked at again this much later before it is reported.
constexpr std::chrono::milliseconds deadlock_confirm_delay{100};
// The ThreadMXBean fallback stops the world: never check more often than this.
constexpr std::chrono::milliseconds fallback_check_interval{2000};

// The running agent. Deliberately leaked: at JVM exit, the HTTP thread and
// the agent thread may still be running, and destroying what they use from a
// static destructor would crash a JVM that was exiting cleanly.
std::atomic<Agent*> running{nullptr};

// Drain GC pauses and notifications this often: the buffers stay small and
// recent pauses reach the histogram and span queue within a fraction of a second.
constexpr std::chrono::milliseconds gc_poll_interval{250};
// How often the agent thread asks whether work served from the background
// (lock queues, process CPU) is due again; BackgroundRefresh decides.
constexpr std::chrono::milliseconds background_refresh_tick{250};
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

}  // namespace

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

    auto* agent = new Agent(jvmti, std::move(parsed.options));
    agent->contention_.set_long_wait_ns(static_cast<uint64_t>(agent->options_.contended_span_min_ns));
    agent->capabilities_ = acquire_capabilities(jvmti);
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
  sinks.threads = &thread_roster_;
  sinks.virtual_threads = &virtual_threads_;
  sinks.gc_pauses = &gc_pauses_;
  sinks.contention = &contention_;
  sinks.tag_locks = capabilities_.tag_objects;
  sinks.vm_init = &Agent::on_vm_init;
  sinks.vm_death = &Agent::on_vm_death;
  return sinks;
}

void Agent::on_vm_init(JNIEnv* jni) {
  if (Agent* agent = running.load()) agent->start_live(jni);
}

void Agent::start_live(JNIEnv* jni) {
  // Read at VMInit: not all of these are set yet at OnLoad.
  jdk_version_ = system_property(jvmti_, "java.vm.version");
  vm_name_ = system_property(jvmti_, "java.vm.name");
  if (otlp::otlp_requested(options_.otlp_endpoint.c_str())) {
    std::string properties;
    for (const char* name : otlp::resource_properties)
      properties += std::string(name) + "=" + java_system_property(jni, name) + "\n";
    otlp_ = OtlpPlugin::load({options_.otlp_endpoint, options_.otlp_protocol, properties});
  }
  schedule_periodic_work();
  if (!agent_thread_.start(jvmti_, jni, [this](JNIEnv* agent_jni) { build_collectors(agent_jni); })) {
    log::error("cannot start the agent thread; the JVM continues without jvmsight");
    return;
  }
  start_http();
}

// The agent thread's background work. Each task checks that what it drives
// was built: a JVM can refuse some of it (e.g. no lock source).
void Agent::schedule_periodic_work() {
  if (otlp_ && otlp_->metrics_interval().count() > 0)
    agent_thread_.every(otlp_->metrics_interval(), [this] { otlp_->push(collect_now()); });
  if (otlp_ && otlp_->spans_interval().count() > 0)
    agent_thread_.every(otlp_->spans_interval(), [this] { push_spans(); });
  agent_thread_.every(gc_poll_interval, [this] {
    if (gc_) gc_->poll();
  });
  agent_thread_.every(background_refresh_tick, [this] {
    if (lock_queues_) lock_queues_->refresh();
    if (runtime_) runtime_->refresh();
  });
  agent_thread_.every(
      trim_interval, [] { malloc_trim(0); }, trim_first);
  if (events_.monitor) {
    agent_thread_.every(ContentionDutyCycle::slice, [this] {
      if (duty_cycle_) duty_cycle_->tick();
      if (wait_spans_) wait_spans_->drain();
    });
  }
  if (options_.deadlock_check_ms > 0) {
    auto interval = std::chrono::milliseconds(options_.deadlock_check_ms);
    if (!capabilities_.cheap_deadlock_check()) interval = std::max(interval, fallback_check_interval);
    // The first check at once: until one succeeds the deadlock gauges are
    // left out (never a 0 nobody measured).
    agent_thread_.every(
        interval,
        [this] {
          // While the contention events were off, a thread may have blocked
          // anew unseen: the check then re-reads the monitor edges.
          if (duty_cycle_ && duty_cycle_->blind_since_last_asked()) contention_.note_blocking();
          if (deadlock_detector_) deadlock_detector_->check();
        },
        std::chrono::milliseconds{0});
  }
}

void Agent::build_collectors(JNIEnv* jni) {
  thread_roster_.set_change_events(events_.thread_start_end);
  thread_source_ = std::make_unique<JvmtiThreadSource>(jvmti_, jni, thread_roster_, thread_mx_bean_, native_states());
  thread_states_ = std::make_unique<ThreadStateCollector>(*thread_source_, virtual_threads_);
  collectors_.add("threads", *thread_states_);
  std::optional<bool> notifications;
  if (options_.gc_notifications != Tristate::auto_) notifications = options_.gc_notifications == Tristate::on;
  gc_ =
      std::make_unique<GcCollector>(jni, gc_pauses_, spans_, options_.gc_span_min_ns, notifications, options_.gc_cause);
  gc_->poll();  // installs the GC notification listener before the first pause we time
  collectors_.add("gc", *gc_);
  if (options_.client_java_names != ClientJavaNames::off) {
    NameGenerations names{options_.client_java_names != ClientJavaNames::v1,
                          options_.client_java_names != ClientJavaNames::v0};
    runtime_ = std::make_unique<RuntimeCollector>(jni, names);
    collectors_.add("runtime", *runtime_);
  }
  build_lock_collectors(jni);
}

void Agent::build_lock_collectors(JNIEnv* jni) {
  thread_info_ = std::make_unique<ThreadInfoReader>(jni, thread_mx_bean_);
  deadlock_reports_ = std::make_unique<DeadlockReports>(*thread_info_);
  blocked_counts_ = std::make_unique<JvmBlockedCounts>(jni, thread_mx_bean_);
  if (capabilities_.cheap_deadlock_check()) {
    auto source = std::make_unique<JvmtiLockGraphSource>(jvmti_, jni, thread_roster_, capabilities_.monitor_info,
                                                         events_.monitor ? &contention_.blocked_anew() : nullptr,
                                                         blocked_counts_.get(), &virtual_threads_);
    if (source->ready()) {
      JvmtiLockGraphSource* jvmti_source = source.get();
      thread_info_->set_thread_lookup([jvmti_source](ThreadKey id) { return jvmti_source->virtual_thread(id); });
      lock_source_ = std::move(source);
    }
  }
  if (!lock_source_) {
    lock_source_ = std::make_unique<MxBeanLockGraphSource>(*thread_info_);
    if (options_.deadlock_check_ms > 0)
      log::info(
          "deadlock check: JVM TI contended-monitor capabilities are granted only at startup; using "
          "ThreadMXBean.findDeadlockedThreads every ",
          std::max<long long>(options_.deadlock_check_ms, fallback_check_interval.count()),
          " ms instead (stops the world briefly; no lock holder metrics)");
  }
  MonitorContentionCollector::TagResolver resolver;
  if (capabilities_.tag_objects)
    resolver = [this, jni](const std::vector<int32_t>& hashes) { return tagged_lock_classes(jvmti_, jni, hashes); };
  contention_collector_ = std::make_unique<MonitorContentionCollector>(
      contention_, static_cast<size_t>(options_.lock_classes), events_.monitor, std::move(resolver),
      [this] { return blocked_counts_->since_last(); });
  collectors_.add("contention", *contention_collector_);
  if (events_.monitor && options_.contention_sampling > 0) {
    duty_cycle_ = std::make_unique<ContentionDutyCycle>(
        contention_, *contention_collector_, ContentionSampler(static_cast<uint32_t>(options_.contention_sampling)),
        [this](bool on) { return set_contended_events(jvmti_, on); });
  }
  if (events_.monitor && options_.contended_span_min_ns > 0) {
    wait_spans_ = std::make_unique<ContendedWaitSpans>(jvmti_, jni, contention_.long_waits(), *contention_collector_,
                                                       thread_roster_, spans_);
  }
  lock_queues_ = std::make_unique<LockQueueCollector>(*lock_source_, static_cast<size_t>(options_.lock_classes));
  collectors_.add("lock_queue", *lock_queues_);
  auto on_deadlock = [this](const DeadlockCycle& cycle) {
    DeadlockReport report = deadlock_reports_->describe(cycle);
    std::string text = deadlocks_text({report});
    log::error("deadlock detected (", cycle.edges.size(), " threads", cycle.monitor_only() ? ", monitors only" : "",
               "):\n", text);
    if (otlp_ && otlp_->exports_deadlocks()) otlp_->push_deadlock(report);
  };
  deadlock_detector_ =
      std::make_unique<DeadlockDetector>(*lock_source_, on_deadlock, deadlock_confirm_delay,
                                         [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); });
  MonitorContentionCollector* contention = contention_collector_.get();
  deadlock_detector_->set_class_sink(
      [contention](const std::map<int32_t, std::string>& classes) { contention->learn_classes(classes); });
  collectors_.add("deadlocks", *deadlock_detector_);
}

void Agent::start_http() {
  std::vector<HttpRoute> routes;
  routes.push_back(metrics_endpoint(
      [this] { return agent_thread_.call<MetricFamilies>([this] { return collect_now(); }, snapshot_timeout); },
      options_.labels));
  routes.push_back(gc_endpoint([this] {
    return agent_thread_.call<GcReport>([this] { return gc_ ? gc_->report() : GcReport{}; }, snapshot_timeout);
  }));
  if (options_.details != Details::off) {
    routes.push_back(threads_endpoint([this] {
      return agent_thread_
          .call<std::optional<std::vector<ThreadRecord>>>(
              [this] { return thread_info_ ? thread_info_->dump_all() : std::nullopt; }, snapshot_timeout)
          .value_or(std::nullopt);
    }));
    routes.push_back(deadlocks_endpoint([this] {
      return agent_thread_.call<std::vector<DeadlockReport>>(
          [this] {
            if (!deadlock_detector_) return std::vector<DeadlockReport>{};
            return deadlock_reports_->describe(deadlock_detector_->current());
          },
          snapshot_timeout);
    }));
    // Names and stacks, and a stop-the-world dump each (docs/SECURITY.md):
    // local clients only by default; with details=on, remote clients get
    // at most one dump a second between them.
    auto remote_dumps = std::make_shared<DumpRateLimit>(std::chrono::seconds(1));
    for (size_t i = routes.size() - 2; i < routes.size(); ++i) {
      routes[i].local_only = options_.details == Details::local;
      routes[i].remote_rate_limit = remote_dumps;
    }
  }
  routes.push_back(landing_page(routes));
  HttpServerConfig config;
  config.host = options_.host;
  config.port = options_.port;
  config.tls.cert_file = options_.tls_cert_file;
  config.tls.key_file = options_.tls_key_file;
  config.tls.min_version = options_.tls_min_version;
  const bool https = config.tls.enabled();
  std::string error, warning;
  error = read_credentials(options_.basic_auth_file, options_.bearer_token_file, config.credentials, warning);
  if (!warning.empty()) log::warn(warning);
  if (error.empty()) server_ = HttpServer::start(std::move(config), std::move(routes), error);
  if (!server_) {
    log::error(error, "; metrics are not served, the JVM continues");
    // A portfile from an earlier run must not send scripts to a dead port.
    if (!options_.portfile.empty()) {
      std::string stale = remove_portfile(options_.portfile);
      if (!stale.empty()) log::warn(stale);
    }
    return;
  }
  if (!options_.portfile.empty()) {
    std::string failed = write_portfile(options_.portfile, server_->port());
    if (!failed.empty()) log::warn(failed, "; the server listens on port ", server_->port());
  }
  log::info("serving ", https ? "https://" : "http://", options_.host, ":", server_->port(), "/metrics");
}

bool Agent::native_states() const {
  if (options_.native_states != Tristate::auto_) return options_.native_states == Tristate::on;
  // JVM TI 21+ (0x3015....) makes GetThreadState wait out virtual-thread transitions.
  jint version = 0;
  if (jvmti_->GetVersionNumber(&version) != JVMTI_ERROR_NONE) return false;
  return ((version & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR) < 21;
}

MetricFamilies Agent::collect_now() {
  MetricFamilies out = collectors_.collect();
  // client_java_names=off: a JVM that runs client_java too gets no second
  // copy of its families, only what jvmsight alone has.
  if (options_.client_java_names == ClientJavaNames::off)
    out.erase(
        std::remove_if(out.begin(), out.end(), [](const MetricFamily& f) { return f.name.rfind("jvmsight_", 0) != 0; }),
        out.end());
  add_sample(add_family(out, "jvmsight_build_info", MetricType::gauge, "jvmsight build and the JVM it runs in"), 1,
             {{"version", version}, {"jdk", jdk_version_}, {"vm", vm_name_}});
  if (otlp_) otlp_->append_self_metrics(out);
  return out;
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
  // Never delay exit: pending and future scrapes get 503 at once, the agent
  // thread leaves its loop, and the HTTP server is not stopped (nothing to flush);
  // the process exit ends its threads.
  Agent* agent = running.load();
  if (agent == nullptr) return;
  const auto exit_started = std::chrono::steady_clock::now();
  // OTLP: one last collection and a flush, within otlp_exit_budget in all.
  if (agent->otlp_)
    agent->agent_thread_.call<bool>(
        [agent] {
          if (agent->otlp_->metrics_interval().count() > 0) agent->otlp_->push(agent->collect_now());
          if (agent->otlp_->spans_interval().count() > 0) agent->push_spans();
          return true;
        },
        otlp_exit_budget / 4);
  agent->agent_thread_.stop();
  if (agent->otlp_)
    agent->otlp_->shutdown(std::max(std::chrono::milliseconds(100),
                                    otlp_exit_budget - std::chrono::duration_cast<std::chrono::milliseconds>(
                                                           std::chrono::steady_clock::now() - exit_started)));
  log::debug("VM death: stopped");
}

}  // namespace jvmsight
