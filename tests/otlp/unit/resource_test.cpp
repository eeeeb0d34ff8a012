// Resource attributes: OTEL_RESOURCE_ATTRIBUTES parsing (percent-decoding,
// whole value discarded on error), service.name precedence, detected facts.
#include "exporters/otlp/resource.h"

#include <gtest/gtest.h>

#include <map>

namespace jvmsight::otlp {
namespace {

std::map<std::string, std::string> strings_of(const opentelemetry::proto::resource::v1::Resource& r) {
  std::map<std::string, std::string> out;
  for (const auto& kv : r.attributes())
    out[kv.key()] = kv.value().has_int_value() ? std::to_string(kv.value().int_value()) : kv.value().string_value();
  return out;
}

ProcessFacts facts() {
  ProcessFacts f;
  f.pid = 4242;
  f.host_name = "node-1";
  f.java_command = "com.example.Shop --port 8080";
  f.vm_name = "OpenJDK 64-Bit Server VM";
  f.vm_version = "17.0.9+9";
  f.agent_version = "0.1.0";
  return f;
}

TEST(Resource, ParsesAndPercentDecodes) {
  std::string problem;
  KeyValues kv =
      parse_resource_attributes("k8s.pod.name=shop-7f9c%2Dx, deployment.environment=prod,team=a%20b", problem);
  EXPECT_TRUE(problem.empty());
  ASSERT_EQ(kv.size(), 3u);
  EXPECT_EQ(kv[0], (std::pair<std::string, std::string>{"k8s.pod.name", "shop-7f9c-x"}));
  EXPECT_EQ(kv[2].second, "a b");
}

TEST(Resource, MalformedValueIsDiscardedWholeWithOneMessage) {
  std::string problem;
  KeyValues kv = parse_resource_attributes("good=1,bad", problem);
  EXPECT_TRUE(kv.empty());
  EXPECT_NE(problem.find("OTEL_RESOURCE_ATTRIBUTES"), std::string::npos);
  EXPECT_NE(problem.find("bad"), std::string::npos);
  kv = parse_resource_attributes("k=%4", problem);
  EXPECT_TRUE(kv.empty());
  EXPECT_FALSE(problem.empty());
}

TEST(Resource, DefaultServiceNameIsMainClassOrJar) {
  EXPECT_EQ(default_service_name("com.example.Shop --port 1"), "com.example.Shop");
  EXPECT_EQ(default_service_name("/opt/app/shop-service.jar arg"), "shop-service");
  EXPECT_EQ(default_service_name(""), "unknown_service:java");
}

TEST(Resource, DetectedFactsAndSdkIdentification) {
  opentelemetry::proto::resource::v1::Resource r;
  build_resource(facts(), {}, std::nullopt, r);
  auto s = strings_of(r);
  EXPECT_EQ(s["service.name"], "com.example.Shop");
  EXPECT_EQ(s["process.pid"], "4242");
  EXPECT_EQ(s["host.name"], "node-1");
  EXPECT_EQ(s["process.runtime.name"], "OpenJDK 64-Bit Server VM");
  EXPECT_EQ(s["process.runtime.version"], "17.0.9+9");
  EXPECT_EQ(s["telemetry.sdk.name"], "jvmsight");
  EXPECT_EQ(s["telemetry.sdk.version"], "0.1.0");
  for (const auto& kv : r.attributes())
    if (kv.key() == "process.pid") {
      EXPECT_TRUE(kv.value().has_int_value());
    }
}

TEST(Resource, ServiceNamePrecedence) {
  opentelemetry::proto::resource::v1::Resource r;
  build_resource(facts(), {{"service.name", "from-attributes"}, {"host.name", "override"}}, std::nullopt, r);
  EXPECT_EQ(strings_of(r)["service.name"], "from-attributes");
  EXPECT_EQ(strings_of(r)["host.name"], "override");
  build_resource(facts(), {{"service.name", "from-attributes"}}, std::string("from-env"), r);
  EXPECT_EQ(strings_of(r)["service.name"], "from-env");
}

}  // namespace
}  // namespace jvmsight::otlp
