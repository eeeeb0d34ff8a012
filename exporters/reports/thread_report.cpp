#include "exporters/reports/thread_report.h"

#include <cstdio>

#include "exporters/json/json_writer.h"

namespace jvmsight {

std::string hex(int32_t hash) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", static_cast<uint32_t>(hash));
  return buf;
}

std::string lock_text(const LockRef& l) { return "<" + hex(l.identity_hash) + "> (a " + l.class_name + ")"; }

std::string frame_text(const FrameRecord& f) {
  std::string s = "\tat " + f.class_name + "." + f.method + "(";
  if (f.native)
    s += "Native Method";
  else if (f.file.empty())
    s += "Unknown Source";
  else if (f.line >= 0)
    s += f.file + ":" + std::to_string(f.line);
  else
    s += f.file;
  return s + ")\n";
}

namespace {

std::string state_text(const ThreadRecord& t) {
  std::string s = "   java.lang.Thread.State: " + t.state;
  switch (wait_verb(t)) {
    case WaitVerb::waiting_to_lock:
      s += " (on object monitor)";
      break;
    case WaitVerb::waiting_on:
      s += " (on object monitor)";
      break;
    case WaitVerb::parking_to_wait_for:
      s += " (parking)";
      break;
    case WaitVerb::none:
      break;
  }
  return s + "\n";
}

const char* verb_text(WaitVerb v) {
  switch (v) {
    case WaitVerb::waiting_to_lock:
      return "waiting to lock";
    case WaitVerb::waiting_on:
      return "waiting on";
    case WaitVerb::parking_to_wait_for:
      return "parking to wait for ";  // jstack's two spaces
    case WaitVerb::none:
      break;
  }
  return "";
}

const char* verb_json(WaitVerb v) {
  switch (v) {
    case WaitVerb::waiting_to_lock:
      return "waiting_to_lock";
    case WaitVerb::waiting_on:
      return "waiting_on";
    case WaitVerb::parking_to_wait_for:
      return "parking";
    case WaitVerb::none:
      break;
  }
  return "";
}

// The stack with its lock lines, as jstack prints it.
void append_stack(std::string& s, const ThreadRecord& t) {
  for (size_t i = 0; i < t.stack.size(); ++i) {
    s += frame_text(t.stack[i]);
    if (i == 0 && t.lock) s += std::string("\t- ") + verb_text(wait_verb(t)) + " " + lock_text(*t.lock) + "\n";
    for (const auto& l : t.stack[i].locked) s += "\t- locked " + lock_text(l) + "\n";
  }
}

}  // namespace

std::string thread_text(const ThreadRecord& t) {
  std::string s = "\"" + t.name + "\" #" + std::to_string(t.id) + (t.daemon ? " daemon" : "") +
                  " prio=" + std::to_string(t.priority) + (t.in_native ? " in_native" : "") +
                  (t.suspended ? " suspended" : "") + "\n";
  s += state_text(t);
  if (t.lock && t.lock_owner_id)
    s += "   Lock " + lock_text(*t.lock) + " is held by \"" + t.lock_owner_name + "\" #" +
         std::to_string(*t.lock_owner_id) + "\n";
  append_stack(s, t);
  if (!t.owned_synchronizers.empty()) {
    s += "\n   Locked ownable synchronizers:\n";
    for (const auto& l : t.owned_synchronizers) s += "\t- " + lock_text(l) + "\n";
  }
  return s + "\n";
}

void write_lock(JsonWriter& w, const LockRef& l) {
  w.begin_object().key("identity_hash").value(hex(l.identity_hash)).key("class").value(l.class_name).end_object();
}

namespace {

void write_locks(JsonWriter& w, const std::vector<LockRef>& locks) {
  w.begin_array();
  for (const auto& l : locks) write_lock(w, l);
  w.end_array();
}

}  // namespace

void write_frame(JsonWriter& w, const FrameRecord& f) {
  w.begin_object().key("class").value(f.class_name).key("method").value(f.method).key("file");
  if (f.file.empty())
    w.null();
  else
    w.value(f.file);
  w.key("line").value(f.line).key("native").value(f.native).key("locked");
  write_locks(w, f.locked);
  w.end_object();
}

namespace {

// The thread's lock, how it waits for it, and its owner; null if it waits for none.
void write_waiting(JsonWriter& w, const ThreadRecord& t) {
  if (!t.lock) {
    w.null();
    return;
  }
  w.begin_object().key("how").value(verb_json(wait_verb(t))).key("lock");
  write_lock(w, *t.lock);
  w.key("owner");
  if (t.lock_owner_id)
    w.begin_object().key("id").value(*t.lock_owner_id).key("name").value(t.lock_owner_name).end_object();
  else
    w.null();
  w.end_object();
}

}  // namespace

void write_thread(JsonWriter& w, const ThreadRecord& t) {
  w.begin_object().key("id").value(t.id).key("name").value(t.name).key("state").value(t.state);
  w.key("daemon").value(t.daemon).key("priority").value(t.priority);
  w.key("in_native").value(t.in_native).key("suspended").value(t.suspended);
  w.key("waiting");
  write_waiting(w, t);
  w.key("stack").begin_array();
  for (const auto& f : t.stack) write_frame(w, f);
  w.end_array().key("owned_synchronizers");
  write_locks(w, t.owned_synchronizers);
  w.end_object();
}

namespace {

const ThreadRecord* find(const DeadlockReport& d, ThreadKey id) {
  for (const auto& t : d.threads)
    if (t.id == id) return &t;
  return nullptr;
}

}  // namespace

std::string threads_text(const std::vector<ThreadRecord>& threads) {
  std::string s = "Full thread dump (jvmsight), " + std::to_string(threads.size()) + " platform threads:\n\n";
  for (const auto& t : threads) s += thread_text(t);
  return s;
}

std::string threads_json(const std::vector<ThreadRecord>& threads) {
  JsonWriter w;
  w.begin_object().key("threads").begin_array();
  for (const auto& t : threads) write_thread(w, t);
  w.end_array().end_object();
  return std::move(w).finish();
}

std::string deadlocks_text(const std::vector<DeadlockReport>& deadlocks) {
  if (deadlocks.empty()) return "No deadlock found.\n";
  std::string s;
  for (const auto& d : deadlocks) {
    s += std::string("Found one Java-level deadlock") +
         (d.cycle.monitor_only() ? "" : " (with ownable synchronizers)") + ":\n=============================\n";
    for (const auto& e : d.cycle.edges) {
      LockRef lock{e.lock.identity_hash, e.lock.class_name};
      s += "\"" + e.waiter_name + "\":\n";
      if (e.lock.kind == LockKind::monitor)
        s += "  waiting to lock monitor <" + hex(lock.identity_hash) + "> (a " + lock.class_name + "),\n";
      else
        s += "  waiting for ownable synchronizer <" + hex(lock.identity_hash) + ">, (a " + lock.class_name + "),\n";
      s += "  which is held by \"" + e.owner_name + "\"\n";
    }
    s += "\nJava stack information for the threads listed above:\n"
         "===================================================\n";
    for (const auto& e : d.cycle.edges) {
      s += "\"" + e.waiter_name + "\":\n";
      if (const ThreadRecord* t = find(d, e.waiter)) {
        append_stack(s, *t);
      } else {
        s += "\t(stack unavailable)\n";
      }
      if (const ThreadRecord* t = find(d, e.waiter); t && !t->owned_synchronizers.empty()) {
        s += "\n   Locked ownable synchronizers:\n";
        for (const auto& l : t->owned_synchronizers) s += "\t- " + lock_text(l) + "\n";
      }
    }
    s += "\n";
  }
  s += "Found " + std::to_string(deadlocks.size()) + (deadlocks.size() == 1 ? " deadlock.\n" : " deadlocks.\n");
  return s;
}

std::string deadlocks_json(const std::vector<DeadlockReport>& deadlocks) {
  JsonWriter w;
  w.begin_object();
  write_deadlocks(w, deadlocks);
  w.end_object();
  return std::move(w).finish();
}

void write_deadlocks(JsonWriter& w, const std::vector<DeadlockReport>& deadlocks) {
  w.key("deadlocks").begin_array();
  for (const auto& d : deadlocks) {
    w.begin_object().key("monitor_only").value(d.cycle.monitor_only()).key("threads").begin_array();
    for (const auto& e : d.cycle.edges) {
      w.begin_object().key("id").value(e.waiter).key("name").value(e.waiter_name);
      w.key("waiting_for").begin_object();
      w.key("kind").value(e.lock.kind == LockKind::monitor ? "monitor" : "ownable_synchronizer");
      w.key("identity_hash").value(hex(e.lock.identity_hash)).key("class").value(e.lock.class_name).end_object();
      w.key("held_by");
      if (e.owner)
        w.begin_object().key("id").value(*e.owner).key("name").value(e.owner_name).end_object();
      else
        w.null();
      w.key("thread");
      if (const ThreadRecord* t = find(d, e.waiter))
        write_thread(w, *t);
      else
        w.null();
      w.end_object();
    }
    w.end_array().end_object();
  }
  w.end_array().key("count").value(deadlocks.size());
}

}  // namespace jvmsight
