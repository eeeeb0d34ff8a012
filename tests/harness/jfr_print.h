#pragma once
// What a JFR recording holds, as the JDK's own `jfr print` says it: the
// JVM's answer where ThreadMXBean has none (virtual threads) or where its
// own events are the truth (pinning, contended monitor entries).
#include <string>
#include <vector>

#include "tests/harness/jdks.h"

namespace jvmsight::test {

struct JfrEvent {
  double seconds = 0;     // its duration
  std::string top_frame;  // "WaitSplit.fastSite(boolean)": the leaf of its stack trace, if any
};

// The events of one type (jdk.JavaMonitorEnter) in a recording, read with
// the JDK's jfr tool; a gtest failure if it cannot read it.
std::vector<JfrEvent> jfr_events(const Jdk& jdk, const std::string& file, const std::string& type);

}  // namespace jvmsight::test
