#pragma once
// The exporter's own thread and the bounded queue in front of the network.
// push() only copies into the queue (full: the oldest batch is dropped and
// counted), so the agent thread never waits on a collector and no Java
// thread ever does. The worker converts, sends, and retries retryable
// failures with exponential backoff and jitter (or the server's
// RetryInfo/Retry-After), within the export timeout. shutdown() sends what
// is queued within a hard deadline and never waits longer.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "exporters/otlp/metrics_client.h"
#include "model/telemetry.h"

namespace jvmsight::otlp {

struct WorkerSettings {
  size_t capacity = 8;                               // batches waiting (one per export interval)
  std::chrono::milliseconds export_timeout{30000};   // one batch, all its attempts
  std::chrono::milliseconds request_timeout{10000};  // one attempt
  std::chrono::milliseconds initial_backoff{500};
  std::chrono::milliseconds max_backoff{5000};
  size_t max_request_bytes = 4 << 20;  // gRPC servers refuse more by default
};

struct WorkerStats {
  uint64_t sent = 0;             // batches the collector accepted (fully or partly)
  uint64_t failed = 0;           // batches given up: not retryable, or out of time
  uint64_t dropped = 0;          // batches dropped unsent because the queue was full
  uint64_t rejected_points = 0;  // data points a partial success refused
  uint64_t retries = 0;
  int64_t last_success_unix_ns = 0;
  size_t queued = 0;
};

class ExportWorker {
 public:
  using Request = opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceRequest;
  // Fills a request from one batch; returns the number of data points.
  using Convert = std::function<size_t(const MetricFamilies&, int64_t now_unix_ns, Request&)>;

  ExportWorker(std::unique_ptr<MetricsClient> client, Convert convert, WorkerSettings settings);
  ~ExportWorker();
  ExportWorker(const ExportWorker&) = delete;
  ExportWorker& operator=(const ExportWorker&) = delete;

  void push(MetricFamilies families, int64_t now_unix_ns);
  // True if the queue was sent (or given up) in time; else the thread is
  // left to the process exit.
  bool shutdown(std::chrono::milliseconds deadline);
  WorkerStats stats() const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Batch {
    MetricFamilies families;
    int64_t unix_ns = 0;
  };
  void run();
  void send(const Request& request);
  // When the current batch must be given up: its export timeout, or the shutdown deadline.
  Clock::time_point deadline_for_batch() const;

  std::unique_ptr<MetricsClient> client_;
  Convert convert_;
  const WorkerSettings settings_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_cv_;
  std::deque<Batch> queue_;
  bool stopping_ = false;
  bool done_ = false;
  Clock::time_point shutdown_deadline_;
  WorkerStats stats_;
  bool failing_ = false;         // logged once when exports start failing, once when they recover
  bool partial_logged_ = false;  // a partial success is logged once
  std::thread thread_;
};

}  // namespace jvmsight::otlp
