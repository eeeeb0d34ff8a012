#pragma once
// Thread dumps and deadlock reports as text that reads like jstack's (so
// on-call engineers recognise it) and as JSON. Pure: unit-tested without a JVM.
// Locks are named by identity hash (<0x...>, System.identityHashCode), not by
// address as jstack does: the hash is stable and matches application logs.
#include <string>
#include <vector>

#include "model/deadlock.h"

namespace jvmsight {

class JsonWriter;

std::string threads_text(const std::vector<ThreadRecord>& threads);
std::string threads_json(const std::vector<ThreadRecord>& threads);

std::string deadlocks_text(const std::vector<DeadlockReport>& deadlocks);
std::string deadlocks_json(const std::vector<DeadlockReport>& deadlocks);
// Its "deadlocks" and "count" members, into an open object.
void write_deadlocks(JsonWriter& w, const std::vector<DeadlockReport>& deadlocks);

// The pieces other reports are made of (lock_order_report.h).
std::string hex(int32_t hash);  // 0x%08x: how locks are named
std::string lock_text(const LockRef& l);
std::string frame_text(const FrameRecord& f);
std::string thread_text(const ThreadRecord& t);
void write_lock(JsonWriter& w, const LockRef& l);
void write_frame(JsonWriter& w, const FrameRecord& f);
void write_thread(JsonWriter& w, const ThreadRecord& t);

}  // namespace jvmsight
