#include "collectors/contention/park_episodes.h"

#include <algorithm>
#include <utility>

namespace jvmsight {

uint64_t ParkEpisodes::next_random() {  // xorshift64
  random_ ^= random_ << 13;
  random_ ^= random_ >> 7;
  random_ ^= random_ << 17;
  return random_;
}

uint32_t ParkEpisodes::drawn_at(int32_t lock, bool full) {
  auto known = lock_stacks_.find(lock);
  if (known == lock_stacks_.end() || known->second.taken < (full ? lock_sample : 1)) return 0;
  const uint64_t held = std::min<uint64_t>(known->second.taken, lock_sample);
  return known->second.stack[next_random() % held];
}

void ParkEpisodes::orphan(const Episode& e) {
  if (e.pending.weight == 0 && e.pending.delay_ns == 0) return;
  if (uint32_t stack = drawn_at(e.lock, false)) {
    charges_.push_back({stack, e.pending.weight, e.pending.delay_ns});
    return;
  }
  if (orphans_.size() >= max_locks && !orphans_.count(e.lock)) orphans_.clear();
  ParkCharge& pool = orphans_[e.lock];
  pool.weight += e.pending.weight;
  pool.delay_ns += e.pending.delay_ns;
}

void ParkEpisodes::forget_ended() {
  for (auto it = episodes_.begin(); it != episodes_.end();) {
    if (it->second.seen_round + forget_after_rounds >= round_) {
      ++it;
      continue;
    }
    orphan(it->second);
    it = episodes_.erase(it);
  }
}

std::vector<size_t> ParkEpisodes::observe(const std::vector<ParkObservation>& seen, uint64_t interval_ns,
                                          size_t max_stacks) {
  ++round_;
  charges_.clear();
  wanted_.clear();
  forget_ended();
  bool began = false;
  std::vector<size_t> stackless;  // indices into seen
  for (size_t i = 0; i < seen.size(); ++i) {
    const ParkObservation& o = seen[i];
    auto [it, fresh] = episodes_.try_emplace(o.thread);
    Episode& e = it->second;
    // Another token is another acquisition; an unknown one (the node was not
    // found: the thread moved meanwhile) is taken for the same.
    if (!fresh && o.token != 0 && e.token != 0 && o.token != e.token) {
      if (e.stack == 0) orphan(e);
      e = Episode{};
      fresh = true;
    }
    if (e.seen_round == round_) continue;  // listed twice: counted once
    began = began || fresh;
    if (o.token != 0) e.token = o.token;
    e.lock = o.lock;
    e.seen_round = round_;
    if (fresh && next_random() % infer_odds != 0) e.stack = drawn_at(e.lock, true);
    const ParkCharge now{e.stack, fresh ? weight_one : 0, interval_ns};
    if (e.stack != 0) {
      charges_.push_back(now);
      continue;
    }
    e.pending.weight += now.weight;
    e.pending.delay_ns += now.delay_ns;
    stackless.push_back(i);
  }
  changed_ = began || seen.size() < last_seen_;
  last_seen_ = seen.size();
  // A uniform choice among the stackless: the first max_stacks of a partial shuffle.
  for (size_t i = 0; i < stackless.size() && i < max_stacks; ++i)
    std::swap(stackless[i], stackless[i + next_random() % (stackless.size() - i)]);
  if (stackless.size() > max_stacks) stackless.resize(max_stacks);
  for (size_t i : stackless) wanted_.push_back(&episodes_.at(seen[i].thread));
  return stackless;
}

std::vector<ParkCharge> ParkEpisodes::charge(const std::vector<uint32_t>& taken) {
  std::vector<ParkCharge> out = std::move(charges_);
  charges_.clear();
  for (size_t j = 0; j < wanted_.size() && j < taken.size(); ++j) {
    if (taken[j] == 0) continue;
    Episode& e = *wanted_[j];
    e.stack = taken[j];
    out.push_back({e.stack, e.pending.weight, e.pending.delay_ns});
    e.pending = {};
    if (lock_stacks_.size() >= max_locks && !lock_stacks_.count(e.lock)) lock_stacks_.clear();
    LockStacks& at = lock_stacks_[e.lock];
    at.stack[at.taken++ % lock_sample] = e.stack;
    // What ended here before any stack was known at this lock.
    auto pool = orphans_.find(e.lock);
    if (pool != orphans_.end()) {
      out.push_back({e.stack, pool->second.weight, pool->second.delay_ns});
      orphans_.erase(pool);
    }
  }
  wanted_.clear();
  return out;
}

uint64_t ParkEpisodes::orphaned_delay_ns() const {
  uint64_t sum = 0;
  for (const auto& [lock, pool] : orphans_) sum += pool.delay_ns;
  return sum;
}

}  // namespace jvmsight
