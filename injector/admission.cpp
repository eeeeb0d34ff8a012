#include "injector/admission.h"

#include "injector/injection_policy.h"
#include "injector/pod_patch.h"

namespace jvmsight::injector {
namespace {

using nlohmann::json;

// A real pod nests about 12 deep. Deeper input is refused before parsing:
// copying or printing a json value recurses, and the server's thread has a
// small stack.
constexpr int max_depth = 64;

bool nesting_within(std::string_view body, int limit) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : body) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > limit) return false;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return true;
}

std::string string_at(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::string parse_admission_review(std::string_view body, AdmissionRequest& out) {
  if (!nesting_within(body, max_depth)) return "JSON nested deeper than " + std::to_string(max_depth);
  json review = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (review.is_discarded()) return "not JSON";
  if (!review.is_object() || string_at(review, "kind") != "AdmissionReview" ||
      string_at(review, "apiVersion") != "admission.k8s.io/v1")
    return "not an admission.k8s.io/v1 AdmissionReview";
  auto request = review.find("request");
  if (request == review.end() || !request->is_object()) return "the AdmissionReview has no request";
  out.uid = string_at(*request, "uid");
  if (out.uid.empty() || out.uid.size() > 128) return "the request has no uid";
  out.operation = string_at(*request, "operation");
  auto kind = request->find("kind");
  out.kind = kind != request->end() && kind->is_object() ? string_at(*kind, "kind") : "";
  auto object = request->find("object");
  if (object == request->end() || !object->is_object()) return "the request has no object";
  out.object = std::move(*object);
  return "";
}

AdmissionDecision decide(const AdmissionRequest& request, bool namespace_opted_in, const InjectorConfig& config) {
  AdmissionDecision out;
  if (request.kind != "Pod") {
    out.skip_reason = "not_a_pod";
    return out;
  }
  if (request.operation != "CREATE") {
    out.skip_reason = "not_create";
    return out;
  }
  InjectionPlan plan = plan_injection(request.object, namespace_opted_in, config);
  out.warnings = std::move(plan.warnings);
  if (!plan.inject) {
    out.skip_reason = plan.skip_reason;
    return out;
  }
  PodPatch patch = build_pod_patch(request.object, plan, config);
  out.warnings.insert(out.warnings.end(), patch.warnings.begin(), patch.warnings.end());
  if (!patch.skip_reason.empty()) {
    out.skip_reason = patch.skip_reason;
    return out;
  }
  out.injected = true;
  out.patch = std::move(patch.operations);
  return out;
}

std::string base64(std::string_view bytes) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    unsigned n = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8 |
                 static_cast<unsigned char>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += alphabet[(n >> shift) & 63];
  }
  if (i < bytes.size()) {
    unsigned n = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? alphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string admission_response(const std::string& uid, const AdmissionDecision& decision) {
  json response = {{"uid", uid}, {"allowed", true}};
  if (decision.injected) {
    response["patchType"] = "JSONPatch";
    response["patch"] = base64(decision.patch.dump(-1, ' ', false, json::error_handler_t::replace));
  }
  if (!decision.warnings.empty()) response["warnings"] = decision.warnings;
  json review = {{"apiVersion", "admission.k8s.io/v1"}, {"kind", "AdmissionReview"}, {"response", response}};
  // Invalid UTF-8 from the pod (a container name in a warning) is replaced, never thrown on.
  return review.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace jvmsight::injector
