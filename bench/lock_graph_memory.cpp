// What the lock-order graph and the stuck-thread episodes hold in memory at
// their bounds (build/bench/lock_graph_memory [pileup threads]): LockOrderGraph full (1,024
// orders, 64 inversions, call sites and names of realistic length), and
// WaitEpisodes following a pileup of N waiting threads. Heap in use from
// glibc's mallinfo2 before and after; no JVM (the JVM side, LockNodes, holds
// one JNI weak reference and one map entry per lock: counted apart).
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "collectors/lock_graph/lock_order_graph.h"
#include "collectors/lock_graph/lock_order_probe.h"
#include "collectors/lock_graph/wait_episodes.h"

namespace {

size_t in_use() { return mallinfo2().uordblks; }

jvmsight::LockVertex lock(jvmsight::LockNode n) {
  return {n,
          {static_cast<int32_t>(n * 2654435761u), "com.example.orders.service.InventoryLedger$Partition",
           jvmsight::LockKind::monitor}};
}

jvmsight::FrameRecord site(int i) {
  return {"com.example.orders.service.OrderFulfilmentCoordinator",
          "reserveAndCharge" + std::to_string(i % 50),
          "OrderFulfilmentCoordinator.java",
          100 + i % 900,
          false,
          {}};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace jvmsight;
  const int pileup = argc > 1 ? std::atoi(argv[1]) : 10000;
  const size_t before = in_use();
  auto* graph = new LockOrderGraph(LockOrderProbe::max_edges, LockOrderProbe::max_inversions);
  // Pairs of locks taken both ways (an inversion each) until 64 are known,
  // then chains of orders, each with its gate, until the order bound holds.
  LockNode next = 1;
  for (size_t i = 0; graph->inversion_count() < LockOrderProbe::max_inversions; ++i) {
    LockNode a = next++, b = next++, gate = next++;
    graph->add({lock(gate), lock(a)}, lock(b), 1000 + static_cast<ThreadKey>(i), "order-worker-" + std::to_string(i),
               site(static_cast<int>(i)));
    graph->add({lock(b)}, lock(a), 2000 + static_cast<ThreadKey>(i), "order-worker-" + std::to_string(i + 1),
               site(static_cast<int>(i) + 1));
  }
  for (int i = 0; graph->edge_count() < LockOrderProbe::max_edges || graph->forgotten_edges() == 0; ++i) {
    LockNode a = next++, b = next++;
    graph->add({lock(next++), lock(a)}, lock(b), i, "request-handler-" + std::to_string(i), site(i));
  }
  const size_t graph_bytes = in_use() - before;

  const size_t before_episodes = in_use();
  auto* episodes = new WaitEpisodes(std::chrono::seconds(60));
  std::vector<LockWait> waits;
  for (int t = 0; t < pileup; ++t) waits.push_back({t, false, LockKind::monitor, 42, 7});
  auto now = std::chrono::steady_clock::now();
  episodes->observe(waits, {}, now);
  std::vector<ThreadKey> due = episodes->due_for_count(now);
  episodes->counted(due, std::vector<int64_t>(due.size(), 5), now);
  waits.clear();
  waits.shrink_to_fit();
  const size_t episode_bytes = in_use() - before_episodes;

  std::printf("RESULT graph_edges=%zu graph_inversions=%zu graph_kib=%.0f pileup=%d episodes_kib=%.0f\n",
              graph->edge_count(), graph->inversion_count(), static_cast<double>(graph_bytes) / 1024, pileup,
              static_cast<double>(episode_bytes) / 1024);
  delete episodes;
  delete graph;
  return 0;
}
