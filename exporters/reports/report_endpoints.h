#pragma once
// GET /threads and GET /deadlocks: text by default, JSON with ?format=json.
// The sources run on the agent thread (the handlers only wait for them);
// nullopt means the JVM was busy or exiting.
#include <functional>
#include <optional>
#include <vector>

#include "collectors/thread_dump.h"
#include "exporters/http/http_server.h"

namespace jvmsight {

using ThreadsSource = std::function<std::optional<std::vector<ThreadRecord>>()>;
using DeadlocksSource = std::function<std::optional<std::vector<DeadlockReport>>()>;

HttpRoute threads_endpoint(ThreadsSource source);
HttpRoute deadlocks_endpoint(DeadlocksSource source);

}  // namespace jvmsight
