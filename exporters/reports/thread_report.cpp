#include "exporters/reports/thread_report.h"

#include <cstdio>

#include "exporters/reports/json_string.h"

namespace jvmsight {
namespace {

std::string hex(int32_t hash) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", static_cast<uint32_t>(hash));
  return buf;
}

std::string lock_text(const LockRef& l) { return "<" + hex(l.identity_hash) + "> (a " + l.class_name + ")"; }

std::string frame_text(const FrameRecord& f) {
  std::string s = "\tat " + f.class_name + "." + f.method + "(";
  if (f.native) s += "Native Method";
  else if (f.file.empty()) s += "Unknown Source";
  else if (f.line >= 0) s += f.file + ":" + std::to_string(f.line);
  else s += f.file;
  return s + ")\n";
}

std::string state_text(const ThreadRecord& t) {
  std::string s = "   java.lang.Thread.State: " + t.state;
  switch (wait_verb(t)) {
    case WaitVerb::waiting_to_lock: s += " (on object monitor)"; break;
    case WaitVerb::waiting_on: s += " (on object monitor)"; break;
    case WaitVerb::parking_to_wait_for: s += " (parking)"; break;
    case WaitVerb::none: break;
  }
  return s + "\n";
}

const char* verb_text(WaitVerb v) {
  switch (v) {
    case WaitVerb::waiting_to_lock: return "waiting to lock";
    case WaitVerb::waiting_on: return "waiting on";
    case WaitVerb::parking_to_wait_for: return "parking to wait for ";  // jstack's two spaces
    case WaitVerb::none: break;
  }
  return "";
}

const char* verb_json(WaitVerb v) {
  switch (v) {
    case WaitVerb::waiting_to_lock: return "waiting_to_lock";
    case WaitVerb::waiting_on: return "waiting_on";
    case WaitVerb::parking_to_wait_for: return "parking";
    case WaitVerb::none: break;
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

void append_lock_json(std::string& s, const LockRef& l) {
  s += "{\"identity_hash\":\"" + hex(l.identity_hash) + "\",\"class\":";
  append_json_string(s, l.class_name);
  s += "}";
}

void append_thread_json(std::string& s, const ThreadRecord& t) {
  s += "{\"id\":" + std::to_string(t.id) + ",\"name\":";
  append_json_string(s, t.name);
  s += ",\"state\":";
  append_json_string(s, t.state);
  s += std::string(",\"daemon\":") + (t.daemon ? "true" : "false") + ",\"priority\":" + std::to_string(t.priority) +
       ",\"in_native\":" + (t.in_native ? "true" : "false") + ",\"suspended\":" + (t.suspended ? "true" : "false");
  s += ",\"waiting\":";
  if (t.lock) {
    s += "{\"how\":";
    append_json_string(s, verb_json(wait_verb(t)));
    s += ",\"lock\":";
    append_lock_json(s, *t.lock);
    s += ",\"owner\":";
    if (t.lock_owner_id) {
      s += "{\"id\":" + std::to_string(*t.lock_owner_id) + ",\"name\":";
      append_json_string(s, t.lock_owner_name);
      s += "}";
    } else {
      s += "null";
    }
    s += "}";
  } else {
    s += "null";
  }
  s += ",\"stack\":[";
  for (size_t i = 0; i < t.stack.size(); ++i) {
    const auto& f = t.stack[i];
    if (i) s += ",";
    s += "{\"class\":";
    append_json_string(s, f.class_name);
    s += ",\"method\":";
    append_json_string(s, f.method);
    s += ",\"file\":";
    if (f.file.empty()) s += "null";
    else append_json_string(s, f.file);
    s += ",\"line\":" + std::to_string(f.line) + ",\"native\":" + (f.native ? "true" : "false") + ",\"locked\":[";
    for (size_t k = 0; k < f.locked.size(); ++k) {
      if (k) s += ",";
      append_lock_json(s, f.locked[k]);
    }
    s += "]}";
  }
  s += "],\"owned_synchronizers\":[";
  for (size_t k = 0; k < t.owned_synchronizers.size(); ++k) {
    if (k) s += ",";
    append_lock_json(s, t.owned_synchronizers[k]);
  }
  s += "]}";
}

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
  std::string s = "{\"threads\":[";
  for (size_t i = 0; i < threads.size(); ++i) {
    if (i) s += ",";
    append_thread_json(s, threads[i]);
  }
  return s + "]}\n";
}

std::string deadlocks_text(const std::vector<DeadlockReport>& deadlocks) {
  if (deadlocks.empty()) return "No deadlock found.\n";
  std::string s;
  for (const auto& d : deadlocks) {
    s += std::string("Found one Java-level deadlock") + (d.cycle.monitor_only() ? "" : " (with ownable synchronizers)") +
         ":\n=============================\n";
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
  std::string s = "{\"deadlocks\":[";
  for (size_t i = 0; i < deadlocks.size(); ++i) {
    const auto& d = deadlocks[i];
    if (i) s += ",";
    s += std::string("{\"monitor_only\":") + (d.cycle.monitor_only() ? "true" : "false") + ",\"threads\":[";
    for (size_t k = 0; k < d.cycle.edges.size(); ++k) {
      const auto& e = d.cycle.edges[k];
      if (k) s += ",";
      s += "{\"id\":" + std::to_string(e.waiter) + ",\"name\":";
      append_json_string(s, e.waiter_name);
      s += ",\"waiting_for\":{\"kind\":\"" + std::string(e.lock.kind == LockKind::monitor ? "monitor" : "ownable_synchronizer") +
           "\",\"identity_hash\":\"" + hex(e.lock.identity_hash) + "\",\"class\":";
      append_json_string(s, e.lock.class_name);
      s += "},\"held_by\":";
      if (e.owner) {
        s += "{\"id\":" + std::to_string(*e.owner) + ",\"name\":";
        append_json_string(s, e.owner_name);
        s += "}";
      } else {
        s += "null";
      }
      s += ",\"thread\":";
      if (const ThreadRecord* t = find(d, e.waiter)) append_thread_json(s, *t);
      else s += "null";
      s += "}";
    }
    s += "]}";
  }
  return s + "],\"count\":" + std::to_string(deadlocks.size()) + "}\n";
}

}  // namespace jvmsight
