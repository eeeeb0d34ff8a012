#pragma once
// The detail endpoints: GET /threads and GET /deadlocks (deadlocks formed and
// potential ones; text by default, JSON with ?format=json) and GET /gc (JSON). The sources run on the agent
// thread (the handlers only wait for them); nullopt means the JVM was busy
// or exiting.
#include <functional>
#include <optional>
#include <vector>

#include "exporters/http/http_server.h"
#include "model/deadlock.h"
#include "model/gc_report.h"
#include "model/lock_order.h"

namespace jvmsight {

using ThreadsSource = std::function<std::optional<std::vector<ThreadRecord>>()>;
using DeadlocksSource = std::function<std::optional<DeadlocksPage>()>;
using GcReportSource = std::function<std::optional<GcReport>()>;

HttpRoute threads_endpoint(ThreadsSource source);
HttpRoute deadlocks_endpoint(DeadlocksSource source);
HttpRoute gc_endpoint(GcReportSource source);

}  // namespace jvmsight
