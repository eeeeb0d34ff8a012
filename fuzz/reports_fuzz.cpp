// Thread dumps and deadlock reports built from the fuzz input: thread names,
// lock class names and stack frames hold any bytes (invalid UTF-8, quotes,
// backslashes, newlines, long strings). The JSON forms must stay valid JSON
// whatever the bytes; the text forms must simply come back.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdlib>

#include "exporters/json/json_writer.h"
#include "exporters/reports/thread_report.h"
#include "fuzz/json_check.h"

namespace {

using namespace jvmsight;

std::string text(FuzzedDataProvider& in) { return in.ConsumeRandomLengthString(512); }

LockRef lock(FuzzedDataProvider& in) { return {in.ConsumeIntegral<int32_t>(), text(in)}; }

ThreadRecord thread(FuzzedDataProvider& in) {
  ThreadRecord t;
  t.id = in.ConsumeIntegral<int64_t>();
  t.name = text(in);
  t.daemon = in.ConsumeBool();
  t.priority = in.ConsumeIntegral<int>();
  t.state = text(in);
  t.in_native = in.ConsumeBool();
  t.suspended = in.ConsumeBool();
  if (in.ConsumeBool()) t.lock = lock(in);
  if (in.ConsumeBool()) t.lock_owner_id = in.ConsumeIntegral<int64_t>();
  t.lock_owner_name = text(in);
  for (int frames = in.ConsumeIntegralInRange(0, 8); frames > 0; --frames) {
    FrameRecord f{text(in), text(in), text(in), in.ConsumeIntegral<int>(), in.ConsumeBool(), {}};
    for (int n = in.ConsumeIntegralInRange(0, 2); n > 0; --n) f.locked.push_back(lock(in));
    t.stack.push_back(std::move(f));
  }
  for (int n = in.ConsumeIntegralInRange(0, 2); n > 0; --n) t.owned_synchronizers.push_back(lock(in));
  return t;
}

DeadlockReport deadlock(FuzzedDataProvider& in) {
  DeadlockReport r;
  for (int n = in.ConsumeIntegralInRange(0, 4); n > 0; --n) {
    WaitEdge e;
    e.waiter = in.ConsumeIntegral<int64_t>();
    e.waiter_name = text(in);
    e.lock = {in.ConsumeIntegral<int32_t>(), text(in), in.ConsumeBool() ? LockKind::juc : LockKind::monitor};
    if (in.ConsumeBool()) e.owner = in.ConsumeIntegral<int64_t>();
    e.owner_name = text(in);
    r.cycle.edges.push_back(std::move(e));
  }
  for (int n = in.ConsumeIntegralInRange(0, 3); n > 0; --n) r.threads.push_back(thread(in));
  return r;
}

void must_be_json(const std::string& out) {
  if (!fuzz::JsonCheck::valid(out)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0: {  // the escaper on its own, every byte value
      std::string raw = in.ConsumeRemainingBytesAsString();
      std::string out;
      append_json_string(out, raw);
      must_be_json(out);
      JsonWriter w;
      w.begin_object().key(raw).value(raw).end_object();
      must_be_json(std::move(w).finish());
      break;
    }
    case 1: {
      std::vector<ThreadRecord> threads;
      while (in.remaining_bytes() > 0 && threads.size() < 16) threads.push_back(thread(in));
      must_be_json(threads_json(threads));
      threads_text(threads);
      break;
    }
    default: {
      std::vector<DeadlockReport> reports;
      while (in.remaining_bytes() > 0 && reports.size() < 4) reports.push_back(deadlock(in));
      must_be_json(deadlocks_json(reports));
      deadlocks_text(reports);
      break;
    }
  }
  return 0;
}
