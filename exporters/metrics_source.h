#pragma once
// What an exporter asks for. The agent answers by running the collectors on
// its thread; nullopt means no snapshot could be had in time (JVM busy or
// exiting), which exporters report as unavailable rather than as zeros.
#include <functional>
#include <optional>

#include "model/telemetry.h"

namespace jvmsight {

using MetricsSource = std::function<std::optional<MetricFamilies>()>;

}  // namespace jvmsight
