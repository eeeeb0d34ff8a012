#include "exporters/reports/lock_order_report.h"

#include <cstdio>

#include "exporters/json/json_writer.h"
#include "exporters/reports/thread_report.h"

namespace jvmsight {
namespace {

std::string lock_of(const LockId& l) { return lock_text({l.identity_hash, l.class_name}); }

const char* kind_json(LockKind k) { return k == LockKind::monitor ? "monitor" : "ownable_synchronizer"; }

std::string thread_of(ThreadKey id, const std::string& name) { return "\"" + name + "\" #" + std::to_string(id); }

void write_lock_id(JsonWriter& w, const LockId& l) {
  w.begin_object().key("kind").value(kind_json(l.kind)).key("identity_hash").value(hex(l.identity_hash));
  w.key("class").value(l.class_name).end_object();
}

void write_inversion(JsonWriter& w, const LockOrderInversion& inv) {
  w.begin_object().key("locks").begin_array();
  for (const auto& o : inv.orders) write_lock_id(w, o.from);
  w.end_array().key("orders").begin_array();
  for (const auto& o : inv.orders) {
    w.begin_object().key("thread").begin_object().key("id").value(o.thread).key("name").value(o.thread_name);
    w.end_object().key("held");
    write_lock_id(w, o.from);
    w.key("waited_for");
    write_lock_id(w, o.to);
    w.key("site");
    if (o.site.class_name.empty())
      w.null();
    else
      write_frame(w, o.site);
    w.end_object();
  }
  w.end_array().end_object();
}

}  // namespace

std::string inversion_text(const LockOrderInversion& inversion) {
  std::string s = "Lock-order inversion of " + std::to_string(inversion.orders.size()) +
                  " locks (a potential deadlock; none has formed):\n";
  for (const auto& o : inversion.orders) {
    s += "  " + thread_of(o.thread, o.thread_name) + " held " + lock_of(o.from) + " and waited for " + lock_of(o.to) +
         "\n";
    s += o.site.class_name.empty() ? "\t(call site unknown)\n" : "\t" + frame_text(o.site).substr(1);
  }
  return s + "Threads taking these locks in these orders at the same time deadlock: take them in one order.\n";
}

std::string stuck_text(const StuckThreadReport& stuck) {
  char seconds[32];
  std::snprintf(seconds, sizeof(seconds), "%.1f", stuck.seconds);
  const char* how = stuck.lock.kind == LockKind::monitor ? " to lock monitor " : " for ownable synchronizer ";
  std::string name = stuck.threads.empty() ? stuck.thread_name : stuck.threads.front().name;
  std::string s = "thread " + thread_of(stuck.thread, name) + " has waited " + seconds + " s" + how +
                  lock_of(stuck.lock) + ", held by ";
  const ThreadRecord* owner = nullptr;
  for (const auto& t : stuck.threads)
    if (stuck.owner && t.id == *stuck.owner) owner = &t;
  s += owner ? thread_of(owner->id, owner->name) : stuck.owner ? "#" + std::to_string(*stuck.owner) : "unknown";
  s += ":\n";
  for (const auto& t : stuck.threads) s += thread_text(t);
  return s;
}

std::string deadlocks_page_text(const DeadlocksPage& page) {
  std::string s = deadlocks_text(page.deadlocks);
  if (page.inversions.empty()) return s;
  s += "\nPotential deadlocks (lock-order inversions): " + std::to_string(page.inversions.size()) + "\n\n";
  for (const auto& inv : page.inversions) s += inversion_text(inv) + "\n";
  return s;
}

std::string deadlocks_page_json(const DeadlocksPage& page) {
  JsonWriter w;
  w.begin_object().key("potential_deadlocks").begin_array();
  for (const auto& inv : page.inversions) write_inversion(w, inv);
  w.end_array().key("potential_count").value(page.inversions.size());
  write_deadlocks(w, page.deadlocks);
  w.end_object();
  return std::move(w).finish();
}

}  // namespace jvmsight
