// libjvmsight-otlp.so's entry points (otlp_plugin.h): configuration from the
// environment, one exporter per process, and the C boundary no exception
// crosses.
#include "exporters/otlp/otlp_plugin.h"

#include <limits.h>
#include <unistd.h>

#include <chrono>
#include <exception>

#include "common/log.h"
#include "exporters/otlp/export_worker.h"
#include "exporters/otlp/metric_conversion.h"
#include "exporters/otlp/otlp_config.h"
#include "exporters/otlp/resource.h"

#define JVMSIGHT_OTLP_EXPORT extern "C" __attribute__((visibility("default")))

using namespace jvmsight;
using namespace jvmsight::otlp;

struct jvmsight_otlp {
  OtlpConfig config;
  opentelemetry::proto::resource::v1::Resource resource;
  std::unique_ptr<MetricConverter> converter;  // used on the worker thread only
  std::unique_ptr<ExportWorker> worker;
};

namespace {

int64_t unix_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string text(const char* s) { return s ? s : ""; }

std::string host_name() {
  char buf[HOST_NAME_MAX + 1] = {};
  return gethostname(buf, sizeof buf - 1) == 0 ? buf : "";
}

jvmsight_otlp* start(const jvmsight_otlp_host& host, int64_t& interval_ms) {
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
  if (!parsed.config.metrics.endpoint_set) {
    log::warn("OTLP: no usable endpoint configured; not exporting");
    return nullptr;
  }

  auto exporter = std::make_unique<jvmsight_otlp>();
  exporter->config = parsed.config;
  const SignalConfig& metrics = exporter->config.metrics;
  std::string resource_problem;
  KeyValues attributes = parse_resource_attributes(exporter->config.resource_attributes, resource_problem);
  if (!resource_problem.empty()) log::warn("OTLP: ", resource_problem);
  ProcessFacts facts{getpid(),           host_name(),           text(host.java_command),
                     text(host.vm_name), text(host.vm_version), text(host.agent_version)};
  build_resource(facts, attributes, exporter->config.service_name, exporter->resource);

  std::string error;
  std::unique_ptr<MetricsClient> client = metrics.protocol == Protocol::grpc ? make_grpc_metrics_client(metrics, error)
                                                                             : make_http_metrics_client(metrics, error);
  if (!client) {
    log::error("OTLP: ", error, "; not exporting");
    return nullptr;
  }
  exporter->converter =
      std::make_unique<MetricConverter>(exporter->config.temporality, unix_now_ns(), text(host.agent_version));
  WorkerSettings settings;
  settings.export_timeout = exporter->config.export_timeout;
  settings.request_timeout = metrics.timeout;
  jvmsight_otlp* raw = exporter.get();
  exporter->worker = std::make_unique<ExportWorker>(
      std::move(client),
      [raw](const MetricFamilies& families, int64_t now, ExportWorker::Request& request) {
        return raw->converter->convert(families, now, raw->resource, request);
      },
      settings);
  interval_ms = exporter->config.export_interval.count();
  log::info("OTLP: pushing metrics every ", interval_ms, " ms to ", metrics.endpoint, " over ",
            metrics.protocol == Protocol::grpc ? "gRPC" : "HTTP/protobuf", metrics.tls ? " with TLS" : "",
            metrics.compression == Compression::gzip ? ", gzip" : "");
  return exporter.release();  // lives until the process ends (see shutdown)
}

void append_self_metrics(const WorkerStats& s, MetricFamilies& out) {
  auto& exports = add_family(out, "jvmsight_otlp_exports_total", MetricType::counter,
                             "OTLP metric exports by result: sent (accepted, maybe partly) or failed (given up)");
  add_sample(exports, static_cast<double>(s.sent), {{"result", "sent"}});
  add_sample(exports, static_cast<double>(s.failed), {{"result", "failed"}});
  add_sample(add_family(out, "jvmsight_otlp_dropped_total", MetricType::counter,
                        "OTLP metric batches dropped unsent because the export queue was full"),
             static_cast<double>(s.dropped));
  add_sample(add_family(out, "jvmsight_otlp_retries_total", MetricType::counter, "OTLP export attempts retried"),
             static_cast<double>(s.retries));
  add_sample(add_family(out, "jvmsight_otlp_rejected_points_total", MetricType::counter,
                        "Data points the collector rejected in partial successes"),
             static_cast<double>(s.rejected_points));
  add_sample(add_family(out, "jvmsight_otlp_queue_length", MetricType::gauge, "OTLP metric batches waiting"),
             static_cast<double>(s.queued));
  add_sample(add_family(out, "jvmsight_otlp_last_success_timestamp_seconds", MetricType::gauge,
                        "Unix time of the last accepted OTLP export (0: none yet)"),
             static_cast<double>(s.last_success_unix_ns) / 1e9);
}

}  // namespace

JVMSIGHT_OTLP_EXPORT uint32_t jvmsight_otlp_abi_version(void) { return JVMSIGHT_OTLP_ABI_VERSION; }

JVMSIGHT_OTLP_EXPORT jvmsight_otlp* jvmsight_otlp_start(const jvmsight_otlp_host* host, int64_t* export_interval_ms) {
  try {
    if (host == nullptr || export_interval_ms == nullptr || host->abi_version != JVMSIGHT_OTLP_ABI_VERSION) {
      log::error("OTLP: the agent and libjvmsight-otlp.so come from different builds; not exporting");
      return nullptr;
    }
    return start(*host, *export_interval_ms);
  } catch (const std::exception& e) {
    log::error("OTLP: cannot start: ", e.what());
  } catch (...) {
    log::error("OTLP: cannot start");
  }
  return nullptr;
}

JVMSIGHT_OTLP_EXPORT void jvmsight_otlp_push_metrics(jvmsight_otlp* exporter, const void* metric_families) {
  if (exporter == nullptr || metric_families == nullptr) return;
  try {
    exporter->worker->push(*static_cast<const MetricFamilies*>(metric_families), unix_now_ns());
  } catch (const std::exception& e) {
    log::error("OTLP: cannot queue metrics: ", e.what());
  } catch (...) {
  }
}

JVMSIGHT_OTLP_EXPORT void jvmsight_otlp_append_self_metrics(jvmsight_otlp* exporter, void* metric_families) {
  if (exporter == nullptr || metric_families == nullptr) return;
  try {
    append_self_metrics(exporter->worker->stats(), *static_cast<MetricFamilies*>(metric_families));
  } catch (...) {
  }
}

// The exporter is not freed: a worker that outlived the deadline may still
// use it until the process exits.
JVMSIGHT_OTLP_EXPORT void jvmsight_otlp_shutdown(jvmsight_otlp* exporter, int64_t deadline_ms) {
  if (exporter == nullptr) return;
  try {
    if (!exporter->worker->shutdown(std::chrono::milliseconds(deadline_ms)))
      log::warn("OTLP: final export did not finish within ", deadline_ms, " ms; exiting without it");
  } catch (...) {
  }
}
