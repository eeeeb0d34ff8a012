#pragma once
// Comparing the agent's thread metrics with a fixture's THREADS report (what
// ThreadMXBean and Thread.getState() say), in the report's keys.
#include <map>
#include <string>
#include <vector>

#include "tests/harness/jvm_process.h"
#include "tests/harness/prometheus_text.h"

namespace jvmsight::test {

// The agent's thread counts keyed like the fixture's report (RUNNABLE,
// parked, current, ...); -1 where the agent has no such sample.
std::map<std::string, long> agent_thread_view(const PromScrape& s);

// Asks a fixture (GroundTruth.serveCommands) for a fresh "<prefix> ..." line.
std::string request_report(Process& fixture, const std::string& prefix = "THREADS");

// Scrapes, then takes the fixture's report, until both agree on `keys` (all
// keys when empty); bounded, because the JVM's own service threads may wake
// now and then. Returns "" on agreement, else the last difference.
std::string threads_agree(Process& fixture, int port, const std::vector<std::string>& keys = {});

}  // namespace jvmsight::test
