#include "exporters/otlp/export_worker.h"

#include <random>

#include "common/log.h"
#include "exporters/otlp/backoff.h"

namespace jvmsight::otlp {

ExportWorker::ExportWorker(Signal signal, std::unique_ptr<ExportClient> client, WorkerSettings settings)
    : signal_(signal), client_(std::move(client)), settings_(settings) {
  thread_ = std::thread([this] { run(); });
}

ExportWorker::~ExportWorker() {
  if (thread_.joinable()) {
    if (shutdown(std::chrono::milliseconds(0)) && thread_.joinable()) thread_.join();
    if (thread_.joinable()) thread_.detach();
  }
}

void ExportWorker::push(std::unique_ptr<ExportBatch> batch) {
  if (!batch || batch->items() == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  // The oldest is the least useful: cumulative metric values are in the
  // newer ones, and recent spans and records say more about now.
  while (!queue_.empty() && queued_items_ + batch->items() > settings_.capacity) {
    queued_items_ -= queue_.front()->items();
    stats_.dropped += queue_.front()->items();
    queue_.pop_front();
  }
  queued_items_ += batch->items();
  queue_.push_back(std::move(batch));
  wake_.notify_one();
}

WorkerStats ExportWorker::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  WorkerStats s = stats_;
  s.queued = queued_items_;
  return s;
}

bool ExportWorker::shutdown(std::chrono::milliseconds deadline) {
  stop(deadline);
  return wait();
}

void ExportWorker::stop(std::chrono::milliseconds deadline) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  stopping_ = true;
  shutdown_deadline_ = Clock::now() + deadline;
  wake_.notify_all();
}

bool ExportWorker::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
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
    std::unique_ptr<ExportBatch> batch = std::move(queue_.front());
    queue_.pop_front();
    queued_items_ -= batch->items();
    lock.unlock();
    std::string request;
    bool worth_sending = false;
    try {
      worth_sending = batch->encode(request);
    } catch (const std::exception& e) {
      log::error("OTLP: cannot convert ", signal_name(signal_), ": ", e.what());
    }
    if (worth_sending) send(request, batch->items());  // never an empty request
    lock.lock();
  }
  done_ = true;
  done_cv_.notify_all();
}

void ExportWorker::count_success(const ExportResult& r, size_t items) {
  stats_.sent += items;
  stats_.last_success_unix_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  if (failing_) log::info("OTLP: ", signal_name(signal_), " export works again");
  failing_ = false;
  if (r.rejected > 0 || !r.message.empty()) {
    // Never retried: the collector has decided about this data.
    stats_.rejected += static_cast<uint64_t>(std::max<int64_t>(0, r.rejected));
    if (!partial_logged_)
      log::warn("OTLP: the collector rejected ", r.rejected, " of the ", signal_name(signal_), ": ", r.message);
    partial_logged_ = true;
  }
}

void ExportWorker::send(const std::string& request, size_t items) {
  if (request.size() > settings_.max_request_bytes) {
    log::error("OTLP: a ", signal_name(signal_), " request of ", request.size(), " bytes exceeds the ",
               settings_.max_request_bytes, "-byte limit; not sent");
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.failed += items;
    return;
  }
  thread_local std::minstd_rand jitter(std::random_device{}());
  std::unique_lock<std::mutex> lock(mutex_);
  auto deadline = deadline_for_batch();
  Backoff backoff(settings_.initial_backoff, settings_.max_backoff);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (;;) {
    if (stopping_) deadline = std::min(deadline, shutdown_deadline_);
    auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (remaining.count() <= 0) {
      stats_.failed += items;
      return;
    }
    lock.unlock();
    ExportResult r;
    try {
      r = client_->export_request(request, std::min(settings_.request_timeout, remaining));
    } catch (const std::exception& e) {
      r.message = e.what();
    }
    if (r.kind == ExportResult::Kind::ok) read_partial_success(r);
    lock.lock();
    if (r.kind == ExportResult::Kind::ok) {
      count_success(r, items);
      return;
    }
    if (!failing_)
      log::warn("OTLP: ", signal_name(signal_), " export failed (", r.message, "); retrying in the background");
    failing_ = true;
    // At shutdown each batch gets one attempt: no backoff fits in the deadline.
    if (r.kind == ExportResult::Kind::failed || stopping_) {
      stats_.failed += items;
      return;
    }
    const std::chrono::milliseconds wait = backoff.next(r.retry_after, unit(jitter));
    if (Clock::now() + wait >= deadline) {
      stats_.failed += items;
      return;
    }
    ++stats_.retries;
    // Shutdown cuts the wait short; the loop then re-checks the deadline.
    wake_.wait_until(lock, Clock::now() + wait, [this] { return stopping_; });
  }
}

}  // namespace jvmsight::otlp
