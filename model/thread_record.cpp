#include "model/thread_record.h"

namespace jvmsight {

WaitVerb wait_verb(const ThreadRecord& t) {
  if (!t.lock) return WaitVerb::none;
  if (t.state == "BLOCKED") return WaitVerb::waiting_to_lock;
  if (!t.stack.empty() && t.stack[0].method == "park" && t.stack[0].class_name.size() >= 6 &&
      t.stack[0].class_name.compare(t.stack[0].class_name.size() - 6, 6, "Unsafe") == 0)
    return WaitVerb::parking_to_wait_for;
  return WaitVerb::waiting_on;
}

}  // namespace jvmsight
