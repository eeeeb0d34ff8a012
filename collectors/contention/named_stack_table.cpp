#include "collectors/contention/named_stack_table.h"

#include <type_traits>
#include <utility>

namespace jvmsight {

static_assert(std::has_unique_object_representations_v<ProfileFrame>, "frames compare as bytes");

std::string_view NamedStackTable::key_of(const std::vector<ProfileFrame>& frames) {
  return {reinterpret_cast<const char*>(frames.data()), frames.size() * sizeof(ProfileFrame)};
}

uint32_t NamedStackTable::intern(std::vector<ProfileFrame> frames) {
  if (frames.empty()) return other;
  if (frames.size() > max_depth) frames.resize(max_depth);
  auto found = ids_.find(key_of(frames));
  if (found != ids_.end()) return found->second;
  if (entries_.size() >= capacity) {
    ++dropped_;
    return other;
  }
  const auto id = static_cast<uint32_t>(entries_.size()) + first_entry;
  entries_.push_back({std::move(frames), 0, 0});
  ids_.emplace(key_of(entries_.back().frames), id);
  return id;
}

void NamedStackTable::add(uint32_t id, uint64_t weight, uint64_t delay_ns) {
  if (id == no_stack || (id != other && id - first_entry >= entries_.size())) return;
  Entry& e = id == other ? other_ : entries_[id - first_entry];
  e.weight += weight;
  e.delay_ns += delay_ns;
}

void NamedStackTable::append_to(ContentionProfile& profile) const {
  auto waits = [](uint64_t weight) { return static_cast<int64_t>((weight + weight_one / 2) / weight_one); };
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if (e.delay_ns == 0 && e.weight == 0) continue;
    profile.stacks.push_back(
        {static_cast<uint32_t>(i) + first_entry, e.frames, waits(e.weight), static_cast<int64_t>(e.delay_ns)});
  }
  if (other_.delay_ns > 0 || other_.weight > 0)
    profile.stacks.push_back({other, {other_frame_}, waits(other_.weight), static_cast<int64_t>(other_.delay_ns)});
  profile.dropped = dropped_;
}

}  // namespace jvmsight
