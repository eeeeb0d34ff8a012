#pragma once
// Loads only the transport in use: libjvmsight-otlp-grpc.so (grpc++ and its
// closure) or libjvmsight-otlp-http.so (libcurl and its closure), from the
// plugin's own directory, once per process and never unloaded. An
// HTTP/protobuf user thus never maps gRPC, and a gRPC user never maps curl.
#include <memory>
#include <string>

#include "exporters/otlp/export_client.h"

namespace jvmsight::otlp {

// Null (and error set) when the transport cannot be loaded or refuses the settings.
std::unique_ptr<ExportClient> make_client(Signal signal, const SignalConfig& config, std::string& error);

}  // namespace jvmsight::otlp
