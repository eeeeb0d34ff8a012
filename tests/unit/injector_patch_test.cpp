// The injector's decisions and patches. Each patch is applied with
// nlohmann::json::patch (the library's RFC 6902 implementation, not ours)
// and the patched pod is checked as the kubelet would read it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "injector/admission.h"
#include "injector/injection_policy.h"
#include "injector/pod_patch.h"

namespace jvmsight::injector {
namespace {

using nlohmann::json;

json pod(json annotations, json containers) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"generateName", "shop-6b8f9-"}, {"annotations", std::move(annotations)}}},
          {"spec", {{"containers", std::move(containers)}}}};
}

json app(const std::string& name, json env = nullptr) {
  json c = {{"name", name}, {"image", "eclipse-temurin:21"}};
  if (!env.is_null()) c["env"] = std::move(env);
  return c;
}

AdmissionDecision review(const json& object, bool namespace_opted_in = false, InjectorConfig config = {}) {
  AdmissionRequest request{"uid-1", "CREATE", "Pod", object};
  return decide(request, namespace_opted_in, config);
}

json patched(const json& object, const AdmissionDecision& d) {
  EXPECT_TRUE(d.injected) << d.skip_reason;
  return object.patch(d.patch);
}

// name -> value (or "<valueFrom>") of a container's env, in order.
std::vector<std::pair<std::string, std::string>> env_of(const json& container) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : container.value("env", json::array()))
    out.emplace_back(e["name"], e.contains("value") ? e["value"].get<std::string>() : "<valueFrom>");
  return out;
}

std::string env_value(const json& container, const std::string& name) {
  for (const auto& [n, v] : env_of(container))
    if (n == name) return v;
  return "<absent>";
}

TEST(InjectorPatch, OptedInPodGetsTheChartsShape) {
  json p = pod({{"jvmsight.io/inject", "true"}}, {app("app")});
  json out = patched(p, review(p));
  const json& spec = out["spec"];
  ASSERT_EQ(spec["initContainers"].size(), 1u);
  EXPECT_EQ(spec["initContainers"][0]["name"], "jvmsight-agent");
  EXPECT_EQ(spec["initContainers"][0]["image"], "jvmsight-agent:0.1.0");
  EXPECT_EQ(spec["initContainers"][0]["securityContext"]["readOnlyRootFilesystem"], true);
  EXPECT_EQ(spec["initContainers"][0]["resources"]["limits"]["memory"], "32Mi");
  EXPECT_NE(spec["initContainers"][0]["command"][3].get<std::string>().find("exec /bin/busybox sh /bin/jvmsight-copy"),
            std::string::npos);
  EXPECT_EQ(spec["initContainers"][0]["terminationMessagePolicy"], "FallbackToLogsOnError");
  EXPECT_EQ(spec["volumes"][0], json({{"name", "jvmsight-agent"}, {"emptyDir", {{"sizeLimit", "64Mi"}}}}));
  const json& c = spec["containers"][0];
  EXPECT_EQ(env_value(c, "JAVA_TOOL_OPTIONS"), "-agentpath:/jvmsight/libjvmsight-loader.so=port=9404,details=off");
  EXPECT_EQ(c["volumeMounts"][0], json({{"name", "jvmsight-agent"}, {"mountPath", "/jvmsight"}, {"readOnly", true}}));
  EXPECT_EQ(c["ports"][0], json({{"name", "jvmsight"}, {"containerPort", 9404}, {"protocol", "TCP"}}));
  EXPECT_EQ(out["metadata"]["labels"]["jvmsight/injected"], "true");
  EXPECT_EQ(out["metadata"]["annotations"]["prometheus.io/port"], "9404");
  EXPECT_EQ(out["metadata"]["annotations"]["jvmsight.io/inject"], "true");  // kept
}

TEST(InjectorPatch, AppendsToTheContainersOwnValuesAndKeepsItsEnv) {
  json p = pod({{"jvmsight.io/inject", "true"}},
               {app("app", {{{"name", "A"}, {"value", "1"}},
                            {{"name", "JAVA_TOOL_OPTIONS"}, {"value", "-Xmx256m"}},
                            {{"name", "OTEL_RESOURCE_ATTRIBUTES"}, {"value", "team=shop"}}})});
  p["metadata"]["labels"] = {{"pod-template-hash", "6b8f9"}};
  p["metadata"]["ownerReferences"] = {{{"kind", "ReplicaSet"}, {"name", "shop-6b8f9"}, {"controller", true}}};
  json c = patched(p, review(p))["spec"]["containers"][0];
  auto env = env_of(c);
  // Downward-API variables first, so the kubelet expands them in later ones.
  ASSERT_GE(env.size(), 7u);
  EXPECT_EQ(env[0].first, "JVMSIGHT_POD_NAME");
  EXPECT_EQ(env[1].first, "JVMSIGHT_POD_UID");
  EXPECT_EQ(env[4], (std::pair<std::string, std::string>{"A", "1"}));
  EXPECT_EQ(env_value(c, "JAVA_TOOL_OPTIONS"),
            "-Xmx256m -agentpath:/jvmsight/libjvmsight-loader.so=port=9404,details=off");
  EXPECT_EQ(env_value(c, "OTEL_RESOURCE_ATTRIBUTES"),
            "team=shop,k8s.pod.name=$(JVMSIGHT_POD_NAME),k8s.pod.uid=$(JVMSIGHT_POD_UID),"
            "k8s.namespace.name=$(JVMSIGHT_POD_NAMESPACE),k8s.node.name=$(JVMSIGHT_NODE_NAME),"
            "k8s.container.name=app,k8s.replicaset.name=shop-6b8f9,k8s.deployment.name=shop");
  EXPECT_EQ(env.size(), 7u);  // no second JAVA_TOOL_OPTIONS: the kubelet keeps only the last
}

TEST(InjectorPatch, WorkloadNamesFromTheControllerReference) {
  json p = pod({}, {app("app")});
  p["metadata"]["ownerReferences"] = {{{"kind", "StatefulSet"}, {"name", "db"}, {"controller", true}}};
  EXPECT_NE(resource_attributes(p, "app").find(",k8s.statefulset.name=db"), std::string::npos);
  p["metadata"]["ownerReferences"] = {{{"kind", "ReplicaSet"}, {"name", "rs-x"}, {"controller", false}}};
  EXPECT_EQ(resource_attributes(p, "app").find("replicaset"), std::string::npos);  // not the controller
  p["metadata"]["ownerReferences"] = {{{"kind", "ReplicaSet"}, {"name", "loose"}, {"controller", true}}};
  std::string attrs = resource_attributes(p, "app");
  EXPECT_NE(attrs.find("k8s.replicaset.name=loose"), std::string::npos);
  EXPECT_EQ(attrs.find("deployment"), std::string::npos);  // no pod-template-hash: no Deployment to name
}

TEST(InjectorPatch, NamedContainerOnlyInAMultiContainerPod) {
  json p =
      pod({{"jvmsight.io/inject", "true"}, {"jvmsight.io/container-names", "java"}}, {app("sidecar"), app("java")});
  json out = patched(p, review(p));
  EXPECT_FALSE(out["spec"]["containers"][0].contains("env"));
  EXPECT_FALSE(out["spec"]["containers"][0].contains("volumeMounts"));
  EXPECT_NE(env_value(out["spec"]["containers"][1], "JAVA_TOOL_OPTIONS"), "<absent>");
  EXPECT_NE(env_value(out["spec"]["containers"][1], "OTEL_RESOURCE_ATTRIBUTES").find("k8s.container.name=java"),
            std::string::npos);
}

TEST(InjectorPatch, TwoJavaContainersGetPortsOfTheirOwn) {
  json p = pod({{"jvmsight.io/inject", "true"}, {"jvmsight.io/container-names", "a, b, nope"}}, {app("a"), app("b")});
  auto d = review(p);
  json out = patched(p, d);
  EXPECT_EQ(out["spec"]["containers"][0]["ports"][0]["containerPort"], 9404);
  EXPECT_EQ(out["spec"]["containers"][1]["ports"][0]["containerPort"], 9405);
  EXPECT_EQ(out["spec"]["containers"][1]["ports"][0]["name"], "jvmsight-2");
  EXPECT_NE(env_value(out["spec"]["containers"][1], "JAVA_TOOL_OPTIONS").find("port=9405"), std::string::npos);
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_NE(d.warnings[0].find("'nope'"), std::string::npos);
}

TEST(InjectorPatch, NeverDeclaresAPortTheApiServerWouldRefuse) {
  json taken = app("app");
  taken["ports"] = {{{"name", "jvmsight"}, {"containerPort", 8080}}};
  json p = pod({{"jvmsight.io/inject", "true"}}, {taken});
  json out = patched(p, review(p));
  EXPECT_EQ(out["spec"]["containers"][0]["ports"].size(), 1u);  // names are unique in a pod
  EXPECT_NE(env_value(out["spec"]["containers"][0], "JAVA_TOOL_OPTIONS").find("port=9404"), std::string::npos);
}

TEST(InjectorPatch, NeverMountsWhereTheContainerMountsAlready) {
  json taken = app("app");
  taken["volumeMounts"] = {{{"name", "cache"}, {"mountPath", "/jvmsight/"}}};
  json p = pod({{"jvmsight.io/inject", "true"}, {"jvmsight.io/container-names", "app,other"}}, {taken, app("other")});
  auto d = review(p);
  json out = patched(p, d);
  EXPECT_EQ(out["spec"]["containers"][0]["volumeMounts"].size(), 1u);  // mount paths are unique in a container
  EXPECT_EQ(env_value(out["spec"]["containers"][0], "JAVA_TOOL_OPTIONS"), "<absent>");
  EXPECT_NE(env_value(out["spec"]["containers"][1], "JAVA_TOOL_OPTIONS"), "<absent>");
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_NE(d.warnings[0].find("'app' not injected: it mounts a volume at /jvmsight already"), std::string::npos);
}

TEST(InjectorPatch, ValueFromJavaToolOptionsIsSkippedWithAWarning) {
  json p = pod({{"jvmsight.io/inject", "true"}},
               {app("app", {{{"name", "JAVA_TOOL_OPTIONS"},
                             {"valueFrom", {{"configMapKeyRef", {{"name", "jvm"}, {"key", "opts"}}}}}}})});
  auto d = review(p);
  EXPECT_FALSE(d.injected);
  EXPECT_EQ(d.skip_reason, "no_container");
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_NE(d.warnings[0].find("valueFrom"), std::string::npos);
}

TEST(InjectorPatch, SecondPassGivesNoPatch) {
  json p = pod({{"jvmsight.io/inject", "true"}}, {app("app")});
  json once = patched(p, review(p));
  auto again = review(once);
  EXPECT_FALSE(again.injected);
  EXPECT_EQ(again.skip_reason, "already_injected");
  EXPECT_TRUE(again.patch.is_null());
}

TEST(InjectorPatch, OptInRules) {
  EXPECT_EQ(review(pod({}, {app("app")})).skip_reason, "not_opted_in");
  EXPECT_EQ(review(pod({{"jvmsight.io/inject", "yes"}}, {app("app")})).skip_reason, "not_opted_in");
  EXPECT_TRUE(review(pod({}, {app("app")}), /*namespace_opted_in=*/true).injected);
  EXPECT_EQ(review(pod({{"jvmsight.io/inject", "false"}}, {app("app")}), true).skip_reason, "opted_out");
  json labelled = pod({}, {app("app")});
  labelled["metadata"]["labels"] = {{"jvmsight.io/inject", "true"}};
  EXPECT_TRUE(review(labelled).injected);
  labelled["metadata"]["annotations"] = {{"jvmsight.io/inject", "false"}};  // the annotation wins
  EXPECT_EQ(review(labelled).skip_reason, "opted_out");
}

TEST(InjectorPatch, PodOptionsGoThroughTheAgentsTable) {
  json p =
      pod({{"jvmsight.io/inject", "true"}, {"jvmsight.io/options", "details=local,log=debug,port=9500"}}, {app("app")});
  json out = patched(p, review(p));
  EXPECT_EQ(env_value(out["spec"]["containers"][0], "JAVA_TOOL_OPTIONS"),
            "-agentpath:/jvmsight/libjvmsight-loader.so=port=9500,details=local,log=debug");
  EXPECT_EQ(out["metadata"]["annotations"]["prometheus.io/port"], "9500");
  for (const char* bad : {"details=maybe", "no_such_option=1", "port=9404 -Xmx1g", "deadlock_check_ms=$(X)"}) {
    json q = pod({{"jvmsight.io/inject", "true"}, {"jvmsight.io/options", bad}}, {app("app")});
    auto d = review(q);
    EXPECT_FALSE(d.injected) << bad;
    EXPECT_EQ(d.skip_reason, "invalid_options") << bad;
    ASSERT_EQ(d.warnings.size(), 1u) << bad;
    EXPECT_NE(d.warnings[0].find("jvmsight.io/options"), std::string::npos);
  }
}

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
