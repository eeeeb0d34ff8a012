#include "collectors/threads/thread_pools.h"

#include <algorithm>

#include "collectors/threads/thread_state.h"

namespace jvmsight {
namespace {

// The live states in sample order, and Thread.State's names for them.
constexpr JavaThreadState live_states[ThreadPools::live_state_count] = {
    JavaThreadState::RUNNABLE, JavaThreadState::BLOCKED, JavaThreadState::WAITING, JavaThreadState::TIMED_WAITING};

// A labelled pool yields its label only to one that used this much more.
constexpr double relabel_margin = 1.25;

double seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

}  // namespace

size_t ThreadPools::live_state_of(jint status) {
  const JavaThreadState s = java_state_of(status);
  for (size_t i = 0; i < live_state_count; ++i)
    if (live_states[i] == s) return i;
  return live_state_count;
}

uint32_t ThreadPools::pool_named(std::string_view name) {
  if (auto it = pool_ids_.find(std::string(name)); it != pool_ids_.end()) return it->second;
  uint32_t id;
  if (!free_pools_.empty()) {
    id = free_pools_.back();
    free_pools_.pop_back();
    pools_[id] = Pool{};
  } else {
    id = static_cast<uint32_t>(pools_.size());
    pools_.emplace_back();
  }
  Pool& p = pools_[id];
  p.name = std::string(name);
  // A free label is taken at once; once they are all taken, CPU decides at settle().
  p.labelled = labelled_ < cap_;
  labelled_ += p.labelled ? 1 : 0;
  overflowed_ = overflowed_ || !p.labelled;
  pool_ids_.emplace(p.name, id);
  return id;
}

uint32_t ThreadPools::add_thread(std::string_view pool, int32_t hash, int64_t tid) {
  uint32_t mark;
  if (!free_threads_.empty()) {
    mark = free_threads_.back();
    free_threads_.pop_back();
  } else {
    mark = static_cast<uint32_t>(threads_.size());
    threads_.emplace_back();
  }
  Thread& t = threads_[mark];
  t = Thread{};
  t.pool = pool_named(pool);
  t.hash = hash;
  t.tid = tid;
  t.listed = true;
  ++pools_[t.pool].threads;
  by_hash_.emplace(hash, mark);
  return mark;
}

void ThreadPools::rename(uint32_t mark, std::string_view pool) {
  Thread& t = threads_[mark];
  if (pools_[t.pool].name == pool) return;
  Pool& old = pools_[t.pool];
  old.kept_ns += t.cpu_ns - t.base_ns;
  --old.threads;
  t.base_ns = t.cpu_ns;
  t.pool = pool_named(pool);
  ++pools_[t.pool].threads;
}

void ThreadPools::read_cpu(uint32_t mark, int64_t cpu_ns) {
  Thread& t = threads_[mark];
  t.cpu_ns = std::max(t.cpu_ns, cpu_ns);
}

void ThreadPools::thread_ended(int32_t hash, int64_t cpu_ns) {
  auto [first, last] = by_hash_.equal_range(hash);
  if (first == last || std::next(first) != last) return;  // unknown, or shared by several threads
  read_cpu(first->second, cpu_ns);
}

void ThreadPools::remove_thread(uint32_t mark) {
  Thread& t = threads_[mark];
  Pool& p = pools_[t.pool];
  p.kept_ns += t.cpu_ns - t.base_ns;
  --p.threads;
  auto [first, last] = by_hash_.equal_range(t.hash);
  for (auto it = first; it != last; ++it) {
    if (it->second != mark) continue;
    by_hash_.erase(it);
    break;
  }
  t.listed = false;
  free_threads_.push_back(mark);
}

void ThreadPools::settle() {
  for (auto& [name, id] : pool_ids_) pools_[id].cpu_ns = pools_[id].kept_ns;
  for (const Thread& t : threads_)
    if (t.listed) pools_[t.pool].cpu_ns += t.cpu_ns - t.base_ns;
  drop_empty_pools();
  assign_labels();
  for (auto& [name, id] : pool_ids_) {
    Pool& p = pools_[id];
    if (!p.labelled) other_ns_ += p.cpu_ns - p.published_ns;
    p.published_ns = p.cpu_ns;
    p.settled = true;
  }
}

void ThreadPools::drop_empty_pools() {
  for (auto it = pool_ids_.begin(); it != pool_ids_.end();) {
    Pool& p = pools_[it->second];
    p.empty_settles = p.threads == 0 ? p.empty_settles + 1 : 0;
    if (p.empty_settles < 2) {
      ++it;
      continue;
    }
    // Its last increments were published (or added to "other") at the previous settle.
    labelled_ -= p.labelled ? 1 : 0;
    free_pools_.push_back(it->second);
    p = Pool{};
    it = pool_ids_.erase(it);
  }
}

void ThreadPools::assign_labels() {
  std::vector<Pool*> labelled, unlabelled;
  for (auto& [name, id] : pool_ids_) (pools_[id].labelled ? labelled : unlabelled).push_back(&pools_[id]);
  std::sort(unlabelled.begin(), unlabelled.end(), [](Pool* a, Pool* b) { return a->cpu_ns > b->cpu_ns; });
  std::sort(labelled.begin(), labelled.end(), [](Pool* a, Pool* b) { return a->cpu_ns < b->cpu_ns; });
  size_t next = 0;
  for (; next < unlabelled.size() && labelled_ < cap_; ++next, ++labelled_) unlabelled[next]->labelled = true;
  for (size_t i = 0; i < labelled.size() && next < unlabelled.size(); ++i, ++next) {
    if (static_cast<double>(unlabelled[next]->cpu_ns) <= relabel_margin * static_cast<double>(labelled[i]->cpu_ns))
      break;
    labelled[i]->labelled = false;
    unlabelled[next]->labelled = true;
  }
  overflowed_ = overflowed_ || next < unlabelled.size();
}

void ThreadPools::begin_walk() {
  counts_.assign(pools_.size(), {});
  walked_ = false;
}

void ThreadPools::add_families(MetricFamilies& out) const {
  using ByState = std::array<uint32_t, live_state_count>;
  std::vector<uint32_t> labelled;
  ByState rest{};
  for (const auto& [name, id] : pool_ids_) {
    if (pools_[id].labelled)
      labelled.push_back(id);
    else if (id < counts_.size())
      for (size_t s = 0; s < live_state_count; ++s) rest[s] += counts_[id][s];
  }
  std::sort(labelled.begin(), labelled.end(), [&](uint32_t a, uint32_t b) { return pools_[a].name < pools_[b].name; });
  if (walked_) {
    auto& threads = add_family(out, "jvmsight_thread_pool_threads");
    // States without threads are left out: at the cap that is most of 204
    // samples, and a scrape's cost grows with its text.
    auto add = [&](const std::string& pool, const ByState& by_state) {
      for (size_t s = 0; s < live_state_count; ++s)
        if (by_state[s] > 0)
          add_sample(threads, by_state[s], {{"pool", pool}, {"state", std::string(name_of(live_states[s]))}});
    };
    for (uint32_t id : labelled) add(pools_[id].name, id < counts_.size() ? counts_[id] : ByState{});
    if (overflowed_) add(other, rest);
  }
  auto& cpu = add_family(out, "jvmsight_thread_pool_cpu_seconds_total");
  for (uint32_t id : labelled)
    if (pools_[id].settled) add_sample(cpu, seconds(pools_[id].published_ns), {{"pool", pools_[id].name}});
  if (overflowed_) add_sample(cpu, seconds(other_ns_), {{"pool", other}});
  if (cpu.samples.empty()) out.pop_back();
}

}  // namespace jvmsight
