#pragma once
// The one entry point of a transport shared object (export_client.h,
// MakeClientFn): checks the caller's interface version and keeps every
// exception inside.
#include <cstdint>
#include <exception>
#include <string>

#include "exporters/otlp/export_client.h"
#include "exporters/otlp/otlp_plugin.h"

namespace jvmsight::otlp {

template <class Make>
ExportClient* guarded_make_client(uint32_t abi, std::string* error, Make make) {
  if (error == nullptr) return nullptr;
  if (abi != JVMSIGHT_OTLP_ABI_VERSION) {
    *error = "the OTLP transport comes from another build (interface " + std::to_string(JVMSIGHT_OTLP_ABI_VERSION) +
             ", caller " + std::to_string(abi) + ")";
    return nullptr;
  }
  try {
    return make().release();
  } catch (const std::exception& e) {
    *error = e.what();
  } catch (...) {
    *error = "cannot create the OTLP transport";
  }
  return nullptr;
}

}  // namespace jvmsight::otlp

// Defines jvmsight_otlp_make_client(abi, signal, config, error) returning `make_expression`
// (a std::unique_ptr<ExportClient>; it may use signal, config and error).
#define JVMSIGHT_OTLP_TRANSPORT_FACTORY(make_expression)                                                             \
  extern "C" __attribute__((visibility("default"))) jvmsight::otlp::ExportClient* jvmsight_otlp_make_client(         \
      uint32_t abi, jvmsight::otlp::Signal signal, const jvmsight::otlp::SignalConfig* config, std::string* error) { \
    (void)signal;                                                                                                    \
    if (config == nullptr) return nullptr;                                                                           \
    return jvmsight::otlp::guarded_make_client(abi, error, [&] { return make_expression; });                         \
  }
