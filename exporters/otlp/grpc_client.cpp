// OTLP/gRPC: the Export method of MetricsService, TraceService or
// LogsService, called through a generic stub with the request already
// serialized (the transport never needs the signal's message types).
// Retryable codes per the OTLP specification; RESOURCE_EXHAUSTED only with
// RetryInfo (the server says it can recover), as the spec asks.
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <fstream>
#include <sstream>

#include "exporters/otlp/export_client.h"
#include "exporters/otlp/retry_info.h"
#include "exporters/otlp/transport_factory.h"

namespace jvmsight::otlp {
namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

const char* export_method(Signal signal) {
  switch (signal) {
    case Signal::metrics:
      return "/opentelemetry.proto.collector.metrics.v1.MetricsService/Export";
    case Signal::traces:
      return "/opentelemetry.proto.collector.trace.v1.TraceService/Export";
    case Signal::logs:
      return "/opentelemetry.proto.collector.logs.v1.LogsService/Export";
  }
  return "";
}

ExportResult result_of(const grpc::Status& status, const grpc::ByteBuffer& response) {
  ExportResult result;
  if (status.ok()) {
    result.kind = ExportResult::Kind::ok;
    std::vector<grpc::Slice> slices;
    if (response.Valid() && response.Dump(&slices).ok())
      for (const auto& s : slices) result.response.append(reinterpret_cast<const char*>(s.begin()), s.size());
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

// One call at a time (the worker's thread), on the client's own completion
// queue: no callback executor threads, and the deadline bounds every wait.
class GrpcClient : public ExportClient {
 public:
  GrpcClient(std::shared_ptr<grpc::Channel> channel, Signal signal, SignalConfig config)
      : stub_(std::move(channel)), method_(export_method(signal)), config_(std::move(config)) {}
  ~GrpcClient() override {
    queue_.Shutdown();
    void* tag;
    bool ok;
    while (queue_.Next(&tag, &ok)) {
    }
  }

  ExportResult export_request(const std::string& request_bytes, std::chrono::milliseconds timeout) override {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + timeout);
    for (const auto& [key, value] : config_.headers) context.AddMetadata(key, value);
    if (config_.compression == Compression::gzip) context.set_compression_algorithm(GRPC_COMPRESS_GZIP);
    grpc::Slice slice(request_bytes);
    grpc::ByteBuffer request(&slice, 1);
    grpc::ByteBuffer response;
    grpc::Status status;
    auto call = stub_.PrepareUnaryCall(&context, method_, request, &queue_);
    call->StartCall();
    int done_tag = 0;
    call->Finish(&response, &status, &done_tag);
    void* tag = nullptr;
    bool ok = false;
    if (!queue_.Next(&tag, &ok) || tag != &done_tag) {
      ExportResult broken;
      broken.message = "gRPC completion queue failed";
      return broken;
    }
    return result_of(status, response);
  }

 private:
  grpc::GenericStub stub_;
  std::string method_;
  SignalConfig config_;
  grpc::CompletionQueue queue_;
};

std::unique_ptr<ExportClient> make_grpc_client(Signal signal, const SignalConfig& config, std::string& error) {
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
  return std::make_unique<GrpcClient>(std::move(channel), signal, config);
}

}  // namespace
}  // namespace jvmsight::otlp

JVMSIGHT_OTLP_TRANSPORT_FACTORY(jvmsight::otlp::make_grpc_client(signal, *config, *error))
