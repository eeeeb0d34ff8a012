// The export worker against a scripted client: which answers it retries,
// how long it waits between attempts, what a full queue drops, and that
// shutdown keeps its deadline. Time is the real clock: the tests check
// lower bounds of waits (which load cannot shorten) and generous upper
// bounds only where a hang is the failure.
#include "exporters/otlp/export_worker.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "exporters/otlp/backoff.h"
#include "metrics_service.pb.h"

namespace jvmsight::otlp {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

struct Call {
  Clock::time_point at;
  milliseconds timeout;
  std::string request;
};

// What the fake collector answers, in order; `otherwise` once the script is
// spent. While `held`, a call waits until release(). A call that found the
// collector `silent` gets no answer: it returns retryable when its timeout
// ends, as a transport does.
struct Script {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<ExportResult> answers;
  ExportResult otherwise = ok();
  bool held = false;
  bool silent = false;
  std::vector<Call> calls;

  static ExportResult ok() {
    ExportResult r;
    r.kind = ExportResult::Kind::ok;
    return r;
  }
  static ExportResult answer(ExportResult::Kind kind, milliseconds retry_after = milliseconds(-1)) {
    ExportResult r;
    r.kind = kind;
    r.retry_after = retry_after;
    r.message = "scripted";
    return r;
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    held = false;
    changed.notify_all();
  }
  size_t count() {
    std::lock_guard<std::mutex> lock(mutex);
    return calls.size();
  }
  std::vector<Call> snapshot() {
    std::lock_guard<std::mutex> lock(mutex);
    return calls;
  }
};

class ScriptedClient : public ExportClient {
 public:
  explicit ScriptedClient(std::shared_ptr<Script> script) : script_(std::move(script)) {}
  ExportResult export_request(const std::string& request, milliseconds timeout) override {
    std::unique_lock<std::mutex> lock(script_->mutex);
    script_->calls.push_back({Clock::now(), timeout, request});
    script_->changed.notify_all();
    if (script_->silent && !script_->held) {
      lock.unlock();
      std::this_thread::sleep_for(timeout);
      return Script::answer(ExportResult::Kind::retryable);
    }
    while (script_->held) script_->changed.wait_for(lock, milliseconds(10));
    if (script_->answers.empty()) return script_->otherwise;
    ExportResult r = script_->answers.front();
    script_->answers.pop_front();
    return r;
  }

 private:
  std::shared_ptr<Script> script_;
};

class NamedBatch : public ExportBatch {
 public:
  NamedBatch(std::string name, size_t items) : name_(std::move(name)), items_(items) {}
  size_t items() const override { return items_; }
  bool encode(std::string& out) override {
    out = name_;
    return true;
  }

 private:
  std::string name_;
  size_t items_;
};

std::unique_ptr<ExportBatch> batch(const std::string& name, size_t items = 1) {
  return std::make_unique<NamedBatch>(name, items);
}

// Polls `done` for up to 10 s (a hang, not slowness, is the failure).
bool eventually(const std::function<bool()>& done) {
  for (auto until = Clock::now() + std::chrono::seconds(10); Clock::now() < until;) {
    if (done()) return true;
    std::this_thread::sleep_for(milliseconds(2));
  }
  return done();
}

WorkerSettings fast_settings() {
  WorkerSettings s;
  s.capacity = 8;
  s.initial_backoff = milliseconds(20);
  s.max_backoff = milliseconds(40);
  s.export_timeout = milliseconds(5000);
  s.request_timeout = milliseconds(2000);
  return s;
}

struct Fixture {
  std::shared_ptr<Script> script = std::make_shared<Script>();
  std::unique_ptr<ExportWorker> worker;
  explicit Fixture(WorkerSettings settings = fast_settings()) {
    worker = std::make_unique<ExportWorker>(Signal::metrics, std::make_unique<ScriptedClient>(script), settings);
  }
  ~Fixture() {
    script->release();
    worker->shutdown(milliseconds(2000));
  }
  WorkerStats stats() const { return worker->stats(); }
};

TEST(ExportWorker, RetriesRetryableAnswersUntilOneIsAccepted) {
  Fixture f;
  f.script->answers = {Script::answer(ExportResult::Kind::retryable), Script::answer(ExportResult::Kind::retryable)};
  f.worker->push(batch("one", 3));
  ASSERT_TRUE(eventually([&] { return f.stats().sent == 3; }));
  const WorkerStats s = f.stats();
  EXPECT_EQ(s.retries, 2u);
  EXPECT_EQ(s.failed, 0u);
  EXPECT_GT(s.last_success_unix_ns, 0);
  const auto calls = f.script->snapshot();
  ASSERT_EQ(calls.size(), 3u);
  for (const Call& c : calls) EXPECT_EQ(c.request, "one");  // the same request again, not re-encoded data
}

TEST(ExportWorker, FinalAnswersAreNotRetried) {
  Fixture f;
  f.script->answers = {Script::answer(ExportResult::Kind::failed)};
  f.worker->push(batch("refused", 2));
  f.worker->push(batch("next"));
  ASSERT_TRUE(eventually([&] { return f.stats().sent == 1; }));
  const WorkerStats s = f.stats();
  EXPECT_EQ(s.failed, 2u);
  EXPECT_EQ(s.retries, 0u);
  const auto calls = f.script->snapshot();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].request, "refused");
  EXPECT_EQ(calls[1].request, "next");
}

TEST(ExportWorker, AThrowingClientFailsTheBatchOnly) {
  class Throwing : public ExportClient {
    ExportResult export_request(const std::string&, milliseconds) override { throw std::runtime_error("boom"); }
  };
  ExportWorker worker(Signal::logs, std::make_unique<Throwing>(), fast_settings());
  worker.push(batch("x"));
  ASSERT_TRUE(eventually([&] { return worker.stats().failed == 1; }));
  EXPECT_EQ(worker.stats().retries, 0u);
  EXPECT_TRUE(worker.shutdown(milliseconds(1000)));
}

TEST(ExportWorker, WaitsWhatTheServerAskedInsteadOfItsBackoff) {
  WorkerSettings settings = fast_settings();
  settings.initial_backoff = milliseconds(1);
  Fixture f(settings);
  f.script->answers = {Script::answer(ExportResult::Kind::retryable, milliseconds(300))};
  f.worker->push(batch("later"));
  ASSERT_TRUE(eventually([&] { return f.stats().sent == 1; }));
  const auto calls = f.script->snapshot();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_GE(calls[1].at - calls[0].at, milliseconds(300));
}

TEST(ExportWorker, GivesUpAtOnceWhenTheServerAsksForMoreThanTheExportTimeout) {
  WorkerSettings settings = fast_settings();
  settings.export_timeout = milliseconds(500);
  Fixture f(settings);
  f.script->answers = {Script::answer(ExportResult::Kind::retryable, std::chrono::seconds(60))};
  f.worker->push(batch("never"));
  ASSERT_TRUE(eventually([&] { return f.stats().failed == 1; }));
  EXPECT_EQ(f.script->count(), 1u);
  EXPECT_EQ(f.stats().retries, 0u);
}

TEST(ExportWorker, BackoffDoublesUpToItsBoundAndTheExportTimeoutEndsIt) {
  WorkerSettings settings = fast_settings();
  settings.initial_backoff = milliseconds(40);
  settings.max_backoff = milliseconds(80);
  settings.export_timeout = milliseconds(700);
  settings.request_timeout = milliseconds(5000);
  Fixture f(settings);
  f.script->otherwise = Script::answer(ExportResult::Kind::retryable);
  f.worker->push(batch("doomed"));
  ASSERT_TRUE(eventually([&] { return f.stats().failed == 1; }));
  const auto calls = f.script->snapshot();
  ASSERT_GE(calls.size(), 2u);
  // Jitter is 0.5x to 1.5x of 40, 80, 80...: never shorter than half the base.
  EXPECT_GE(calls[1].at - calls[0].at, milliseconds(20));
  for (size_t i = 2; i < calls.size(); ++i) EXPECT_GE(calls[i].at - calls[i - 1].at, milliseconds(40)) << i;
  // At most 1.5x of 40 + 80 + 80 + ... fits in 700 ms: 700 / 20 would be the unbounded count.
  EXPECT_LE(calls.size(), 1u + 1u + 700u / 40u);
  EXPECT_EQ(f.stats().retries, calls.size() - 1);
  // No attempt may outlive the batch's export timeout, counted from before
  // the first. `at` is stamped when a call reaches the script, after the
  // worker computed its timeout: usually microseconds, but a thread
  // descheduled in between adds its wait (over 1 ms once, tests two at a
  // time on 2 cores, and a whole-suite run under load can stall a thread
  // for tens of ms). 200 ms of slack for that: an attempt given the request
  // timeout (5 s) instead, the bug this guards, would be over by 4 s.
  for (const Call& c : calls) EXPECT_LE(c.at + c.timeout, calls[0].at + milliseconds(900));
}

TEST(Backoff, JitterSpansHalfToOneAndAHalfOfABaseThatDoublesToItsBound) {
  Backoff low(milliseconds(100), milliseconds(350));
  Backoff high(milliseconds(100), milliseconds(350));
  const int64_t bases[] = {100, 200, 350, 350};
  for (int64_t base : bases) {
    EXPECT_EQ(low.next(milliseconds(-1), 0.0).count(), base / 2);
    EXPECT_EQ(high.next(milliseconds(-1), 0.999999).count(), base * 3 / 2 - 1);
  }
  // A server's wait is taken as it is, and does not grow the base.
  Backoff told(milliseconds(100), milliseconds(350));
  EXPECT_EQ(told.next(milliseconds(1234), 0.9).count(), 1234);
  EXPECT_EQ(told.next(milliseconds(0), 0.9).count(), 0);
  EXPECT_EQ(told.next(milliseconds(-1), 0.5).count(), 100);
}

TEST(ExportWorker, AFullQueueDropsTheOldestItemsAndCountsThem) {
  WorkerSettings settings = fast_settings();
  settings.capacity = 3;
  Fixture f(settings);
  f.script->held = true;
  f.worker->push(batch("a"));  // taken off the queue, held in the client
  ASSERT_TRUE(eventually([&] { return f.script->count() == 1; }));
  for (const char* name : {"b", "c", "d", "e"}) f.worker->push(batch(name));
  EXPECT_EQ(f.stats().dropped, 1u);  // b
  EXPECT_EQ(f.stats().queued, 3u);
  f.worker->push(batch("f", 2));  // room for two items: c and d go
  EXPECT_EQ(f.stats().dropped, 3u);
  EXPECT_EQ(f.stats().queued, 3u);
  f.worker->push(batch("too big", 4));  // alone over the bound: everything older goes, it stays
  EXPECT_EQ(f.stats().dropped, 6u);
  f.script->release();
  ASSERT_TRUE(eventually([&] { return f.stats().queued == 0 && f.script->count() == 2; }));
  ASSERT_TRUE(eventually([&] { return f.stats().sent == 5; }));
  const auto calls = f.script->snapshot();
  EXPECT_EQ(calls[0].request, "a");
  EXPECT_EQ(calls[1].request, "too big");
}

TEST(ExportWorker, ShutdownSendsWhatIsQueuedOnceEach) {
  Fixture f;
  f.script->held = true;
  f.worker->push(batch("a"));
  ASSERT_TRUE(eventually([&] { return f.script->count() == 1; }));
  f.worker->push(batch("b"));
  f.worker->push(batch("c"));
  f.script->answers = {Script::answer(ExportResult::Kind::retryable), Script::answer(ExportResult::Kind::retryable)};
  f.worker->stop(milliseconds(3000));
  f.worker->push(batch("late"));  // refused once stopping
  f.script->release();
  EXPECT_TRUE(f.worker->wait());
  const WorkerStats s = f.stats();
  // a and b were refused as retryable: at shutdown that is final, no backoff fits.
  EXPECT_EQ(s.failed, 2u);
  EXPECT_EQ(s.sent, 1u);
  EXPECT_EQ(s.retries, 0u);
  const auto calls = f.script->snapshot();
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[2].request, "c");
}

TEST(ExportWorker, ShutdownReturnsAtItsDeadlineThoughAnAttemptHangs) {
  Fixture f;
  f.script->held = true;  // a collector that never answers, nor honours timeouts
  f.worker->push(batch("a"));
  ASSERT_TRUE(eventually([&] { return f.script->count() == 1; }));
  f.worker->push(batch("b"));
  const auto stop = Clock::now();
  f.worker->stop(milliseconds(300));
  EXPECT_FALSE(f.worker->wait());
  // The deadline and wait()'s 50 ms past it, with room for a loaded machine.
  EXPECT_GE(Clock::now() - stop, milliseconds(300));
  EXPECT_LT(Clock::now() - stop, milliseconds(300 + 50 + 1000));
  f.script->release();
  EXPECT_TRUE(eventually([&] { return f.worker->wait(); }));
  EXPECT_EQ(f.script->count(), 1u);  // b's time had run out: never attempted
}

TEST(ExportWorker, AttemptsAfterTheStopEndByItsDeadline) {
  WorkerSettings settings = fast_settings();
  settings.request_timeout = milliseconds(10000);
  settings.export_timeout = milliseconds(30000);
  Fixture f(settings);
  f.script->held = true;
  f.script->otherwise = Script::answer(ExportResult::Kind::retryable);
  f.worker->push(batch("a"));
  ASSERT_TRUE(eventually([&] { return f.script->count() == 1; }));
  f.worker->push(batch("b"));
  f.worker->push(batch("c"));
  {
    std::lock_guard<std::mutex> lock(f.script->mutex);
    f.script->silent = true;  // from now on no answers, only timeouts
  }
  f.worker->stop(milliseconds(400));
  const auto stopped = Clock::now();
  f.script->release();
  EXPECT_TRUE(eventually([&] { return f.worker->wait(); }));
  const auto calls = f.script->snapshot();
  ASSERT_GE(calls.size(), 2u);  // b had time for one attempt
  EXPECT_EQ(calls[0].timeout, milliseconds(10000));
  for (size_t i = 1; i < calls.size(); ++i)
    EXPECT_LE(calls[i].at + calls[i].timeout, stopped + milliseconds(400)) << calls[i].request;
  EXPECT_EQ(f.stats().sent, 0u);
  EXPECT_EQ(f.stats().retries, 0u);
  EXPECT_GE(f.stats().failed, 2u);
}

TEST(ExportWorker, PartialSuccessIsCountedAndNotRetried) {
  Fixture f;
  opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceResponse response;
  response.mutable_partial_success()->set_rejected_data_points(5);
  response.mutable_partial_success()->set_error_message("too old");
  ExportResult partial = Script::ok();
  partial.response = response.SerializeAsString();
  f.script->answers = {partial};
  f.worker->push(batch("m"));
  ASSERT_TRUE(eventually([&] { return f.stats().sent == 1; }));
  EXPECT_EQ(f.stats().rejected, 5u);
  EXPECT_EQ(f.script->count(), 1u);
}

}  // namespace
}  // namespace jvmsight::otlp
