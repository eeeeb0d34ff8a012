// The exporter's HTTP server under one flood at a time, in this process:
// how long scrapes from 127.0.0.1 take while it lasts, and how much CPU the
// server's thread spends (docs/BENCHMARKS.md, "The HTTP server under
// floods"). Attackers connect from 127.0.0.2 (tests/hostile/attacker.h);
// a TLS handshake flood is `openssl s_time -new`, a real client.
// Usage: http_flood_bench FLOOD SECONDS CPU_PERCENT
//   FLOOD: none, none-tls, hold, hold-tls, churn, body, tls-handshakes,
//          scrapes (4 clients asking for a /metrics of 5,000 series back to back)
// Prints: flood cpu_percent scrapes failed median_ms max_ms thread_cpu_percent
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "exporters/http/http_server.h"
#include "exporters/prometheus/metrics_endpoint.h"
#include "tests/harness/http_client.h"
#include "tests/harness/test_ca.h"
#include "tests/hostile/attacker.h"

using namespace jvmsight;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

// The server thread's CPU so far, in ns (the kernel's sum_exec_runtime).
long long server_thread_ns() {
  DIR* tasks = opendir("/proc/self/task");
  long long ns = -1;
  for (dirent* e; tasks && (e = readdir(tasks)) != nullptr;) {
    const std::string dir = std::string("/proc/self/task/") + e->d_name;
    std::string comm;
    std::getline(std::ifstream(dir + "/comm"), comm);
    if (comm == "jvmsight-http") std::ifstream(dir + "/schedstat") >> ns;
  }
  if (tasks) closedir(tasks);
  return ns;
}

std::vector<pid_t> start_handshake_flood(int port, int seconds) {
  std::vector<pid_t> pids;
  for (int i = 0; i < 4; ++i) {
    pid_t pid = fork();
    if (pid == 0) {
      freopen("/dev/null", "w", stdout);
      freopen("/dev/null", "w", stderr);
      const std::string target = "127.0.0.1:" + std::to_string(port), time = std::to_string(seconds);
      execlp("openssl", "openssl", "s_time", "-connect", target.c_str(), "-new", "-time", time.c_str(),
             static_cast<char*>(nullptr));
      _exit(127);
    }
    pids.push_back(pid);
  }
  return pids;
}

// One flood from 127.0.0.2 (or, for "scrapes", from 127.0.0.1) until destroyed.
class Flood {
 public:
  Flood(const std::string& flood, int port, int seconds) {
    using test::Harm;
    auto attack = [&](int threads, int connections, std::vector<Harm> harms) {
      for (int i = 0; i < threads; ++i)
        attackers_.push_back(std::make_unique<test::Attacker>("127.0.0.2", port, connections, harms));
    };
    if (flood == "hold") attack(1, 1000, {Harm::silent, Harm::trickle, Harm::partial_head});
    if (flood == "hold-tls") attack(1, 1000, {Harm::tls_stall});
    // Two attacker threads: as much as two cores can throw at the server.
    if (flood == "churn") attack(2, 200, {Harm::churn});
    if (flood == "body") attack(2, 50, {Harm::body});
    for (int i = 0; flood == "scrapes" && i < 4; ++i)
      scrapers_.emplace_back([this, port] {
        while (!stop_) test::http_get(port, "/metrics", "127.0.0.1", 10s);
      });
    if (flood == "tls-handshakes") flooders_ = start_handshake_flood(port, seconds + 2);
  }
  ~Flood() {
    attackers_.clear();
    stop_ = true;
    for (auto& t : scrapers_) t.join();
    for (pid_t pid : flooders_) {
      kill(pid, SIGTERM);
      waitpid(pid, nullptr, 0);
    }
  }

 private:
  std::vector<std::unique_ptr<test::Attacker>> attackers_;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> scrapers_;
  std::vector<pid_t> flooders_;
};

// A snapshot of `series` samples, rendered on the HTTP thread at every scrape.
class ManySeries : public MetricsSource {
 public:
  explicit ManySeries(int series) : series_(series) {}
  std::optional<MetricFamilies> metrics() override {
    MetricFamilies f;
    add_sample(add_uncatalogued_family(f, "up_like", MetricType::gauge, "h"), 1);
    auto& many = add_uncatalogued_family(f, "many", MetricType::gauge, "rendered on the HTTP thread");
    for (int i = 0; i < series_; ++i) add_sample(many, i, {{"i", std::to_string(i)}});
    return f;
  }

 private:
  const int series_;
};

std::unique_ptr<HttpServer> start_server(HttpServerConfig config, int series) {
  static ManySeries source(series);  // one server per run of this bench
  std::string error;
  auto server = HttpServer::start(std::move(config), {metrics_endpoint(source)}, error);
  if (!server) std::fprintf(stderr, "%s\n", error.c_str());
  return server;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: http_flood_bench FLOOD SECONDS CPU_PERCENT\n");
    return 2;
  }
  const std::string flood = argv[1];
  const int seconds = std::atoi(argv[2]);
  test::raise_fd_limit(4096);
  const bool tls = flood == "none-tls" || flood == "hold-tls" || flood == "tls-handshakes";
  test::TestCa ca;
  HttpServerConfig config;
  config.cpu_percent = std::atoi(argv[3]);
  if (tls) {
    test::make_test_ca(ca);
    config.tls.cert_file = ca.server_cert;
    config.tls.key_file = ca.server_key;
  }
  auto server = start_server(config, flood == "scrapes" ? 5000 : 0);
  if (!server) return 1;
  const int port = server->port();
  std::vector<double> took;
  int failed = 0;
  double cpu = 0;
  {
    Flood attack(flood, port, seconds);
    std::this_thread::sleep_for(1s);
    const long long cpu_before = server_thread_ns();
    const auto start = Clock::now();
    while (Clock::now() - start < std::chrono::seconds(seconds)) {
      const auto t = Clock::now();
      bool ok;
      if (tls) {
        auto r = test::curl({"--cacert", ca.ca_cert, "https://127.0.0.1:" + std::to_string(port) + "/metrics"});
        ok = r.exit_code == 0 && r.out.find("up_like 1") != std::string::npos;
      } else {
        ok = test::http_get(port, "/metrics", "127.0.0.1", 10s).status == 200;
      }
      took.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
      failed += !ok;
      std::this_thread::sleep_for(250ms);
    }
    const double wall_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    cpu = 100.0 * static_cast<double>(server_thread_ns() - cpu_before) / wall_ns;
  }
  std::sort(took.begin(), took.end());
  std::printf("%s %d %zu %d %.1f %.1f %.1f\n", flood.c_str(), config.cpu_percent, took.size(), failed,
              took[took.size() / 2], took.back(), cpu);
  return 0;
}
