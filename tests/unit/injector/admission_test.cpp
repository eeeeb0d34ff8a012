// AdmissionReview in and out: what is not a review is refused, only pod
// creations are decided, the response carries the base64 patch.
#include "injector/admission.h"

#include <gtest/gtest.h>

#include "tests/unit/injector/pods.h"

namespace jvmsight::injector {
namespace {

using nlohmann::json;
using namespace test;

TEST(InjectorPatch, OnlyPodCreates) {
  json p = pod({{"jvmsight.io/inject", "true"}}, {app("app")});
  AdmissionRequest update{"u", "UPDATE", "Pod", p};
  EXPECT_EQ(decide(update, false, {}).skip_reason, "not_create");
  AdmissionRequest service{"u", "CREATE", "Service", p};
  EXPECT_EQ(decide(service, false, {}).skip_reason, "not_a_pod");
}

TEST(AdmissionReview, RefusesWhatIsNotAReview) {
  AdmissionRequest r;
  for (const char* bad :
       {"", "garbage", "[]", "{}",
        R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","request":{"uid":"a","object":{}}})",
        R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"object":{}}})",
        R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"a"}})"})
    EXPECT_NE(parse_admission_review(bad, r), "") << bad;
  std::string deep = R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"a","object":)" +
                     std::string(100000, '[') + std::string(100000, ']') + "}}";
  EXPECT_NE(parse_admission_review(deep, r), "");
  EXPECT_EQ(
      parse_admission_review(
          R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"a","kind":{"kind":"Pod"},"operation":"CREATE","object":{"spec":{}}}})",
          r),
      "");
  EXPECT_EQ(r.uid, "a");
  EXPECT_EQ(r.kind, "Pod");
}

TEST(AdmissionReview, ResponseCarriesUidAllowedAndBase64Patch) {
  // RFC 4648's test vectors.
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
  AdmissionDecision d;
  d.injected = true;
  d.patch = json::array({{{"op", "add"}, {"path", "/a"}, {"value", 1}}});
  d.warnings = {"w"};
  json out = json::parse(admission_response("uid-9", d));
  EXPECT_EQ(out["apiVersion"], "admission.k8s.io/v1");
  EXPECT_EQ(out["response"]["uid"], "uid-9");
  EXPECT_EQ(out["response"]["allowed"], true);
  EXPECT_EQ(out["response"]["patchType"], "JSONPatch");
  EXPECT_EQ(out["response"]["warnings"], json::array({"w"}));
  json skipped = json::parse(admission_response("u", AdmissionDecision{}));
  EXPECT_FALSE(skipped["response"].contains("patch"));
  EXPECT_EQ(skipped["response"]["allowed"], true);
}

}  // namespace
}  // namespace jvmsight::injector
