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
  f.java = parse_java_properties(
      "java.runtime.name=OpenJDK Runtime Environment\njava.runtime.version=17.0.9+9-Debian-1\n"
      "java.vm.vendor=Debian\njava.vm.name=OpenJDK 64-Bit Server VM\njava.vm.version=17.0.9+9-Debian-1\n"
      "java.home=/usr/lib/jvm/java-17-openjdk-amd64\nos.name=Linux\nos.version=6.1.0-13-amd64\nos.arch=amd64\n"
      "unset=\n");
  f.instance_id = random_uuid();
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

// The facts as the OpenTelemetry Java SDK's resource providers write them
// (ProcessRuntimeResource, ProcessResource, HostResource, OsResource).
TEST(Resource, DetectedFactsAndSdkIdentification) {
  opentelemetry::proto::resource::v1::Resource r;
  build_resource(facts(), {}, std::nullopt, r);
  auto s = strings_of(r);
  EXPECT_EQ(s["service.name"], "unknown_service:java");
  EXPECT_EQ(s["process.pid"], "4242");
  EXPECT_EQ(s["host.name"], "node-1");
  EXPECT_EQ(s["host.arch"], "amd64");
  EXPECT_EQ(s["os.type"], "linux");
  EXPECT_EQ(s["os.description"], "Linux 6.1.0-13-amd64");
  EXPECT_EQ(s["process.runtime.name"], "OpenJDK Runtime Environment");
  EXPECT_EQ(s["process.runtime.version"], "17.0.9+9-Debian-1");
  EXPECT_EQ(s["process.runtime.description"], "Debian OpenJDK 64-Bit Server VM 17.0.9+9-Debian-1");
  EXPECT_EQ(s["process.executable.path"], "/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
  EXPECT_EQ(s["telemetry.sdk.language"], "cpp");
  EXPECT_EQ(s.count("container.id"), 0u);  // none detected: not sent empty
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

TEST(Resource, InstanceIdIsARandomVersion4Uuid) {
  const std::string a = random_uuid(), b = random_uuid();
  EXPECT_NE(a, b);
  ASSERT_EQ(a.size(), 36u);
  for (size_t i : {8u, 13u, 18u, 23u}) EXPECT_EQ(a[i], '-') << a;
  EXPECT_EQ(a[14], '4') << a;
  EXPECT_NE(std::string("89ab").find(a[19]), std::string::npos) << a;
  opentelemetry::proto::resource::v1::Resource r;
  build_resource(facts(), {{"service.instance.id", "given"}}, std::nullopt, r);
  EXPECT_EQ(strings_of(r)["service.instance.id"], "given");
}

// Lines of real /proc/self/cgroup and mountinfo files, as Docker, containerd
// and Podman write them.
TEST(Resource, ContainerIdFromTheCgroup) {
  const std::string id = "a3b1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
  EXPECT_EQ(container_id_from("12:memory:/docker/" + id + "\n", ""), id);
  EXPECT_EQ(container_id_from("0::/system.slice/docker-" + id + ".scope\n", ""), id);
  EXPECT_EQ(container_id_from("1:name=systemd:/kubepods/burstable/pod1/cri-containerd-" + id + ".scope\n", ""), id);
  EXPECT_EQ(container_id_from("0::/\n", "650 640 0:44 /var/lib/docker/containers/" + id +
                                            "/hostname /etc/hostname rw,relatime - ext4 /dev/sda1 rw\n"),
            id);
  EXPECT_EQ(container_id_from("0::/user.slice/user-1000.slice/session-2.scope\n",
                              "25 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"),
            "");
}

TEST(Resource, HostArchAsTheConventionsSpellIt) {
  EXPECT_EQ(host_arch_of("amd64"), "amd64");
  EXPECT_EQ(host_arch_of("x86_64"), "amd64");
  EXPECT_EQ(host_arch_of("aarch64"), "arm64");
  EXPECT_EQ(host_arch_of("ppc64le"), "ppc64");
  EXPECT_EQ(host_arch_of("s390x"), "s390x");
}

}  // namespace
}  // namespace jvmsight::otlp
