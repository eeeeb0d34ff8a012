// libjvmsight-otlp.so's entry points (otlp_plugin.h): configuration from the
// environment, one exporter per process with a worker per exported signal,
// and the C boundary no exception crosses.
#include "exporters/otlp/otlp_plugin.h"

#include <limits.h>
#include <unistd.h>

#include <chrono>
#include <exception>
#include <fstream>
#include <sstream>

#include "common/log.h"
#include "exporters/otlp/deadlock_log.h"
#include "exporters/otlp/export_worker.h"
#include "exporters/otlp/lock_warning_log.h"
#include "exporters/otlp/metric_conversion.h"
#include "exporters/otlp/otlp_abi.h"
#include "exporters/otlp/otlp_config.h"
#include "exporters/otlp/resource.h"
#include "exporters/otlp/span_conversion.h"
#include "exporters/reports/lock_order_report.h"
#include "exporters/reports/thread_report.h"
#include "model/metric_catalogue.h"

#define JVMSIGHT_OTLP_EXPORT extern "C" __attribute__((visibility("default")))

using namespace jvmsight;
using namespace jvmsight::otlp;

struct jvmsight_otlp {
  OtlpConfig config;
  opentelemetry::proto::resource::v1::Resource resource;
  std::string version;
  std::unique_ptr<MetricConverter> converter;  // the metrics worker's thread only
  SpanIds span_ids;                            // the traces worker's thread only
  std::unique_ptr<ExportWorker> metrics;       // each null when its signal is not exported
  std::unique_ptr<ExportWorker> traces;
  std::unique_ptr<ExportWorker> logs;
};

namespace {

// The OTel SDKs' defaults: OTEL_BSP_MAX_QUEUE_SIZE and _MAX_EXPORT_BATCH_SIZE
// for spans, OTEL_BLRP_MAX_QUEUE_SIZE for log records.
constexpr size_t metric_batches_queued = 8;
constexpr size_t spans_queued = 2048;
constexpr size_t log_records_queued = 2048;

int64_t unix_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string text(const char* s) { return s ? s : ""; }

// A small /proc file, whole ("" when unreadable).
std::string file_text(const char* path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string host_name() {
  char buf[HOST_NAME_MAX + 1] = {};
  return gethostname(buf, sizeof buf - 1) == 0 ? buf : "";
}

class MetricsBatch : public ExportBatch {
 public:
  MetricsBatch(jvmsight_otlp& exporter, MetricFamilies families)
      : exporter_(exporter), families_(std::move(families)), unix_ns_(unix_now_ns()) {}
  size_t items() const override { return 1; }
  bool encode(std::string& out) override {
    opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceRequest request;
    return exporter_.converter->convert(families_, unix_ns_, exporter_.resource, request) > 0 &&
           request.SerializeToString(&out);
  }

 private:
  jvmsight_otlp& exporter_;
  MetricFamilies families_;
  int64_t unix_ns_;
};

class SpanBatch : public ExportBatch {
 public:
  SpanBatch(jvmsight_otlp& exporter, std::vector<SpanRecord> spans) : exporter_(exporter), spans_(std::move(spans)) {}
  size_t items() const override { return spans_.size(); }
  bool encode(std::string& out) override {
    opentelemetry::proto::collector::trace::v1::ExportTraceServiceRequest request;
    return convert_spans(spans_, exporter_.resource, exporter_.version, exporter_.span_ids, request) > 0 &&
           request.SerializeToString(&out);
  }

 private:
  jvmsight_otlp& exporter_;
  std::vector<SpanRecord> spans_;
};

// Log records of one kind (a deadlock, a lock warning): the body is
// rendered on the logs worker's thread, as /deadlocks and stderr show it.
template <class Record>
class LogBatch : public ExportBatch {
 public:
  using Request = opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest;
  using Render = std::string (*)(const Record&);
  using Convert = size_t (*)(const std::vector<Record>&, const opentelemetry::proto::resource::v1::Resource&,
                             const std::string&, Request&);
  LogBatch(jvmsight_otlp& exporter, Record record, Render render, Convert convert)
      : exporter_(exporter), render_(render), convert_(convert) {
    records_.push_back(std::move(record));
  }
  size_t items() const override { return records_.size(); }
  bool encode(std::string& out) override {
    for (Record& r : records_) r.text = render_(r);
    Request request;
    return convert_(records_, exporter_.resource, exporter_.version, request) > 0 && request.SerializeToString(&out);
  }

 private:
  jvmsight_otlp& exporter_;
  Render render_;
  Convert convert_;
  std::vector<Record> records_;
};

std::string deadlock_body(const DeadlockRecord& r) { return deadlocks_text({r.report}); }

std::string warning_body(const LockWarningRecord& r) {
  return r.kind == LockWarningRecord::Kind::inversion ? inversion_text(r.inversion) : stuck_text(r.stuck);
}

void push_warning(jvmsight_otlp& exporter, LockWarningRecord record) {
  record.unix_ns = unix_now_ns();
  exporter.logs->push(
      std::make_unique<LogBatch<LockWarningRecord>>(exporter, std::move(record), warning_body, convert_lock_warnings));
}

// A worker for one signal, or null (logged) when its client cannot be made.
std::unique_ptr<ExportWorker> start_worker(Signal signal, const SignalConfig& sc, const OtlpConfig& config,
                                           size_t capacity) {
  std::string error;
  std::unique_ptr<ExportClient> client = make_client(signal, sc, error);
  if (!client) {
    log::error("OTLP: ", error, "; not exporting ", signal_name(signal));
    return nullptr;
  }
  WorkerSettings settings;
  settings.capacity = capacity;
  settings.export_timeout = config.export_timeout;
  settings.request_timeout = sc.timeout;
  log::info("OTLP: pushing ", signal_name(signal), " to ", sc.endpoint, " over ",
            sc.protocol == Protocol::grpc ? "gRPC" : "HTTP/protobuf", sc.tls ? " with TLS" : "",
            sc.compression == Compression::gzip ? ", gzip" : "");
  return std::make_unique<ExportWorker>(signal, std::move(client), settings);
}

jvmsight_otlp* start(const jvmsight_otlp_host& host, jvmsight_otlp_schedule& schedule) {
  log::set_level(static_cast<log::Level>(host.log_level));
  ConfigOverrides overrides;
  if (host.endpoint) overrides.endpoint = host.endpoint;
  if (host.protocol) overrides.protocol = host.protocol;
  ParsedConfig parsed = parse_config([](const char* name) { return std::getenv(name); }, overrides);
  for (const auto& problem : parsed.problems) log::warn("OTLP: ", problem);
  if (parsed.config.sdk_disabled) {
    log::info("OTLP: OTEL_SDK_DISABLED=true; not exporting");
    return nullptr;
  }
  const OtlpConfig& c = parsed.config;
  if (!c.metrics.endpoint_set && !c.traces.endpoint_set && !c.logs.endpoint_set) {
    log::warn("OTLP: no signal to export (no usable endpoint, or OTEL_*_EXPORTER=none); not exporting");
    return nullptr;
  }

  auto exporter = std::make_unique<jvmsight_otlp>();
  exporter->config = c;
  exporter->version = text(host.agent_version);
  std::string resource_problem;
  KeyValues attributes = parse_resource_attributes(c.resource_attributes, resource_problem);
  if (!resource_problem.empty()) log::warn("OTLP: ", resource_problem);
  ProcessFacts facts{getpid(),
                     host_name(),
                     parse_java_properties(text(host.java_properties)),
                     container_id_from(file_text("/proc/self/cgroup"), file_text("/proc/self/mountinfo")),
                     random_uuid(),
                     exporter->version};
  build_resource(facts, attributes, c.service_name, exporter->resource);
  exporter->converter =
      std::make_unique<MetricConverter>(c.temporality, unix_now_ns(), exporter->version, c.histogram_aggregation);

  if (c.metrics.endpoint_set) exporter->metrics = start_worker(Signal::metrics, c.metrics, c, metric_batches_queued);
  if (c.traces.endpoint_set) exporter->traces = start_worker(Signal::traces, c.traces, c, spans_queued);
  if (c.logs.endpoint_set) exporter->logs = start_worker(Signal::logs, c.logs, c, log_records_queued);
  if (!exporter->metrics && !exporter->traces && !exporter->logs) return nullptr;
  schedule.metrics_interval_ms = exporter->metrics ? c.export_interval.count() : 0;
  schedule.spans_interval_ms = exporter->traces ? c.span_delay.count() : 0;
  schedule.deadlocks = exporter->logs ? 1 : 0;
  return exporter.release();  // lives until the process ends (see shutdown)
}

void append_self_metrics(const jvmsight_otlp& exporter, MetricFamilies& out) {
  auto& exports = add_family(out, "jvmsight_otlp_exports_total");
  auto& dropped = add_family(out, "jvmsight_otlp_dropped_total");
  auto& retries = add_family(out, "jvmsight_otlp_retries_total");
  auto& rejected = add_family(out, "jvmsight_otlp_rejected_total");
  auto& queued = add_family(out, "jvmsight_otlp_queue_length");
  auto& last = add_family(out, "jvmsight_otlp_last_success_timestamp_seconds");
  for (const ExportWorker* w : {exporter.metrics.get(), exporter.traces.get(), exporter.logs.get()}) {
    if (w == nullptr) continue;
    const WorkerStats s = w->stats();
    const std::string signal = signal_name(w->signal());
    add_sample(exports, static_cast<double>(s.sent), {{"signal", signal}, {"result", "sent"}});
    add_sample(exports, static_cast<double>(s.failed), {{"signal", signal}, {"result", "failed"}});
    add_sample(dropped, static_cast<double>(s.dropped), {{"signal", signal}});
    add_sample(retries, static_cast<double>(s.retries), {{"signal", signal}});
    add_sample(rejected, static_cast<double>(s.rejected), {{"signal", signal}});
    add_sample(queued, static_cast<double>(s.queued), {{"signal", signal}});
    add_sample(last, static_cast<double>(s.last_success_unix_ns) / 1e9, {{"signal", signal}});
  }
}

// Runs `f`; no exception leaves the plugin.
template <class F>
void guarded(const char* what, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    log::error("OTLP: cannot ", what, ": ", e.what());
  } catch (...) {
    log::error("OTLP: cannot ", what);
  }
}

}  // namespace

JVMSIGHT_OTLP_EXPORT uint32_t jvmsight_otlp_abi_version(void) { return JVMSIGHT_OTLP_ABI_VERSION; }

JVMSIGHT_OTLP_EXPORT jvmsight_otlp* jvmsight_otlp_start(const jvmsight_otlp_host* host,
                                                        jvmsight_otlp_schedule* schedule) {
  jvmsight_otlp* exporter = nullptr;
  if (host == nullptr || schedule == nullptr || host->abi_version != JVMSIGHT_OTLP_ABI_VERSION) {
    log::error("OTLP: the agent and libjvmsight-otlp.so come from different builds; not exporting");
    return nullptr;
  }
  guarded("start", [&] { exporter = start(*host, *schedule); });
  return exporter;
}

JVMSIGHT_OTLP_EXPORT void jvmsight_otlp_push_metrics(jvmsight_otlp* exporter, const void* metric_families) {
  if (exporter == nullptr || !exporter->metrics || metric_families == nullptr) return;
  guarded("queue metrics", [&] {
    exporter->metrics->push(
        std::make_unique<MetricsBatch>(*exporter, *static_cast<const MetricFamilies*>(metric_families)));
  });
}

JVMSIGHT_OTLP_EXPORT void jvmsight_otlp_push_spans(jvmsight_otlp* exporter, const void* spans) {
  if (exporter == nullptr || !exporter->traces || spans == nullptr) return;
  guarded("queue spans", [&] {
    exporter->traces->push(std::make_unique<SpanBatch>(*exporter, *static_cast<const std::vector<SpanRecord>*>(spans)));
  });
}

JVMSIGHT_OTLP_EXPORT void jvmsight_otlp_push_deadlock(jvmsight_otlp* exporter, const void* report) {
  if (exporter == nullptr || !exporter->logs || report == nullptr) return;
  guarded("queue a deadlock record", [&] {
    exporter->logs->push(std::make_unique<LogBatch<DeadlockRecord>>(
        *exporter, DeadlockRecord{*static_cast<const DeadlockReport*>(report), "", unix_now_ns()}, deadlock_body,
        convert_deadlocks));
  });
}

JVMSIGHT_OTLP_EXPORT void jvmsight_otlp_push_inversion(jvmsight_otlp* exporter, const void* inversion) {
  if (exporter == nullptr || !exporter->logs || inversion == nullptr) return;
  guarded("queue a lock-order inversion record", [&] {
    LockWarningRecord r;
    r.inversion = *static_cast<const LockOrderInversion*>(inversion);
    push_warning(*exporter, std::move(r));
  });
}

JVMSIGHT_OTLP_EXPORT void jvmsight_otlp_push_stuck(jvmsight_otlp* exporter, const void* stuck) {
  if (exporter == nullptr || !exporter->logs || stuck == nullptr) return;
  guarded("queue a stuck thread record", [&] {
    LockWarningRecord r;
    r.kind = LockWarningRecord::Kind::stuck;
    r.stuck = *static_cast<const StuckThreadReport*>(stuck);
    push_warning(*exporter, std::move(r));
  });
}

JVMSIGHT_OTLP_EXPORT void jvmsight_otlp_append_self_metrics(jvmsight_otlp* exporter, void* metric_families) {
  if (exporter == nullptr || metric_families == nullptr) return;
  guarded("count exports", [&] { append_self_metrics(*exporter, *static_cast<MetricFamilies*>(metric_families)); });
}

// The exporter is not freed: a worker that outlived the deadline may still
// use it until the process exits. The workers flush side by side, each
// within the same deadline.
JVMSIGHT_OTLP_EXPORT void jvmsight_otlp_shutdown(jvmsight_otlp* exporter, int64_t deadline_ms) {
  if (exporter == nullptr) return;
  guarded("flush", [&] {
    const std::initializer_list<ExportWorker*> workers{exporter->metrics.get(), exporter->traces.get(),
                                                       exporter->logs.get()};
    for (ExportWorker* w : workers)
      if (w) w->stop(std::chrono::milliseconds(deadline_ms));
    for (ExportWorker* w : workers)
      if (w && !w->wait())
        log::warn("OTLP: final ", signal_name(w->signal()), " export did not finish within ", deadline_ms,
                  " ms; exiting without it");
  });
}
