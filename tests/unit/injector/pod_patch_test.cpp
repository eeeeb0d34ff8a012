// The patch an opted-in pod gets: the chart's shape, the container's own
// values kept, resource attributes from the owner, ports of its own.
#include "injector/pod_patch.h"

#include <gtest/gtest.h>

#include "tests/unit/injector/pods.h"

namespace jvmsight::injector {
namespace {

using nlohmann::json;
using namespace test;

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

}  // namespace
}  // namespace jvmsight::injector
