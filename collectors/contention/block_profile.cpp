#include "collectors/contention/block_profile.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "common/clock.h"
#include "common/jvm_calls.h"

namespace jvmsight {
namespace {

using Clock = std::chrono::steady_clock;

// The roster's list may be this old: taking it (GetAllThreads) costs
// milliseconds at 10,000 threads. A thread that started since is seen at
// the next refresh.
constexpr std::chrono::milliseconds roster_refresh{1000};

static_assert(ParkEpisodes::weight_one == NamedStackTable::weight_one);

// JDK 17's GetThreadListStackTraces takes one thread's stack in a direct
// handshake, which a parked thread's requester runs itself; several threads,
// or any on JDK 8 and 11, are one safepoint VM operation.
bool one_handshake_per_stack(jvmtiEnv* jvmti) { return jvmti_major(jvmti) >= 17; }

}  // namespace

bool BlockProfile::Rounds::due(Clock::time_point now) const {
  // A millisecond early is on time: the agent thread wakes when asked, not after.
  return last == Clock::time_point{} || now + std::chrono::milliseconds(1) >= last + planned;
}

uint64_t BlockProfile::Rounds::covered_ns(Clock::time_point now) {
  const auto since =
      last == Clock::time_point{} ? planned : std::min<std::chrono::nanoseconds>(now - last, 2 * planned);
  last = now;
  return static_cast<uint64_t>(since.count());
}

BlockProfile::BlockProfile(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, ParkedThreadScan& scan,
                           bool virtual_threads)
    : jvmti_(jvmti),
      jni_(jni),
      roster_(roster),
      scan_(scan),
      virtual_threads_(virtual_threads),
      handshakes_(one_handshake_per_stack(jvmti)),
      names_(jvmti, jni),
      table_(ProfileFrame{names_.function("[other: the stack table was full]"), 0}),
      start_wall_ns_(clock_ns(CLOCK_REALTIME)),
      start_mono_ns_(clock_ns(CLOCK_MONOTONIC)) {
  platform_.planned = virtual_.planned = interval_;
}

std::chrono::nanoseconds BlockProfile::sample() {
  const Clock::time_point now = Clock::now();
  if (platform_.due(now)) platform_round(now);
  if (virtual_threads_ && virtual_.due(now)) virtual_round(now);
  Clock::time_point next = platform_.last + platform_.planned;
  if (virtual_threads_) next = std::min(next, virtual_.last + virtual_.planned);
  return std::max<std::chrono::nanoseconds>(next - Clock::now(), std::chrono::milliseconds(1));
}

void BlockProfile::platform_round(Clock::time_point now) {
  const int64_t cpu_start = clock_ns(CLOCK_THREAD_CPUTIME_ID);
  std::chrono::nanoseconds stack_cpu{0};
  const size_t parked = platform_observe(now, stack_cpu);
  const auto cpu = std::chrono::nanoseconds(clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_start);
  cpu_ns_ += cpu.count();
  interval_ = pacing_.next(cpu - stack_cpu, parked, platform_.episodes.changed(), interval_);
  platform_.planned = interval_;
}

size_t BlockProfile::platform_observe(Clock::time_point now, std::chrono::nanoseconds& stack_cpu) {
  const auto covered = std::chrono::nanoseconds(platform_.covered_ns(now));
  if (!roster_.update(jni_, jvmti_, roster_refresh)) return 0;
  const std::vector<jthread>& threads = roster_.threads();
  LocalFrame frame(jni_, 16);
  std::optional<ParkedThreads> parked = scan_.parked(roster_.thread_array(jni_), static_cast<jsize>(threads.size()));
  if (!parked) return 0;
  std::vector<ParkObservation> seen;
  seen.reserve(parked->id.size());
  for (size_t k = 0; k < parked->id.size(); ++k) seen.push_back({parked->id[k], parked->token[k], parked->lock[k]});
  std::vector<jthread> wanted;
  const auto covered_ns = static_cast<uint64_t>(covered.count());
  for (size_t k : platform_.episodes.observe(seen, covered_ns, platform_stack_allowance(now, covered))) {
    const auto i = static_cast<size_t>(parked->index[k]);
    wanted.push_back(i < threads.size() ? threads[i] : nullptr);
  }
  charge(platform_.episodes.charge(platform_stacks(wanted, stack_cpu)));
  return seen.size();
}

size_t BlockProfile::platform_stack_allowance(Clock::time_point now, std::chrono::nanoseconds covered) const {
  if (handshakes_) return pacing_.stacks(covered, per_stack_, max_platform_stacks);
  return now >= next_stop_ ? max_platform_stacks : 0;
}

void BlockProfile::virtual_round(Clock::time_point now) {
  const int64_t cpu_start = clock_ns(CLOCK_THREAD_CPUTIME_ID);
  const auto covered = std::chrono::nanoseconds(virtual_.covered_ns(now));
  int64_t stacks_cpu = 0;
  size_t seen_count = 0;
  bool alive = true;
  LocalFrame frame(jni_, 16);
  if (std::optional<ParkedThreads> parked = scan_.parked_virtual(max_virtual_seen)) {
    alive = !parked->none_alive;
    std::vector<ParkObservation> seen;
    for (size_t k = 0; k < parked->id.size(); ++k) seen.push_back({parked->id[k], parked->token[k], parked->lock[k]});
    const size_t most = pacing_.stacks(covered, per_virtual_stack_, max_virtual_stacks);
    std::vector<jint> wanted;
    for (size_t k : virtual_.episodes.observe(seen, static_cast<uint64_t>(covered.count()), most))
      wanted.push_back(parked->index[k]);
    const int64_t stacks_start = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    std::vector<uint32_t> taken;
    for (const std::string& lines : scan_.virtual_stacks(wanted, NamedStackTable::max_depth))
      taken.push_back(lines.empty() ? NamedStackTable::no_stack : table_.intern(java_stack_frames(lines, names_)));
    stacks_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - stacks_start;
    if (!wanted.empty())
      per_virtual_stack_ = (7 * per_virtual_stack_ + std::chrono::nanoseconds(stacks_cpu) / wanted.size()) / 8;
    charge(virtual_.episodes.charge(taken));
    seen_count = seen.size();
  }
  const int64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
  cpu_ns_ += cpu;
  virtual_.planned = pacing_.next(std::chrono::nanoseconds(cpu - stacks_cpu), seen_count, virtual_.episodes.changed(),
                                  virtual_.planned, alive);
}

std::vector<uint32_t> BlockProfile::platform_stacks(const std::vector<jthread>& threads,
                                                    std::chrono::nanoseconds& stack_cpu) {
  std::vector<uint32_t> out(threads.size(), NamedStackTable::no_stack);
  auto take = [this, &out](const jthread* list, size_t count, size_t at) {
    jvmtiStackInfo* info = nullptr;
    if (jvmti_->GetThreadListStackTraces(static_cast<jint>(count), list, NamedStackTable::max_depth, &info) !=
        JVMTI_ERROR_NONE)
      return;  // one thread's: it ended
    for (size_t i = 0; i < count; ++i) out[at + i] = intern_platform(info[i]);
    jvmti_->Deallocate(reinterpret_cast<unsigned char*>(info));
  };
  if (threads.empty() || std::find(threads.begin(), threads.end(), nullptr) != threads.end()) return out;
  if (handshakes_) {
    const int64_t start = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    for (size_t i = 0; i < threads.size(); ++i) take(&threads[i], 1, i);
    stack_cpu = std::chrono::nanoseconds(clock_ns(CLOCK_THREAD_CPUTIME_ID) - start);
    // The next rounds' allowance follows what a handshake has cost lately.
    per_stack_ = (7 * per_stack_ + stack_cpu / static_cast<int64_t>(threads.size())) / 8;
  } else {
    const Clock::time_point start = Clock::now();
    take(threads.data(), threads.size(), 0);
    const Clock::time_point end = Clock::now();
    next_stop_ = end + pacing_.after_stop(end - start);
  }
  return out;
}

// Named now, while the thread waits in these frames: their classes cannot unload meanwhile.
uint32_t BlockProfile::intern_platform(const jvmtiStackInfo& info) {
  // Unparked since the Java pass saw it: this stack is no longer its wait's.
  if (!(info.state & JVMTI_THREAD_STATE_PARKED) || info.frame_count <= 0) return NamedStackTable::no_stack;
  std::vector<ProfileFrame> frames;
  frames.reserve(static_cast<size_t>(info.frame_count));
  for (jint i = 0; i < info.frame_count; ++i) frames.push_back(names_.frame(info.frame_buffer[i]));
  return table_.intern(std::move(frames));
}

void BlockProfile::charge(const std::vector<ParkCharge>& charges) {
  for (const ParkCharge& c : charges) table_.add(c.stack, c.weight, c.delay_ns);
  samples_ += charges.size();
}

ContentionProfile BlockProfile::snapshot() {
  CpuTimer timer(cpu_ns_);
  ContentionProfile p;
  table_.append_to(p);
  p.functions = names_.functions();
  p.time_ns = start_wall_ns_;
  p.duration_ns = clock_ns(CLOCK_MONOTONIC) - start_mono_ns_;
  return p;
}

ProfileCounts BlockProfile::counts() const {
  return {samples_, table_.kept(), table_.dropped(), cpu_ns_, interval_.count()};
}

}  // namespace jvmsight
