#include "agent/otlp_plugin_loader.h"

#include <dlfcn.h>

#include "agent/version.h"
#include "common/log.h"
#include "common/own_directory.h"

namespace jvmsight {
namespace {

constexpr const char* plugin_file = "libjvmsight-otlp.so";

template <class Fn>
bool resolve(void* handle, const char* name, Fn& out) {
  out = reinterpret_cast<Fn>(dlsym(handle, name));
  return out != nullptr;
}

}  // namespace

std::unique_ptr<OtlpPlugin> OtlpPlugin::load(const OtlpPluginSettings& settings) {
  if (!otlp::otlp_requested(settings.endpoint.c_str())) return nullptr;
  const std::string path = own_directory() + "/" + plugin_file;
  // RTLD_LOCAL: protobuf's, nghttp2's and OpenSSL's symbols stay out of the
  // JVM's namespace. Never dlclosed: the export workers' threads may still
  // run its code after shutdown's deadline.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    log::error("OTLP export is configured but ", path, " cannot be loaded (", why ? why : "unknown error",
               "); /metrics keeps working, nothing is pushed");
    return nullptr;
  }
  std::unique_ptr<OtlpPlugin> plugin(new OtlpPlugin());
  jvmsight_otlp_abi_version_fn abi = nullptr;
  jvmsight_otlp_start_fn start = nullptr;
  // The version first: a plugin of another interface version may lack
  // entry points this agent needs, and that is the clearer message.
  if (!resolve(handle, "jvmsight_otlp_abi_version", abi)) {
    log::error(path, " lacks jvmsight_otlp_abi_version; nothing is pushed");
    return nullptr;
  }
  if (abi() != JVMSIGHT_OTLP_ABI_VERSION) {
    log::error(path, " has interface version ", abi(), ", this agent needs ", JVMSIGHT_OTLP_ABI_VERSION,
               " (mixed builds?); nothing is pushed");
    return nullptr;
  }
  if (!resolve(handle, "jvmsight_otlp_start", start) || !resolve(handle, "jvmsight_otlp_push_metrics", plugin->push_) ||
      !resolve(handle, "jvmsight_otlp_push_spans", plugin->push_spans_) ||
      !resolve(handle, "jvmsight_otlp_push_deadlock", plugin->push_deadlock_) ||
      !resolve(handle, "jvmsight_otlp_push_inversion", plugin->push_inversion_) ||
      !resolve(handle, "jvmsight_otlp_push_stuck", plugin->push_stuck_) ||
      !resolve(handle, "jvmsight_otlp_append_self_metrics", plugin->self_metrics_) ||
      !resolve(handle, "jvmsight_otlp_shutdown", plugin->shutdown_)) {
    log::error(path, " lacks the jvmsight_otlp_* entry points; nothing is pushed");
    return nullptr;
  }
  jvmsight_otlp_host host{};
  host.abi_version = JVMSIGHT_OTLP_ABI_VERSION;
  host.log_level = static_cast<int>(log::level());
  host.endpoint = settings.endpoint.empty() ? nullptr : settings.endpoint.c_str();
  host.protocol = settings.protocol.empty() ? nullptr : settings.protocol.c_str();
  host.agent_version = version;
  host.java_properties = settings.java_properties.c_str();
  plugin->exporter_ = start(&host, &plugin->schedule_);
  if (plugin->exporter_ == nullptr) return nullptr;  // the plugin said why
  return plugin;
}

void OtlpPlugin::deadlock_confirmed(const DeadlockReport& report) {
  if (exports_deadlocks()) push_deadlock(report);
}

void OtlpPlugin::inversion_found(const LockOrderInversion& inversion) {
  if (exports_deadlocks()) push_inversion_(exporter_, &inversion);
}

void OtlpPlugin::thread_stuck(const StuckThreadReport& stuck) {
  if (exports_deadlocks()) push_stuck_(exporter_, &stuck);
}

}  // namespace jvmsight
