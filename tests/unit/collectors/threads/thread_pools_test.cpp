// ThreadPools' bookkeeping: states by pool from a walk, CPU that never goes
// back (threads ending, renamed, ended between readings), the cap by CPU and
// pool="other". What a real JVM's pools add up to is compared with
// ThreadMXBean in tests/integration/thread_pools_test.cpp.
#include "collectors/threads/thread_pools.h"

#include <gtest/gtest.h>
#include <jvmti.h>

#include <map>
#include <random>
#include <set>

namespace jvmsight {
namespace {

constexpr jint runnable = JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE;
constexpr jint blocked = JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER;
constexpr jint parked = JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_WAITING |
                        JVMTI_THREAD_STATE_WAITING_INDEFINITELY | JVMTI_THREAD_STATE_PARKED;
constexpr jint sleeping = JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_WAITING |
                          JVMTI_THREAD_STATE_WAITING_WITH_TIMEOUT | JVMTI_THREAD_STATE_SLEEPING;
constexpr int64_t ms = 1'000'000;

// A family's samples by label value ("pool" for CPU, "pool/state" for threads).
std::map<std::string, double> samples(const MetricFamilies& out, const std::string& family) {
  std::map<std::string, double> m;
  for (const auto& f : out) {
    if (f.name != family) continue;
    for (const auto& s : f.samples) {
      std::string key;
      for (const auto& l : s.labels) key += (key.empty() ? "" : "/") + l.value;
      m[key] = s.value;
    }
  }
  return m;
}

struct Walked {
  MetricFamilies out;
  std::map<std::string, double> threads, cpu;
};

// One scrape: a walk over these (mark, status) pairs, then the families.
Walked scrape(ThreadPools& pools, const std::vector<std::pair<uint32_t, jint>>& walk) {
  pools.begin_walk();
  for (auto [mark, status] : walk) pools.count(mark, status);
  pools.end_walk();
  Walked w;
  pools.add_families(w.out);
  w.threads = samples(w.out, "jvmsight_thread_pool_threads");
  w.cpu = samples(w.out, "jvmsight_thread_pool_cpu_seconds_total");
  return w;
}

TEST(ThreadPools, CountsEachPoolsThreadsByState) {
  ThreadPools pools(50);
  const uint32_t a = pools.add_thread("http-nio-8080-exec", 1, 101), b = pools.add_thread("http-nio-8080-exec", 2, 102),
                 c = pools.add_thread("http-nio-8080-exec", 3, 103), d = pools.add_thread("pool-1-thread", 4, 104);
  Walked w = scrape(pools, {{a, runnable}, {b, blocked}, {c, parked}, {d, sleeping}});
  EXPECT_EQ(w.threads["http-nio-8080-exec/RUNNABLE"], 1);
  EXPECT_EQ(w.threads["http-nio-8080-exec/BLOCKED"], 1);
  EXPECT_EQ(w.threads["http-nio-8080-exec/WAITING"], 1);
  EXPECT_EQ(w.threads["pool-1-thread/TIMED_WAITING"], 1);
  EXPECT_EQ(w.threads.size(), 4u) << "a sample for each state that has threads, none for the others";
  EXPECT_EQ(w.threads.count("other/RUNNABLE"), 0u) << "no pool past the cap";
  EXPECT_TRUE(w.cpu.empty()) << "no CPU before the first reading";
  // Before any walk, no counts either (the thread collector had none).
  ThreadPools fresh(50);
  fresh.add_thread("x", 1, 1);
  MetricFamilies out;
  fresh.add_families(out);
  EXPECT_TRUE(samples(out, "jvmsight_thread_pool_threads").empty());
}

TEST(ThreadPools, CpuKeepsWhatEndedAndRenamedThreadsUsed) {
  ThreadPools pools(50);
  const uint32_t a = pools.add_thread("burn", 11, 1), b = pools.add_thread("burn", 12, 2);
  pools.read_cpu(a, 300 * ms);
  pools.read_cpu(b, 200 * ms);
  pools.settle();
  EXPECT_DOUBLE_EQ(scrape(pools, {{a, runnable}, {b, runnable}}).cpu["burn"], 0.5);
  // b ends: its ThreadEnd record says it used 50 ms more since the reading.
  pools.thread_ended(12, 250 * ms);
  pools.remove_thread(b);
  pools.read_cpu(a, 310 * ms);
  pools.read_cpu(a, -1);  // "unknown" never lowers a reading
  pools.settle();
  EXPECT_DOUBLE_EQ(scrape(pools, {{a, runnable}}).cpu["burn"], 0.56);
  // a is renamed into another pool: what it used so far stays with "burn".
  pools.rename(a, "renamed");
  pools.read_cpu(a, 410 * ms);
  pools.settle();
  Walked w = scrape(pools, {{a, runnable}});
  EXPECT_DOUBLE_EQ(w.cpu["burn"], 0.56);
  EXPECT_DOUBLE_EQ(w.cpu["renamed"], 0.1);
  EXPECT_EQ(w.threads["renamed/RUNNABLE"], 1);
  EXPECT_EQ(w.threads.count("burn/RUNNABLE"), 0u);  // no threads left: its CPU shown once more, then forgotten
  pools.settle();
  EXPECT_EQ(scrape(pools, {{a, runnable}}).cpu.count("burn"), 0u);
}

TEST(ThreadPools, EndRecordsMatchOnlyAUniqueHash) {
  ThreadPools pools(50);
  const uint32_t a = pools.add_thread("p", 7, 1), b = pools.add_thread("q", 7, 2), c = pools.add_thread("r", 8, 3);
  pools.thread_ended(7, 900 * ms);  // a or b: neither is credited
  pools.thread_ended(9, 900 * ms);  // nobody listed
  pools.thread_ended(8, 100 * ms);
  pools.settle();
  Walked w = scrape(pools, {{a, runnable}, {b, runnable}, {c, runnable}});
  EXPECT_EQ(w.cpu["p"], 0);
  EXPECT_EQ(w.cpu["q"], 0);
  EXPECT_DOUBLE_EQ(w.cpu["r"], 0.1);
  // Once b left, a's hash is its own.
  pools.remove_thread(b);
  pools.thread_ended(7, 900 * ms);
  pools.settle();
  EXPECT_DOUBLE_EQ(scrape(pools, {{a, runnable}, {c, runnable}}).cpu["p"], 0.9);
}

// 200 pools, a cap of 50: the 50 busiest get labels, the rest add up to
// "other", and every thread is counted once.
TEST(ThreadPools, TheCapLabelsTheBusiestPoolsAndTheRestIsOther) {
  ThreadPools pools(50);
  std::vector<std::pair<uint32_t, jint>> walk;
  for (int i = 0; i < 200; ++i) {
    for (int t = 0; t < 2; ++t) {
      const uint32_t m = pools.add_thread("pool-" + std::to_string(i) + "-thread", i * 2 + t, i * 2 + t + 1);
      pools.read_cpu(m, (i + 1) * ms);  // pool i used 2 (i + 1) ms
      walk.push_back({m, parked});
    }
  }
  pools.settle();
  Walked w = scrape(pools, walk);
  std::set<std::string> labelled;
  double threads = 0, cpu = 0;
  for (const auto& [key, v] : w.threads) {
    labelled.insert(key.substr(0, key.find('/')));
    threads += v;
  }
  for (const auto& [pool, v] : w.cpu) cpu += v;
  EXPECT_EQ(labelled.size(), 51u);  // 50 and other
  EXPECT_TRUE(labelled.count("other"));
  EXPECT_EQ(threads, 400);
  for (int i = 150; i < 200; ++i) EXPECT_TRUE(w.cpu.count("pool-" + std::to_string(i) + "-thread")) << i;
  EXPECT_EQ(w.threads["other/WAITING"], 300);
  // All the CPU is there once: pools 150..199 on their own, 0..149 in other.
  EXPECT_NEAR(cpu, 2e-3 * 200 * 201 / 2, 1e-9);
}

// A labelled pool keeps its label until another used 25% more; the series
// that lost it stops, and "other" counts its later increments.
TEST(ThreadPools, ALabelMovesOnlyToAPoolThatUsedClearlyMore) {
  ThreadPools pools(1);
  const uint32_t a = pools.add_thread("a", 1, 1), b = pools.add_thread("b", 2, 2);
  pools.read_cpu(a, 100 * ms);
  pools.read_cpu(b, 120 * ms);
  pools.settle();
  Walked w = scrape(pools, {{a, runnable}, {b, runnable}});
  EXPECT_DOUBLE_EQ(w.cpu["a"], 0.1);  // a took the one free label when it appeared
  EXPECT_DOUBLE_EQ(w.cpu["other"], 0.12);
  EXPECT_EQ(w.threads["other/RUNNABLE"], 1);
  pools.read_cpu(b, 130 * ms);  // 30% more than a: b takes the label
  pools.settle();
  w = scrape(pools, {{a, runnable}, {b, runnable}});
  EXPECT_DOUBLE_EQ(w.cpu["b"], 0.13);  // its whole CPU
  EXPECT_EQ(w.cpu.count("a"), 0u);
  EXPECT_DOUBLE_EQ(w.cpu["other"], 0.12);  // what b used while it had no label
  pools.read_cpu(a, 150 * ms);
  pools.settle();
  w = scrape(pools, {{a, runnable}, {b, runnable}});
  EXPECT_DOUBLE_EQ(w.cpu["other"], 0.17);  // and a's increments since it lost its label
  EXPECT_EQ(w.cpu.count("a"), 0u) << "150 is not 25% over 130";
}

// Whatever happens (threads joining, ending, renamed, pools crossing the
// cap), no served counter ever goes back.
TEST(ThreadPools, NoCounterEverGoesBack) {
  std::mt19937 rng(37);
  ThreadPools pools(3);
  std::map<uint32_t, int64_t> live;  // mark -> cpu
  std::map<std::string, double> last;
  int32_t next_hash = 1;
  for (int round = 0; round < 400; ++round) {
    const int op = static_cast<int>(rng() % 6);
    if (op == 0 || live.size() < 3) {
      live[pools.add_thread("p" + std::to_string(rng() % 8), next_hash, next_hash)] = 0;
      ++next_hash;
    } else {
      auto it = std::next(live.begin(), static_cast<long>(rng() % live.size()));
      it->second += static_cast<int64_t>(rng() % 50) * ms;
      if (op == 1) pools.rename(it->first, "p" + std::to_string(rng() % 8));
      if (op == 2) {
        pools.remove_thread(it->first);
        live.erase(it);
      } else {
        pools.read_cpu(it->first, it->second);
      }
    }
    pools.settle();
    std::vector<std::pair<uint32_t, jint>> walk;
    for (const auto& [mark, cpu] : live) walk.push_back({mark, runnable});
    Walked w = scrape(pools, walk);
    EXPECT_LE(w.cpu.size(), 4u);
    for (const auto& [pool, v] : w.cpu) {
      if (last.count(pool)) {
        EXPECT_GE(v, last[pool]) << pool << " went back in round " << round;
      }
    }
    last = w.cpu;
    double threads = 0;
    for (const auto& [key, v] : w.threads) threads += v;
    EXPECT_EQ(threads, static_cast<double>(live.size()));
  }
}

}  // namespace
}  // namespace jvmsight
