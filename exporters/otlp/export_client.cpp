#include "exporters/otlp/export_client.h"

#include "metrics_service.pb.h"

namespace jvmsight::otlp {

const char* signal_name(Signal signal) {
  switch (signal) {
    case Signal::metrics:
      return "metrics";
    case Signal::traces:
      return "traces";
    case Signal::logs:
      return "logs";
  }
  return "?";
}

std::unique_ptr<ExportClient> make_client(Signal signal, const SignalConfig& config, std::string& error) {
  return config.protocol == Protocol::grpc ? make_grpc_client(signal, config, error) : make_http_client(config, error);
}

void read_partial_success(ExportResult& result) {
  const std::string& response_bytes = result.response;
  // The three Export*ServiceResponse messages have the same wire layout:
  // partial_success = 1 { int64 rejected_<items> = 1; string error_message = 2 },
  // so the metrics message reads any of them.
  opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceResponse parsed;
  if (response_bytes.empty() || !parsed.ParseFromString(response_bytes) || !parsed.has_partial_success()) return;
  result.rejected = parsed.partial_success().rejected_data_points();
  result.message = parsed.partial_success().error_message();
}

}  // namespace jvmsight::otlp
