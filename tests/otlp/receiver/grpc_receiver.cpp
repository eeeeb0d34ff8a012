// The gRPC receiver: a real grpc++ server implementing MetricsService.
#include <grpcpp/grpcpp.h>

#include "metrics_service.grpc.pb.h"
#include "tests/otlp/receiver/otlp_receiver.h"

namespace jvmsight::test {
namespace {

namespace collector = opentelemetry::proto::collector::metrics::v1;

class GrpcReceiver : public OtlpReceiver, public collector::MetricsService::Service {
 public:
  GrpcReceiver() {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
  }
  ~GrpcReceiver() override { server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1)); }
  int port() const override { return port_; }

  grpc::Status Export(grpc::ServerContext* context, const collector::ExportMetricsServiceRequest* request,
                      collector::ExportMetricsServiceResponse*) override {
    std::map<std::string, std::string> headers;
    for (const auto& [k, v] : context->client_metadata())
      headers[std::string(k.data(), k.size())] = std::string(v.data(), v.size());
    if (!record(*request, std::move(headers))) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "scripted failure");
    return grpc::Status::OK;
  }

 private:
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

}  // namespace

std::unique_ptr<OtlpReceiver> start_grpc_receiver() {
  auto r = std::make_unique<GrpcReceiver>();
  return r->port() > 0 ? std::move(r) : nullptr;
}

}  // namespace jvmsight::test
