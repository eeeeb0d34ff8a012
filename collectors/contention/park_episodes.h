#pragma once
// The block profile's estimator (docs/PROFILES.md): from the threads seen
// parked on a synchronizer in each round of the sampler, what each waiting
// stack gets. Waiting time is observations x interval: a thread seen parked
// stands for the whole interval since the last round (unbiased: a wait of d
// shorter than the interval is seen with probability d / interval). A
// contention is a waiting episode, one acquisition, seen for the first time:
// a thread seen again with the same token (its queue node) is still in the
// same one, so a wait longer than the interval counts once, and a shorter
// one once when seen. A wait's stack does not change while it lasts, so it
// is taken once per episode, and only as often as its budget allows (at
// most max_stacks a round, chosen uniformly among the waits without one):
// until then what the episode is seen to wait stays pending on it, and
// goes to its stack once taken. A crowd at one lock (a pileup of thousands)
// needs no stack per wait: once lock_sample stacks were taken at a lock, a
// new wait there has its own taken one time in infer_odds and otherwise
// gets one drawn from the lock's last lock_sample, which estimates the
// lock's split between call sites without bias while it holds (a new call
// site shows up in the waits still sampled). An episode that ended before
// its stack was taken hands its pending waits to one drawn the same way (most locks
// are waited for at one call site), or, if none was yet, to the first one
// taken there. Pure.
#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace jvmsight {

struct ParkObservation {
  int64_t thread = 0;  // Thread.getId(): never reused in a JVM's life
  int32_t token = 0;   // its wait's identity; 0: unknown (then taken for the same wait)
  int32_t lock = 0;    // the synchronizer's identity hash
};

struct ParkCharge {
  uint32_t stack = 0;
  uint64_t weight = 0;  // contentions, in units of weight_one
  uint64_t delay_ns = 0;
};

class ParkEpisodes {
 public:
  static constexpr uint64_t weight_one = 1 << 16;  // the stack tables' unit
  // A thread not seen for this many rounds has ended its wait; a shorter gap
  // (it ran briefly between two parks in one acquisition) does not end it.
  static constexpr uint64_t forget_after_rounds = 4;
  // Stacks remembered per lock, and how rarely a new wait at a lock with
  // that many has its own stack taken.
  static constexpr size_t lock_sample = 8;
  static constexpr uint64_t infer_odds = 8;

  explicit ParkEpisodes(uint64_t seed = 0x9e3779b97f4a7c15ull) : random_(seed | 1) {}

  // A round's observations, each standing for interval_ns of waiting;
  // returns the indices into seen whose stacks the caller should take, at
  // most max_stacks.
  std::vector<size_t> observe(const std::vector<ParkObservation>& seen, uint64_t interval_ns, size_t max_stacks);
  // The stacks taken for observe's answer, in its order (0: could not be
  // taken, the thread moved on): what each stack gets from this round.
  std::vector<ParkCharge> charge(const std::vector<uint32_t>& taken);

  // Whether the last round differed from the one before: a wait began, or
  // fewer threads were seen waiting (ParkPacing looks less often while not).
  bool changed() const { return changed_; }
  // Waits that ended before any stack was taken at their lock, not yet handed on.
  uint64_t orphaned_delay_ns() const;

 private:
  struct Episode {
    int32_t token = 0;
    int32_t lock = 0;
    uint32_t stack = 0;  // 0 until taken
    uint64_t seen_round = 0;
    ParkCharge pending;  // seen before its stack was taken
  };
  // Bounds on the per-lock maps: past them they start afresh (what was
  // pending there is lost, counted in orphaned_delay_ns until then).
  static constexpr size_t max_locks = 1 << 16;
  // The last lock_sample stacks taken at a lock, a ring.
  struct LockStacks {
    std::array<uint32_t, lock_sample> stack{};
    uint64_t taken = 0;
  };
  uint64_t next_random();
  // A stack drawn from the lock's sample, or 0 with none; full: only from a full sample.
  uint32_t drawn_at(int32_t lock, bool full);
  void forget_ended();
  // An episode ends (or is replaced) before its stack was taken.
  void orphan(const Episode& e);

  std::unordered_map<int64_t, Episode> episodes_;  // by thread
  std::unordered_map<int32_t, LockStacks> lock_stacks_;
  std::unordered_map<int32_t, ParkCharge> orphans_;  // by lock, none taken there yet
  std::vector<ParkCharge> charges_;                  // this round's, to stacks already known
  std::vector<Episode*> wanted_;                     // observe's answer
  uint64_t round_ = 0;
  size_t last_seen_ = 0;
  bool changed_ = false;
  uint64_t random_;
};

}  // namespace jvmsight
