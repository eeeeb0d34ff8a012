#include "exporters/otlp/transport_loader.h"

#include <dlfcn.h>

#include <mutex>

#include "common/own_directory.h"
#include "exporters/otlp/otlp_plugin.h"

namespace jvmsight::otlp {
namespace {

// The factory of one transport object, loaded on first use; null (and the
// reason kept) if it cannot be loaded.
struct Transport {
  std::once_flag once;
  MakeClientFn make = nullptr;
  std::string problem;

  void load(const char* file) {
    const std::string path = own_directory() + "/" + file;
    // RTLD_LOCAL: grpc's and OpenSSL's symbols stay out of the JVM's namespace.
    // Never dlclosed: gRPC keeps threads that would run unmapped code.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = dlerror();
      problem = "cannot load " + path + " (" + (why ? why : "unknown error") + ")";
      return;
    }
    make = reinterpret_cast<MakeClientFn>(dlsym(handle, "jvmsight_otlp_make_client"));
    if (make == nullptr) problem = path + " lacks jvmsight_otlp_make_client";
  }
};

}  // namespace

std::unique_ptr<ExportClient> make_client(Signal signal, const SignalConfig& config, std::string& error) {
  static Transport grpc, http;
  const bool use_grpc = config.protocol == Protocol::grpc;
  Transport& t = use_grpc ? grpc : http;
  std::call_once(t.once, [&] { t.load(use_grpc ? "libjvmsight-otlp-grpc.so" : "libjvmsight-otlp-http.so"); });
  if (t.make == nullptr) {
    error = t.problem;
    return nullptr;
  }
  std::unique_ptr<ExportClient> client(t.make(JVMSIGHT_OTLP_ABI_VERSION, signal, &config, &error));
  if (!client && error.empty()) error = "the OTLP transport refused the settings";
  return client;
}

}  // namespace jvmsight::otlp
