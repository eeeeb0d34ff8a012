#pragma once
// The block profile's stacks, interned with their frames already named
// (ProfileFrame: a function of FrameNames and a line): the block sampler
// names a stack on the agent thread as soon as it takes it, while the
// thread waits in it (so its classes cannot unload meanwhile), and virtual
// threads' stacks come from Java already named. Bounded as StackTable is:
// when full, a new stack counts under `other` and the drop is counted.
// Agent thread only.
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/contention_profile.h"

namespace jvmsight {

class NamedStackTable {
 public:
  static constexpr uint32_t capacity = 16384;
  static constexpr uint32_t max_depth = 64;  // deeper stacks keep their leaf-most frames
  // Ids as StackTable's: an entry's index + first_entry; 0 none, 1 other.
  static constexpr uint32_t no_stack = 0;
  static constexpr uint32_t other = 1;
  static constexpr uint32_t first_entry = 2;
  static constexpr uint64_t weight_one = 1 << 16;  // a wait, in add()'s weight

  // other_frame: the frame the "other" bucket shows (a function of the same FrameNames).
  explicit NamedStackTable(ProfileFrame other_frame) : other_frame_(other_frame) {}

  // The id of this stack (leaf first); other when the table is full or the stack empty.
  uint32_t intern(std::vector<ProfileFrame> frames);
  void add(uint32_t id, uint64_t weight, uint64_t delay_ns);

  // Every stack with waits, its contentions rounded from the weights.
  void append_to(ContentionProfile& profile) const;
  uint32_t kept() const { return static_cast<uint32_t>(entries_.size()); }
  uint64_t dropped() const { return dropped_; }

 private:
  struct Entry {
    std::vector<ProfileFrame> frames;
    uint64_t weight = 0;
    uint64_t delay_ns = 0;
  };
  static std::string_view key_of(const std::vector<ProfileFrame>& frames);

  ProfileFrame other_frame_;
  Entry other_;
  std::vector<Entry> entries_;
  // Keys are the entries' frames as bytes: their buffers never move once stored.
  std::unordered_map<std::string_view, uint32_t> ids_;
  uint64_t dropped_ = 0;
};

}  // namespace jvmsight
