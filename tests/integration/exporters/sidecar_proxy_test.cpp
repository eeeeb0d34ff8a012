// details=local behind a service-mesh sidecar: Istio's and Envoy's inbound
// forward comes from 127.0.0.6 to the pod's own address. The client is then
// whoever reached the sidecar, anywhere, so the server must not take it for
// a local one: "local" means from loopback AND to loopback
// (docs/SECURITY.md). A real JVM listening on every address; the sidecar is a
// socket bound to 127.0.0.6 connecting to this machine's non-loopback
// address (eth0's). The check is the server's, not the JVM's: one JDK runs it.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

// This machine's first non-loopback IPv4 address that is up, or "".
std::string own_non_loopback_address() {
  ifaddrs* all = nullptr;
  if (getifaddrs(&all) != 0) return "";
  std::string found;
  for (ifaddrs* i = all; i != nullptr && found.empty(); i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET || (i->ifa_flags & IFF_LOOPBACK)) continue;
    char text[INET_ADDRSTRLEN] = {0};
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, text, sizeof(text));
    found = text;
  }
  freeifaddrs(all);
  return found;
}

// GET path from a socket bound to source, connected to target:port; the status, 0 if none.
int status_via(const std::string& source, const std::string& target, int port, const std::string& path) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  timeval five{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &five, sizeof(five));
  sockaddr_in src{}, dst{};
  src.sin_family = dst.sin_family = AF_INET;
  inet_pton(AF_INET, source.c_str(), &src.sin_addr);
  inet_pton(AF_INET, target.c_str(), &dst.sin_addr);
  dst.sin_port = htons(static_cast<uint16_t>(port));
  std::string answer;
  if (bind(fd, reinterpret_cast<sockaddr*>(&src), sizeof(src)) == 0 &&
      connect(fd, reinterpret_cast<sockaddr*>(&dst), sizeof(dst)) == 0) {
    const std::string request = "GET " + path + " HTTP/1.0\r\n\r\n";
    (void)!send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    char buf[4096];
    for (ssize_t n; (n = recv(fd, buf, sizeof(buf), 0)) > 0;) answer.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return answer.rfind("HTTP/1.1 ", 0) == 0 ? std::atoi(answer.c_str() + 9) : 0;
}

TEST(SidecarProxy, ForwardFromLoopbackToThePodAddressIsRemote) {
  const std::string pod = own_non_loopback_address();
  if (pod.empty()) GTEST_SKIP() << "this machine has no non-loopback IPv4 address";
  TempDir dir;
  Process jvm(java_command(system_jdks().list().front(),
                           {agentpath_arg("host=0.0.0.0,port=0,details=local,portfile=" + dir.path("port"))}, "Idle"));
  ASSERT_TRUE(jvm.wait_for_line("READY", 60s)) << jvm.err();
  auto port = read_portfile(dir.path("port"), 30s);
  ASSERT_TRUE(port) << jvm.err();
  EXPECT_EQ(status_via("127.0.0.6", pod, *port, "/threads"), 403) << "a sidecar's forward got thread dumps";
  EXPECT_EQ(status_via("127.0.0.6", pod, *port, "/deadlocks"), 403);
  EXPECT_EQ(status_via("127.0.0.6", pod, *port, "/metrics"), 200);  // metrics are for everyone
  // The same client to a loopback address is on this machine: local.
  EXPECT_EQ(status_via("127.0.0.6", "127.0.0.1", *port, "/threads"), 200);
  jvm.send("exit");
  EXPECT_EQ(jvm.wait(30s).value_or(-1), 0) << jvm.err();
}

}  // namespace
}  // namespace jvmsight::test
