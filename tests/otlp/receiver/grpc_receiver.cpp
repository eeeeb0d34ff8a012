// The gRPC receiver: a real grpc++ server implementing MetricsService,
// TraceService and LogsService, plain or TLS (optionally requiring a client
// certificate), answering as scripted (otlp_receiver.h).
#include <grpcpp/grpcpp.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "logs_service.grpc.pb.h"
#include "metrics_service.grpc.pb.h"
#include "tests/otlp/receiver/otlp_receiver.h"
#include "trace_service.grpc.pb.h"

namespace jvmsight::test {
namespace {

namespace metrics = opentelemetry::proto::collector::metrics::v1;
namespace trace = opentelemetry::proto::collector::trace::v1;
namespace logs = opentelemetry::proto::collector::logs::v1;

std::map<std::string, std::string> headers_of(const grpc::ServerContext& context) {
  std::map<std::string, std::string> headers;
  for (const auto& [k, v] : context.client_metadata())
    headers[std::string(k.data(), k.size())] = std::string(v.data(), v.size());
  return headers;
}

// Protobuf wire format, for the few google.rpc messages a RetryInfo needs
// (their protos are not in the pinned OTLP package).
void varint(uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}
void length_delimited(int field, const std::string& bytes, std::string& out) {
  varint(static_cast<uint64_t>(field) << 3 | 2, out);
  varint(bytes.size(), out);
  out += bytes;
}
void varint_field(int field, uint64_t v, std::string& out) {
  varint(static_cast<uint64_t>(field) << 3, out);
  varint(v, out);
}

// google.rpc.Status{code, message, details: [Any(google.rpc.RetryInfo{retry_delay})]}.
std::string status_with_retry_info(grpc::StatusCode code, const std::string& message, std::chrono::milliseconds delay) {
  std::string duration, retry_info, any, status;
  varint_field(1, static_cast<uint64_t>(delay.count() / 1000), duration);
  varint_field(2, static_cast<uint64_t>(delay.count() % 1000 * 1000000), duration);
  length_delimited(1, duration, retry_info);
  length_delimited(1, "type.googleapis.com/google.rpc.RetryInfo", any);
  length_delimited(2, retry_info, any);
  varint_field(1, static_cast<uint64_t>(code), status);
  length_delimited(2, message, status);
  length_delimited(3, any, status);
  return status;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class GrpcReceiver : public OtlpReceiver {
 public:
  explicit GrpcReceiver(const TlsFiles* tls)
      : metrics_(*this, "metrics", &Received::request),
        traces_(*this, "traces", &Received::traces),
        logs_(*this, "logs", &Received::logs) {
    std::shared_ptr<grpc::ServerCredentials> credentials = grpc::InsecureServerCredentials();
    if (tls) {
      grpc::SslServerCredentialsOptions ssl(tls->client_ca.empty()
                                                ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                                : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
      ssl.pem_key_cert_pairs.push_back({read_file(tls->key), read_file(tls->certificate)});
      if (!tls->client_ca.empty()) ssl.pem_root_certs = read_file(tls->client_ca);
      credentials = grpc::SslServerCredentials(ssl);
      tls_ = true;
    }
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", credentials, &port_);
    builder.RegisterService(&metrics_);
    builder.RegisterService(&traces_);
    builder.RegisterService(&logs_);
    server_ = builder.BuildAndStart();
  }
  ~GrpcReceiver() override {
    if (server_) server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  }
  int port() const override { return server_ ? port_ : 0; }

 private:
  template <class Response>
  grpc::Status answer(Received r, grpc::ServerContext& context, Response& response) {
    r.headers = headers_of(context);
    const auto delay = reply_delay();
    const auto started = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - started < delay) {
      if (context.IsCancelled()) {
        record_abandoned(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started));
        return grpc::Status::CANCELLED;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const Reply reply = record(std::move(r));
    switch (reply.kind) {
      case Reply::Kind::accept:
        return grpc::Status::OK;
      case Reply::Kind::partial:
        response.mutable_partial_success()->set_error_message(reply.message);
        set_rejected(response, reply.rejected);
        return grpc::Status::OK;
      case Reply::Kind::unavailable:
      case Reply::Kind::throttled: {
        const auto code = reply.kind == Reply::Kind::unavailable ? grpc::StatusCode::UNAVAILABLE
                                                                 : grpc::StatusCode::RESOURCE_EXHAUSTED;
        if (reply.retry_after.count() == 0) return grpc::Status(code, "scripted failure");
        return grpc::Status(code, "scripted failure",
                            status_with_retry_info(code, "scripted failure", reply.retry_after));
      }
    }
    return grpc::Status::OK;
  }
  static void set_rejected(metrics::ExportMetricsServiceResponse& r, int64_t n) {
    r.mutable_partial_success()->set_rejected_data_points(n);
  }
  static void set_rejected(trace::ExportTraceServiceResponse& r, int64_t n) {
    r.mutable_partial_success()->set_rejected_spans(n);
  }
  static void set_rejected(logs::ExportLogsServiceResponse& r, int64_t n) {
    r.mutable_partial_success()->set_rejected_log_records(n);
  }

  // One service: its Export keeps the request in `field` of a Received.
  template <class Service, class Request, class Response>
  struct Endpoint : Service {
    Endpoint(GrpcReceiver& r, const char* s, Request Received::*f) : receiver(r), signal(s), field(f) {}
    grpc::Status Export(grpc::ServerContext* context, const Request* request, Response* response) override {
      Received r;
      r.signal = signal;
      r.*field = *request;
      return receiver.answer(std::move(r), *context, *response);
    }
    GrpcReceiver& receiver;
    const char* signal;
    Request Received::*field;
  };
  using Metrics = Endpoint<metrics::MetricsService::Service, metrics::ExportMetricsServiceRequest,
                           metrics::ExportMetricsServiceResponse>;
  using Traces =
      Endpoint<trace::TraceService::Service, trace::ExportTraceServiceRequest, trace::ExportTraceServiceResponse>;
  using Logs = Endpoint<logs::LogsService::Service, logs::ExportLogsServiceRequest, logs::ExportLogsServiceResponse>;

  Metrics metrics_;
  Traces traces_;
  Logs logs_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

}  // namespace

std::unique_ptr<OtlpReceiver> start_grpc_receiver(const TlsFiles* tls) {
  auto r = std::make_unique<GrpcReceiver>(tls);
  return r->port() > 0 ? std::move(r) : nullptr;
}

}  // namespace jvmsight::test
