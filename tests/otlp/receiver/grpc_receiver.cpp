// The gRPC receiver: a real grpc++ server implementing MetricsService,
// TraceService and LogsService.
#include <grpcpp/grpcpp.h>

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

class GrpcReceiver : public OtlpReceiver {
 public:
  GrpcReceiver() : metrics_(*this), traces_(*this), logs_(*this) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(&metrics_);
    builder.RegisterService(&traces_);
    builder.RegisterService(&logs_);
    server_ = builder.BuildAndStart();
  }
  ~GrpcReceiver() override { server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1)); }
  int port() const override { return port_; }

 private:
  grpc::Status answer(Received r, const grpc::ServerContext& context) {
    r.headers = headers_of(context);
    if (!record(std::move(r))) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "scripted failure");
    return grpc::Status::OK;
  }

  struct Metrics : metrics::MetricsService::Service {
    explicit Metrics(GrpcReceiver& r) : receiver(r) {}
    grpc::Status Export(grpc::ServerContext* context, const metrics::ExportMetricsServiceRequest* request,
                        metrics::ExportMetricsServiceResponse*) override {
      Received r;
      r.signal = "metrics";
      r.request = *request;
      return receiver.answer(std::move(r), *context);
    }
    GrpcReceiver& receiver;
  };
  struct Traces : trace::TraceService::Service {
    explicit Traces(GrpcReceiver& r) : receiver(r) {}
    grpc::Status Export(grpc::ServerContext* context, const trace::ExportTraceServiceRequest* request,
                        trace::ExportTraceServiceResponse*) override {
      Received r;
      r.signal = "traces";
      r.traces = *request;
      return receiver.answer(std::move(r), *context);
    }
    GrpcReceiver& receiver;
  };
  struct Logs : logs::LogsService::Service {
    explicit Logs(GrpcReceiver& r) : receiver(r) {}
    grpc::Status Export(grpc::ServerContext* context, const logs::ExportLogsServiceRequest* request,
                        logs::ExportLogsServiceResponse*) override {
      Received r;
      r.signal = "logs";
      r.logs = *request;
      return receiver.answer(std::move(r), *context);
    }
    GrpcReceiver& receiver;
  };

  Metrics metrics_;
  Traces traces_;
  Logs logs_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

}  // namespace

std::unique_ptr<OtlpReceiver> start_grpc_receiver() {
  auto r = std::make_unique<GrpcReceiver>();
  return r->port() > 0 ? std::move(r) : nullptr;
}

}  // namespace jvmsight::test
