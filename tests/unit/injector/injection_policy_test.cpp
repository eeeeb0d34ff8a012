// Which pods and containers get the agent, with which options, and why not.
#include "injector/injection_policy.h"

#include <gtest/gtest.h>

#include "tests/unit/injector/pods.h"

namespace jvmsight::injector {
namespace {

using nlohmann::json;
using namespace test;

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

}  // namespace
}  // namespace jvmsight::injector
