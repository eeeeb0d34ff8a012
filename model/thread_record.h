#pragma once
// A jstack-like picture of threads: states, stacks, the locks each owns (and
// the frame that locked them) and the lock it waits for with its owner.
// Exporter-neutral; exporters/reports renders it as text or JSON.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jvmsight {

using ThreadKey = int64_t;  // java.lang.Thread id (Thread.getId)

struct LockRef {
  int32_t identity_hash = 0;
  std::string class_name;
};

struct FrameRecord {
  std::string class_name;
  std::string method;
  std::string file;  // empty when unknown
  int line = -1;     // -1 unknown
  bool native = false;
  std::vector<LockRef> locked;  // monitors this frame locked ("- locked <...>")
};

struct ThreadRecord {
  ThreadKey id = 0;
  std::string name;
  bool daemon = false;
  int priority = 0;
  std::string state;  // java.lang.Thread.State name
  bool in_native = false;
  bool suspended = false;
  std::optional<LockRef> lock;  // the monitor it enters or waits on, or the lock it parks on
  std::optional<ThreadKey> lock_owner_id;
  std::string lock_owner_name;
  std::vector<FrameRecord> stack;
  std::vector<LockRef> owned_synchronizers;  // j.u.c. locks it owns, where known
};

// How a thread waits for its lock, in jstack's words.
enum class WaitVerb { none, waiting_to_lock, waiting_on, parking_to_wait_for };
WaitVerb wait_verb(const ThreadRecord& t);

}  // namespace jvmsight
