// OTLP/gRPC: MetricsService.Export over a grpc++ channel. Retryable codes per
// the OTLP specification; RESOURCE_EXHAUSTED only with RetryInfo (the server
// says it can recover), as the spec asks.
#include <grpcpp/grpcpp.h>

#include <fstream>
#include <sstream>

#include "exporters/otlp/metrics_client.h"
#include "exporters/otlp/retry_info.h"
#include "metrics_service.grpc.pb.h"

namespace jvmsight::otlp {
namespace {

namespace collector = opentelemetry::proto::collector::metrics::v1;

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

class GrpcMetricsClient : public MetricsClient {
 public:
  GrpcMetricsClient(std::shared_ptr<grpc::Channel> channel, SignalConfig config)
      : stub_(collector::MetricsService::NewStub(channel)), channel_(std::move(channel)), config_(std::move(config)) {}

  ExportResult export_metrics(const collector::ExportMetricsServiceRequest& request,
                              std::chrono::milliseconds timeout) override {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    for (const auto& [key, value] : config_.headers) context.AddMetadata(key, value);
    if (config_.compression == Compression::gzip) context.set_compression_algorithm(GRPC_COMPRESS_GZIP);
    collector::ExportMetricsServiceResponse response;
    grpc::Status status = stub_->Export(&context, request, &response);

    ExportResult result;
    if (status.ok()) {
      result.kind = ExportResult::Kind::ok;
      if (response.has_partial_success()) {
        result.rejected_points = response.partial_success().rejected_data_points();
        result.message = response.partial_success().error_message();
      }
      return result;
    }
    result.message = "gRPC " + std::to_string(status.error_code()) + " " + status.error_message();
    auto delay = retry_delay_from_status_details(status.error_details());
    if (delay) result.retry_after = *delay;
    switch (status.error_code()) {
      case grpc::StatusCode::CANCELLED:
      case grpc::StatusCode::DEADLINE_EXCEEDED:
      case grpc::StatusCode::ABORTED:
      case grpc::StatusCode::OUT_OF_RANGE:
      case grpc::StatusCode::UNAVAILABLE:
      case grpc::StatusCode::DATA_LOSS:
        result.kind = ExportResult::Kind::retryable;
        break;
      case grpc::StatusCode::RESOURCE_EXHAUSTED:
        result.kind = delay ? ExportResult::Kind::retryable : ExportResult::Kind::failed;
        break;
      default:
        result.kind = ExportResult::Kind::failed;
    }
    return result;
  }

 private:
  std::unique_ptr<collector::MetricsService::Stub> stub_;
  std::shared_ptr<grpc::Channel> channel_;
  SignalConfig config_;
};

}  // namespace

std::unique_ptr<MetricsClient> make_grpc_metrics_client(const SignalConfig& config, std::string& error) {
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  if (config.tls) {
    grpc::SslCredentialsOptions ssl;
    if (!config.certificate.empty() && !read_file(config.certificate, ssl.pem_root_certs)) {
      error = "cannot read the OTLP certificate " + config.certificate;
      return nullptr;
    }
    if (!config.client_key.empty() && !read_file(config.client_key, ssl.pem_private_key)) {
      error = "cannot read the OTLP client key " + config.client_key;
      return nullptr;
    }
    if (!config.client_certificate.empty() && !read_file(config.client_certificate, ssl.pem_cert_chain)) {
      error = "cannot read the OTLP client certificate " + config.client_certificate;
      return nullptr;
    }
    credentials = grpc::SslCredentials(ssl);
  } else {
    credentials = grpc::InsecureChannelCredentials();
  }
  grpc::ChannelArguments args;
  // The export worker retries with its own backoff; gRPC's would double it.
  args.SetInt(GRPC_ARG_ENABLE_RETRIES, 0);
  // Reconnect soon after a collector restart, but never hammer a dead one.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 500);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 5000);
  args.SetString(GRPC_ARG_PRIMARY_USER_AGENT_STRING, "jvmsight-otlp");
  auto channel = grpc::CreateCustomChannel(config.endpoint, credentials, args);
  if (!channel) {
    error = "cannot create a gRPC channel to " + config.endpoint;
    return nullptr;
  }
  return std::make_unique<GrpcMetricsClient>(std::move(channel), config);
}

}  // namespace jvmsight::otlp
