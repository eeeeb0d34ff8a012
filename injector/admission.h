#pragma once
// AdmissionReview v1 (admission.k8s.io/v1) in and out: what the API server
// POSTs to a mutating webhook and what it expects back. The body comes from
// whoever reaches the port: parsed with nlohmann::json, depth-limited first,
// never trusted.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "injector/config.h"

namespace jvmsight::injector {

struct AdmissionRequest {
  std::string uid;
  std::string operation;  // CREATE, UPDATE, ...
  std::string kind;       // request.kind.kind: Pod
  nlohmann::json object;  // request.object
};

// "" and out filled, or why the body is not an AdmissionReview v1 request
// (the webhook answers 400).
std::string parse_admission_review(std::string_view body, AdmissionRequest& out);

// What the webhook decided for one review.
struct AdmissionDecision {
  bool injected = false;
  std::string skip_reason;  // when not injected: a metric label value
  std::vector<std::string> warnings;
  nlohmann::json patch;  // a JSON Patch array when injected
};

// The decision for a parsed request: pods only, CREATE only, then the
// annotation contract. Throws only on a bug (the caller admits unpatched).
AdmissionDecision decide(const AdmissionRequest& request, bool namespace_opted_in, const InjectorConfig& config);

// The AdmissionReview v1 response: uid, allowed (always true), and the patch
// (base64 JSON Patch) and warnings when there are any.
std::string admission_response(const std::string& uid, const AdmissionDecision& decision);

// RFC 4648 base64, as the API server decodes response.patch.
std::string base64(std::string_view bytes);

}  // namespace jvmsight::injector
