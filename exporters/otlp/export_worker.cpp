#include "exporters/otlp/export_worker.h"

#include <random>

#include "common/log.h"

namespace jvmsight::otlp {

ExportWorker::ExportWorker(std::unique_ptr<MetricsClient> client, Convert convert, WorkerSettings settings)
    : client_(std::move(client)), convert_(std::move(convert)), settings_(settings) {
  thread_ = std::thread([this] { run(); });
}

ExportWorker::~ExportWorker() {
  if (thread_.joinable()) {
    if (shutdown(std::chrono::milliseconds(0)) && thread_.joinable()) thread_.join();
    if (thread_.joinable()) thread_.detach();
  }
}

void ExportWorker::push(MetricFamilies families, int64_t now_unix_ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  if (queue_.size() >= settings_.capacity) {
    queue_.pop_front();  // the oldest is the least useful: cumulative values are in the newer ones
    ++stats_.dropped;
  }
  queue_.push_back({std::move(families), now_unix_ns});
  wake_.notify_one();
}

WorkerStats ExportWorker::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  WorkerStats s = stats_;
  s.queued = queue_.size();
  return s;
}

bool ExportWorker::shutdown(std::chrono::milliseconds deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!stopping_) {
    stopping_ = true;
    shutdown_deadline_ = Clock::now() + deadline;
    wake_.notify_all();
  }
  // A little past the deadline: the last attempt's own timeout ends at it.
  bool finished =
      done_cv_.wait_until(lock, shutdown_deadline_ + std::chrono::milliseconds(50), [this] { return done_; });
  lock.unlock();
  if (finished && thread_.joinable()) thread_.join();
  return finished;
}

ExportWorker::Clock::time_point ExportWorker::deadline_for_batch() const {
  auto deadline = Clock::now() + settings_.export_timeout;
  return stopping_ ? std::min(deadline, shutdown_deadline_) : deadline;
}

void ExportWorker::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    // wait_for, not wait: GCC 12's condition_variable::wait(unique_lock&) is
    // a GLIBCXX_3.4.30 symbol, above the C++ runtime of the images the bundle
    // targets (docs/KUBERNETES.md); wait_for is inline over pthread calls.
    while (!stopping_ && queue_.empty()) wake_.wait_for(lock, std::chrono::seconds(1));
    if (queue_.empty() || (stopping_ && Clock::now() >= shutdown_deadline_)) break;
    Batch batch = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    Request request;
    size_t points = 0;
    try {
      points = convert_(batch.families, batch.unix_ns, request);
    } catch (const std::exception& e) {
      log::error("OTLP: cannot convert metrics: ", e.what());
    }
    if (points > 0) send(request);  // never an empty request
    lock.lock();
  }
  done_ = true;
  done_cv_.notify_all();
}

void ExportWorker::send(const Request& request) {
  if (request.ByteSizeLong() > settings_.max_request_bytes) {
    log::error("OTLP: a metrics request of ", request.ByteSizeLong(), " bytes exceeds the ",
               settings_.max_request_bytes, "-byte limit; not sent");
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.failed;
    return;
  }
  thread_local std::minstd_rand jitter(std::random_device{}());
  std::unique_lock<std::mutex> lock(mutex_);
  auto deadline = deadline_for_batch();
  auto backoff = settings_.initial_backoff;
  for (;;) {
    if (stopping_) deadline = std::min(deadline, shutdown_deadline_);
    auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (remaining.count() <= 0) {
      ++stats_.failed;
      return;
    }
    lock.unlock();
    ExportResult r;
    try {
      r = client_->export_metrics(request, std::min(settings_.request_timeout, remaining));
    } catch (const std::exception& e) {
      r.message = e.what();
    }
    lock.lock();
    if (r.kind == ExportResult::Kind::ok) {
      ++stats_.sent;
      stats_.last_success_unix_ns =
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
      if (failing_) log::info("OTLP: metrics export works again");
      failing_ = false;
      if (r.rejected_points > 0 || !r.message.empty()) {
        // Never retried: the collector has decided about this data.
        stats_.rejected_points += static_cast<uint64_t>(std::max<int64_t>(0, r.rejected_points));
        if (!partial_logged_)
          log::warn("OTLP: the collector rejected ", r.rejected_points, " data points: ", r.message);
        partial_logged_ = true;
      }
      return;
    }
    if (!failing_) log::warn("OTLP: metrics export failed (", r.message, "); retrying in the background");
    failing_ = true;
    // At shutdown each batch gets one attempt: no backoff fits in the deadline.
    if (r.kind == ExportResult::Kind::failed || stopping_) {
      ++stats_.failed;
      return;
    }
    // Backoff with jitter (0.5x to 1.5x) unless the server said how long.
    std::chrono::milliseconds wait = r.retry_after;
    if (wait.count() < 0) {
      std::uniform_real_distribution<double> spread(0.5, 1.5);
      wait = std::chrono::milliseconds(static_cast<int64_t>(backoff.count() * spread(jitter)));
      backoff = std::min(backoff * 2, settings_.max_backoff);
    }
    if (Clock::now() + wait >= deadline) {
      ++stats_.failed;
      return;
    }
    ++stats_.retries;
    // Shutdown cuts the wait short; the loop then re-checks the deadline.
    wake_.wait_until(lock, Clock::now() + wait, [this] { return stopping_; });
  }
}

}  // namespace jvmsight::otlp
