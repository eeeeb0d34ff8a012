// The exporter as an OTLP client, against real gRPC and HTTP receivers on
// loopback scripted to misbehave: TLS with a private CA and a client
// certificate, gzip, RetryInfo / Retry-After, partial success, late replies
// and a receiver that vanishes. One JDK is enough here: this is the
// plugin's network behaviour, not the JVM's (the JVM facts are compared on
// every JDK in otlp_push_test.cpp).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "tests/harness/http_client.h"
#include "tests/harness/prometheus_text.h"
#include "tests/otlp/integration/pushing_jvm.h"

namespace jvmsight::test {
namespace {

using Clock = std::chrono::steady_clock;

long ms_between(Clock::time_point a, Clock::time_point b) {
  return static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count());
}

// A throwaway CA, a server certificate for 127.0.0.1 and a client
// certificate, made with the openssl CLI in `dir`.
bool make_certificates(const TempDir& dir) {
  if (std::system("command -v openssl >/dev/null 2>&1") != 0) return false;
  std::ofstream(dir.path("san.ext")) << "subjectAltName=IP:127.0.0.1\n";
  const std::string d = dir.path("");
  const std::string key = " -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
  const std::string script =
      "cd '" + d + "' && openssl req -x509" + key + " -keyout ca.key -out ca.pem -days 2 -subj /CN=jvmsight-test-ca" +
      " && openssl req" + key + " -keyout server.key -out server.csr -subj /CN=127.0.0.1" +
      " && openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext" +
      " -out server.pem && openssl req" + key + " -keyout client.key -out client.csr -subj /CN=jvmsight-client" +
      " && openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -out client.pem";
  return std::system(("(" + script + ") >/dev/null 2>&1").c_str()) == 0;
}

class OtlpTransport : public ::testing::TestWithParam<std::string> {
 protected:
  const std::string& protocol() const { return GetParam(); }
  const Jdk& jdk() const { return system_jdks().list().front(); }
};
INSTANTIATE_TEST_SUITE_P(Protocols, OtlpTransport, ::testing::Values("grpc", "http/protobuf"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           return i.param == "grpc" ? std::string("grpc") : std::string("http");
                         });

// https endpoint, the private CA in _CERTIFICATE, a client certificate the
// receiver requires: data arrives. Without the client certificate, nothing
// does (the TLS settings are really used).
TEST_P(OtlpTransport, TlsWithPrivateCaAndClientCertificate) {
  TempDir certs;
  if (!make_certificates(certs)) GTEST_SKIP() << "no openssl CLI to make test certificates";
  TlsFiles tls{certs.path("server.pem"), certs.path("server.key"), certs.path("ca.pem")};
  auto receiver = start_receiver(protocol(), &tls);
  ASSERT_TRUE(receiver);
  ASSERT_EQ(receiver->endpoint().rfind("https://", 0), 0u);
  auto env = push_env(*receiver, protocol());
  env["OTEL_EXPORTER_OTLP_CERTIFICATE"] = certs.path("ca.pem");
  {
    PushingJvm without_client_cert(jdk(), "ThreadStates", env);
    ASSERT_GT(without_client_cert.port, 0);
    EXPECT_FALSE(receiver->wait_for_more_than(0, 3s)) << "accepted without a client certificate";
  }
  env["OTEL_EXPORTER_OTLP_CLIENT_KEY"] = certs.path("client.key");
  env["OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE"] = certs.path("client.pem");
  PushingJvm jvm(jdk(), "ThreadStates", env);
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(receiver->wait_for_more_than(0, 20s)) << jvm.process->err();
  EXPECT_NE(find_metric(receiver->received().back().request, "jvm.thread.count"), nullptr);
}

// A TCP relay in front of a receiver that counts the bytes clients send:
// what crossed the wire, whatever the transport decodes on its side.
class CountingRelay {
 public:
  explicit CountingRelay(int target_port) : target_(target_port) {
    listener_ = listen_on_loopback(port_);
    if (listener_ < 0) return;
    thread_ = std::thread([this] { serve(); });
  }
  ~CountingRelay() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (listener_ >= 0) close(listener_);
  }
  int port() const { return port_; }
  size_t client_bytes() const { return client_bytes_; }

 private:
  void serve() {
    std::vector<std::pair<int, int>> pairs;  // client, server
    while (!stop_) {
      std::vector<pollfd> fds{{listener_, POLLIN, 0}};
      for (auto [c, s] : pairs) {
        fds.push_back({c, POLLIN, 0});
        fds.push_back({s, POLLIN, 0});
      }
      if (poll(fds.data(), fds.size(), 50) <= 0) continue;
      if (fds[0].revents & POLLIN) {
        int c = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
        int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(static_cast<uint16_t>(target_));
        if (c >= 0 && connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
          pairs.push_back({c, s});
        } else {
          if (c >= 0) close(c);
          close(s);
        }
        continue;
      }
      for (size_t i = 0; i < pairs.size(); ++i) {
        auto [c, s] = pairs[i];
        bool closed = false;
        for (int side = 0; side < 2; ++side) {
          if (!(fds[1 + 2 * i + side].revents & (POLLIN | POLLHUP | POLLERR))) continue;
          char buf[65536];
          ssize_t n = read(side == 0 ? c : s, buf, sizeof buf);
          if (n <= 0) {
            closed = true;
            break;
          }
          if (side == 0) client_bytes_ += static_cast<size_t>(n);
          (void)!write(side == 0 ? s : c, buf, static_cast<size_t>(n));
        }
        if (closed) {
          close(c);
          close(s);
          pairs.erase(pairs.begin() + static_cast<long>(i));
          break;  // the poll set changed
        }
      }
    }
    for (auto [c, s] : pairs) {
      close(c);
      close(s);
    }
  }

  int target_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<size_t> client_bytes_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// _COMPRESSION=gzip: a request carrying 60 KB of one repeated letter (a
// resource attribute) crosses the wire in a few KB, and the receiver decodes
// it whole. HTTP also says so in Content-Encoding.
TEST_P(OtlpTransport, GzipRequestsAreCompressedAndDecode) {
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  CountingRelay relay(receiver->port());
  ASSERT_GT(relay.port(), 0);
  auto env = push_env(*receiver, protocol());
  env["OTEL_EXPORTER_OTLP_ENDPOINT"] = "http://127.0.0.1:" + std::to_string(relay.port());
  env["OTEL_EXPORTER_OTLP_COMPRESSION"] = "gzip";
  env["OTEL_METRIC_EXPORT_INTERVAL"] = "1000";
  const std::string padding(60000, 'a');
  env["OTEL_RESOURCE_ATTRIBUTES"] = "padding=" + padding;
  PushingJvm jvm(jdk(), "ThreadStates", env);
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(receiver->wait_for_more_than(1, 20s)) << jvm.process->err();
  const auto got = receiver->received();
  const Received& r = got.back();
  std::string decoded;
  for (const auto& kv : r.request.resource_metrics(0).resource().attributes())
    if (kv.key() == "padding") decoded = kv.value().string_value();
  EXPECT_EQ(decoded, padding);
  EXPECT_LT(relay.client_bytes() / got.size(), 20000u) << relay.client_bytes() << " bytes for " << got.size();
  if (protocol() != "grpc") {
    EXPECT_EQ(r.headers.count("content-encoding") ? r.headers.at("content-encoding") : "", "gzip");
  }
}

// RESOURCE_EXHAUSTED / HTTP 429 and UNAVAILABLE / 503, each saying "retry in
// 2 s" (RetryInfo, Retry-After): the exporter waits as told, far longer
// than its own first backoff (0.25-0.75 s), then the data arrives.
TEST_P(OtlpTransport, RetryWaitsAsTheServerSays) {
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  receiver->script({Reply::refused(Reply::Kind::throttled, 2000ms), Reply::refused(Reply::Kind::unavailable, 2000ms)});
  PushingJvm jvm(jdk(), "ThreadStates", push_env(*receiver, protocol()));
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(receiver->wait_for_more_than(0, 20s)) << jvm.process->err();
  const auto refused = receiver->refused_at();
  ASSERT_EQ(refused.size(), 2u);
  const long first_wait = ms_between(refused[0], refused[1]);
  const long second_wait = ms_between(refused[1], receiver->received().front().at);
  EXPECT_GE(first_wait, 1900);
  EXPECT_LT(first_wait, 4000);
  EXPECT_GE(second_wait, 1900);
  EXPECT_LT(second_wait, 4000);
}

// A partial success is accepted data: never sent again, logged once, the
// rejected points counted.
TEST_P(OtlpTransport, PartialSuccessIsLoggedOnceAndNotRetried) {
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  receiver->script({Reply::partly(3, "bad points"), Reply::partly(2, "bad points")});
  auto env = push_env(*receiver, protocol());
  env["OTEL_METRIC_EXPORT_INTERVAL"] = "1500";
  PushingJvm jvm(jdk(), "ThreadStates", env);
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(receiver->wait_for_more_than(2, 20s)) << jvm.process->err();
  const auto got = receiver->received();
  EXPECT_EQ(receiver->partials_answered(), 2u);
  // A resend would follow within the backoff (under 1 s), not an interval later.
  for (size_t i = 1; i < 3; ++i) EXPECT_GE(ms_between(got[i - 1].at, got[i].at), 1000) << i;
  PromScrape s("");
  for (auto until = Clock::now() + 5s; Clock::now() < until;) {
    s = PromScrape(http_get(jvm.port, "/metrics").body);
    if (s.value("jvmsight_otlp_rejected_total", {{"signal", "metrics"}}).value_or(0) >= 5) break;
  }
  EXPECT_EQ(s.value("jvmsight_otlp_rejected_total", {{"signal", "metrics"}}).value_or(-1), 5);
  EXPECT_EQ(s.value("jvmsight_otlp_retries_total", {{"signal", "metrics"}}).value_or(-1), 0);
  EXPECT_EQ(s.value("jvmsight_otlp_exports_total", {{"signal", "metrics"}, {"result", "failed"}}).value_or(-1), 0);
  const std::string err = jvm.process->err();
  size_t logged = 0;
  for (size_t at = err.find("rejected"); at != std::string::npos; at = err.find("rejected", at + 1)) ++logged;
  EXPECT_EQ(logged, 1u) << err;
}

// A receiver that answers after 3 s: each attempt gives up at the request
// timeout (400 ms), or sooner when the batch's export timeout (1 s, all
// attempts) ends first, as the receiver sees the client leave.
TEST_P(OtlpTransport, SlowReceiverDeadlineIsRespected) {
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  receiver->set_reply_delay(3000ms);
  auto env = push_env(*receiver, protocol());
  env["OTEL_EXPORTER_OTLP_TIMEOUT"] = "400";
  env["OTEL_METRIC_EXPORT_TIMEOUT"] = "1000";
  PushingJvm jvm(jdk(), "ThreadStates", env);
  ASSERT_GT(jvm.port, 0);
  for (auto until = Clock::now() + 15s; receiver->abandoned().size() < 2 && Clock::now() < until;)
    std::this_thread::sleep_for(100ms);
  const auto waits = receiver->abandoned();
  ASSERT_GE(waits.size(), 2u) << jvm.process->err();
  long longest = 0;
  for (auto w : waits) {
    EXPECT_LE(w.count(), 800) << "an attempt outlived its 400 ms timeout";
    longest = std::max<long>(longest, w.count());
  }
  EXPECT_GE(longest, 300) << "no attempt used its 400 ms";
  EXPECT_TRUE(receiver->received().empty());
}

// The receiver takes data, then vanishes (port closed): the JVM still exits
// promptly (final flush within its ~1 s budget) and cleanly.
TEST_P(OtlpTransport, VanishedReceiverDoesNotDelayExit) {
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  PushingJvm jvm(jdk(), "ThreadStates", push_env(*receiver, protocol()));
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(receiver->wait_for_more_than(0, 20s)) << jvm.process->err();
  receiver.reset();
  std::this_thread::sleep_for(1s);  // exports now fail and retry in the background
  const auto start = Clock::now();
  jvm.process->send("exit");
  auto status = jvm.process->wait(10s);
  ASSERT_TRUE(status) << "JVM did not exit";
  EXPECT_EQ(*status, 0);
  EXPECT_LT(ms_between(start, Clock::now()), 2500);
}

}  // namespace
}  // namespace jvmsight::test
