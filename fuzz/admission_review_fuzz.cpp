// The body of POST /mutate, as anyone who reaches the injector's port sends
// it: any bytes. parse_admission_review must return; for a review it
// accepts, the decision must give a response that is JSON, and a patch that
// applies to the pod (nlohmann's RFC 6902 implementation) and leaves a pod
// a second review does not patch again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "injector/admission.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace jvmsight::injector;
  std::string_view body(reinterpret_cast<const char*>(data), size);
  AdmissionRequest request;
  if (!parse_admission_review(body, request).empty()) return 0;
  InjectorConfig config;
  const bool namespace_opted_in = size % 2 == 1;
  AdmissionDecision decision;
  try {
    decision = decide(request, namespace_opted_in, config);
  } catch (const std::exception&) {
    return 0;  // the webhook admits unpatched; counted as an internal error
  }
  if (nlohmann::json::parse(admission_response(request.uid, decision), nullptr, false).is_discarded()) std::abort();
  if (!decision.injected) return 0;
  nlohmann::json patched;
  try {
    patched = request.object.patch(decision.patch);
  } catch (const std::exception&) {
    std::abort();  // a patch the API server could not apply
  }
  AdmissionRequest again = request;
  again.object = patched;
  if (decide(again, namespace_opted_in, config).injected) std::abort();  // not idempotent
  return 0;
}
