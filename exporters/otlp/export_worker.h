#pragma once
// One signal's export thread and the bounded queue in front of the network.
// push() only moves a batch into the queue (full: the oldest batches are
// dropped and counted), so the agent thread never waits on a collector and
// no Java thread ever does. The worker encodes, sends, and retries
// retryable failures with exponential backoff and jitter (or the server's
// RetryInfo/Retry-After), within the export timeout. shutdown() sends what
// is queued within a hard deadline and never waits longer. Metrics, traces
// and logs each have their own worker, so a slow signal never holds up the
// others.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "exporters/otlp/export_client.h"

namespace jvmsight::otlp {

// What a signal queues: converted to its Export*ServiceRequest on the
// worker's thread, not on the caller's.
class ExportBatch {
 public:
  virtual ~ExportBatch() = default;
  // What the queue bound and the counters count: 1 per metrics collection,
  // else spans or log records.
  virtual size_t items() const = 0;
  // The serialized request; false when there is nothing worth sending.
  virtual bool encode(std::string& request_bytes) = 0;
};

struct WorkerSettings {
  size_t capacity = 8;                               // items waiting
  std::chrono::milliseconds export_timeout{30000};   // one batch, all its attempts
  std::chrono::milliseconds request_timeout{10000};  // one attempt
  std::chrono::milliseconds initial_backoff{500};
  std::chrono::milliseconds max_backoff{5000};
  size_t max_request_bytes = 4 << 20;  // gRPC servers refuse more by default
};

struct WorkerStats {
  uint64_t sent = 0;      // items the collector accepted (fully or partly)
  uint64_t failed = 0;    // items given up: not retryable, or out of time
  uint64_t dropped = 0;   // items dropped unsent because the queue was full
  uint64_t rejected = 0;  // data points, spans or log records a partial success refused
  uint64_t retries = 0;
  int64_t last_success_unix_ns = 0;
  size_t queued = 0;  // items waiting
};

class ExportWorker {
 public:
  ExportWorker(Signal signal, std::unique_ptr<ExportClient> client, WorkerSettings settings);
  ~ExportWorker();
  ExportWorker(const ExportWorker&) = delete;
  ExportWorker& operator=(const ExportWorker&) = delete;

  void push(std::unique_ptr<ExportBatch> batch);
  // stop() then wait(): true if the queue was sent (or given up) in time;
  // else the thread is left to the process exit.
  bool shutdown(std::chrono::milliseconds deadline);
  // Sends what is queued, one attempt each, until `deadline` from now; takes no more.
  void stop(std::chrono::milliseconds deadline);
  // Until the queue is sent or the stop deadline passed.
  bool wait();
  WorkerStats stats() const;
  Signal signal() const { return signal_; }

 private:
  using Clock = std::chrono::steady_clock;
  void run();
  void send(const std::string& request_bytes, size_t items);
  // An accepted attempt, with its partial success if any; mutex_ held.
  void count_success(const ExportResult& result, size_t items);
  // When the current batch must be given up: its export timeout, or the shutdown deadline.
  Clock::time_point deadline_for_batch() const;

  const Signal signal_;
  std::unique_ptr<ExportClient> client_;
  const WorkerSettings settings_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_cv_;
  std::deque<std::unique_ptr<ExportBatch>> queue_;
  size_t queued_items_ = 0;
  bool stopping_ = false;
  bool done_ = false;
  Clock::time_point shutdown_deadline_;
  WorkerStats stats_;
  bool failing_ = false;         // logged once when exports start failing, once when they recover
  bool partial_logged_ = false;  // a partial success is logged once
  std::thread thread_;
};

}  // namespace jvmsight::otlp
