// Model -> OTLP: semantic-convention names, units, attribute names and
// values, instrument kinds, per-bucket histogram counts, temporality.
#include "exporters/otlp/metric_conversion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "model/exponential_histogram.h"
#include "model/metric_catalogue.h"

namespace jvmsight::otlp {
namespace {

namespace pb = opentelemetry::proto::metrics::v1;
using Request = opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceRequest;

constexpr int64_t start_ns = 1'000'000'000;

MetricFamilies sample_families(double started, uint64_t fast, uint64_t slow) {
  MetricFamilies f;
  auto& states =
      add_uncatalogued_family(f, "jvm_threads_state", MetricType::gauge, "Current count of threads by state");
  add_sample(states, 7, {{"state", "RUNNABLE"}});
  add_sample(states, 3, {{"state", "TIMED_WAITING"}});
  add_sample(add_uncatalogued_family(f, "jvm_threads_started_total", MetricType::counter, "Started"), started);
  HistogramValue h;
  h.upper_bounds = {0.001, 0.01};
  h.bucket_counts = {fast, slow, 0};
  h.count = fast + slow;
  h.sum = 0.0005 * fast + 0.005 * slow;
  add_histogram(add_uncatalogued_family(f, "jvmsight_gc_pause_seconds", MetricType::histogram, "GC pauses"), h,
                {{"gc", "G1 Young Generation"}});
  add_sample(add_uncatalogued_family(f, "jvmsight_monitor_contended_enter_total", MetricType::counter, "Contended"), 12,
             {{"lock_class", "java.lang.Object"}});
  add_sample(add_uncatalogued_family(f, "jvmsight_deadlock_check_median_seconds", MetricType::gauge, "Median"), 0.002);
  add_summary(add_uncatalogued_family(f, "jvm_gc_collection_seconds", MetricType::summary, "GC time"), 5, 0.25,
              {{"gc", "G1 Young Generation"}});
  add_uncatalogued_family(f, "jvmsight_empty", MetricType::gauge, "no samples");
  return f;
}

const pb::Metric* find(const Request& r, const std::string& name) {
  for (const auto& m : r.resource_metrics(0).scope_metrics(0).metrics())
    if (m.name() == name) return &m;
  return nullptr;
}

std::string attr(const google::protobuf::RepeatedPtrField<opentelemetry::proto::common::v1::KeyValue>& kvs,
                 const std::string& key) {
  for (const auto& kv : kvs)
    if (kv.key() == key) return kv.value().string_value();
  return "<absent>";
}

Request convert(MetricConverter& c, const MetricFamilies& f, int64_t now) {
  Request r;
  opentelemetry::proto::resource::v1::Resource resource;
  resource.add_attributes()->set_key("service.name");
  c.convert(f, now, resource, r);
  return r;
}

TEST(MetricConversion, ThreadCountUsesSemanticConvention) {
  MetricConverter c(TemporalityPreference::cumulative, start_ns, "0.1.0");
  Request r = convert(c, sample_families(10, 4, 1), 2'000'000'000);
  ASSERT_EQ(r.resource_metrics_size(), 1);
  EXPECT_EQ(r.resource_metrics(0).resource().attributes(0).key(), "service.name");
  EXPECT_EQ(r.resource_metrics(0).scope_metrics(0).scope().name(), "jvmsight");
  EXPECT_EQ(r.resource_metrics(0).scope_metrics(0).scope().version(), "0.1.0");
  const pb::Metric* m = find(r, "jvm.thread.count");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->unit(), "{thread}");
  ASSERT_TRUE(m->has_sum());
  EXPECT_FALSE(m->sum().is_monotonic());
  EXPECT_EQ(m->sum().aggregation_temporality(), pb::AGGREGATION_TEMPORALITY_CUMULATIVE);
  ASSERT_EQ(m->sum().data_points_size(), 2);
  EXPECT_EQ(attr(m->sum().data_points(0).attributes(), "jvm.thread.state"), "runnable");
  EXPECT_EQ(m->sum().data_points(0).as_int(), 7);  // int, as the conventions say
  EXPECT_EQ(attr(m->sum().data_points(1).attributes(), "jvm.thread.state"), "timed_waiting");
  EXPECT_EQ(m->sum().data_points(0).start_time_unix_nano(), uint64_t(start_ns));
  EXPECT_EQ(m->sum().data_points(0).time_unix_nano(), 2'000'000'000u);
  EXPECT_EQ(find(r, "jvm_threads_state"), nullptr);
}

TEST(MetricConversion, GcDurationHistogramKeepsPerBucketCounts) {
  MetricConverter c(TemporalityPreference::cumulative, start_ns, "0.1.0");
  Request r = convert(c, sample_families(10, 4, 1), 2'000'000'000);
  const pb::Metric* m = find(r, "jvm.gc.duration");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->unit(), "s");
  ASSERT_TRUE(m->has_histogram());
  const auto& p = m->histogram().data_points(0);
  EXPECT_EQ(attr(p.attributes(), "jvm.gc.name"), "G1 Young Generation");
  ASSERT_EQ(p.explicit_bounds_size(), 2);
  ASSERT_EQ(p.bucket_counts_size(), 3);  // one more than bounds: the +Inf bucket
  EXPECT_EQ(p.bucket_counts(0), 4u);
  EXPECT_EQ(p.bucket_counts(1), 1u);  // per bucket, not cumulative (would be 5)
  EXPECT_EQ(p.bucket_counts(2), 0u);
  EXPECT_EQ(p.count(), 5u);
  EXPECT_DOUBLE_EQ(p.sum(), 0.007);
}

// jvm.gc.duration goes out with the conventions' advised boundaries (0.01,
// 0.1, 1, 10 s), the model's finer buckets merged into them.
TEST(MetricConversion, GcDurationUsesTheAdvisedBoundaries) {
  MetricFamilies f;
  HistogramValue h;
  h.upper_bounds = {0.0005, 0.001, 0.01, 0.05, 0.1, 1, 10, 30};
  h.bucket_counts = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  h.count = 45;
  h.sum = 12.5;
  add_histogram(add_uncatalogued_family(f, "jvmsight_gc_pause_seconds", MetricType::histogram, "GC pauses"), h,
                {{"gc", "G1 Young Generation"}, {"action", "end of minor GC"}});
  MetricConverter c(TemporalityPreference::cumulative, start_ns, "0.1.0");
  Request r = convert(c, f, 2'000'000'000);
  const auto& p = find(r, "jvm.gc.duration")->histogram().data_points(0);
  EXPECT_EQ(std::vector<double>(p.explicit_bounds().begin(), p.explicit_bounds().end()),
            (std::vector<double>{0.01, 0.1, 1, 10}));
  EXPECT_EQ(std::vector<uint64_t>(p.bucket_counts().begin(), p.bucket_counts().end()),
            (std::vector<uint64_t>{6, 9, 6, 7, 17}));
  EXPECT_EQ(p.count(), 45u);
  EXPECT_DOUBLE_EQ(p.sum(), 12.5);
}

TEST(MetricConversion, OtherFamiliesGoUnderJvmsightWithUnitsAndMonotonicity) {
  MetricConverter c(TemporalityPreference::cumulative, start_ns, "0.1.0");
  Request r = convert(c, sample_families(10, 4, 1), 2'000'000'000);
  const pb::Metric* enters = find(r, "jvmsight.monitor_contended_enter");
  ASSERT_NE(enters, nullptr);
  EXPECT_TRUE(enters->sum().is_monotonic());
  EXPECT_EQ(enters->unit(), "");
  EXPECT_EQ(attr(enters->sum().data_points(0).attributes(), "lock_class"), "java.lang.Object");
  const pb::Metric* median = find(r, "jvmsight.deadlock_check_median");
  ASSERT_NE(median, nullptr);
  EXPECT_EQ(median->unit(), "s");
  EXPECT_TRUE(median->has_gauge());
  const pb::Metric* started = find(r, "jvmsight.threads.started");
  ASSERT_NE(started, nullptr);
  EXPECT_TRUE(started->sum().is_monotonic());
  const pb::Metric* collections = find(r, "jvmsight.gc.collection");
  ASSERT_NE(collections, nullptr);
  // No Summary on the wire: a histogram without boundaries, one bucket.
  ASSERT_TRUE(collections->has_histogram());
  const auto& gc = collections->histogram().data_points(0);
  EXPECT_EQ(gc.count(), 5u);
  EXPECT_DOUBLE_EQ(gc.sum(), 0.25);
  EXPECT_EQ(gc.explicit_bounds_size(), 0);
  ASSERT_EQ(gc.bucket_counts_size(), 1);
  EXPECT_EQ(gc.bucket_counts(0), 5u);
  EXPECT_EQ(find(r, "jvmsight.empty"), nullptr);  // families without samples are not sent
}

TEST(MetricConversion, DeltaSendsTheChangeSinceThePreviousExport) {
  MetricConverter c(TemporalityPreference::delta, start_ns, "0.1.0");
  convert(c, sample_families(10, 4, 1), 2'000'000'000);
  Request r = convert(c, sample_families(13, 6, 1), 3'000'000'000);
  const pb::Metric* started = find(r, "jvmsight.threads.started");
  EXPECT_EQ(started->sum().aggregation_temporality(), pb::AGGREGATION_TEMPORALITY_DELTA);
  EXPECT_EQ(started->sum().data_points(0).as_double(), 3);
  EXPECT_EQ(started->sum().data_points(0).start_time_unix_nano(), 2'000'000'000u);
  const auto& h = find(r, "jvm.gc.duration")->histogram();
  EXPECT_EQ(h.aggregation_temporality(), pb::AGGREGATION_TEMPORALITY_DELTA);
  EXPECT_EQ(h.data_points(0).bucket_counts(0), 2u);
  EXPECT_EQ(h.data_points(0).bucket_counts(1), 0u);
  EXPECT_EQ(h.data_points(0).count(), 2u);
  // Up-down sums stay cumulative under every preference.
  EXPECT_EQ(find(r, "jvm.thread.count")->sum().aggregation_temporality(), pb::AGGREGATION_TEMPORALITY_CUMULATIVE);
  EXPECT_EQ(find(r, "jvm.thread.count")->sum().data_points(0).as_int(), 7);
}

TEST(MetricConversion, LowMemoryMakesOnlyHistogramsDelta) {
  MetricConverter c(TemporalityPreference::lowmemory, start_ns, "0.1.0");
  convert(c, sample_families(10, 4, 1), 2'000'000'000);
  Request r = convert(c, sample_families(13, 6, 1), 3'000'000'000);
  EXPECT_EQ(find(r, "jvmsight.threads.started")->sum().aggregation_temporality(),
            pb::AGGREGATION_TEMPORALITY_CUMULATIVE);
  EXPECT_EQ(find(r, "jvmsight.threads.started")->sum().data_points(0).as_double(), 13);
  EXPECT_EQ(find(r, "jvm.gc.duration")->histogram().aggregation_temporality(), pb::AGGREGATION_TEMPORALITY_DELTA);
}

TEST(MetricConversion, DeltaAfterAResetSendsTheWholeValue) {
  MetricConverter c(TemporalityPreference::delta, start_ns, "0.1.0");
  convert(c, sample_families(10, 4, 1), 2'000'000'000);
  Request r = convert(c, sample_families(2, 1, 0), 3'000'000'000);
  EXPECT_EQ(find(r, "jvmsight.threads.started")->sum().data_points(0).as_double(), 2);
  EXPECT_EQ(find(r, "jvm.gc.duration")->histogram().data_points(0).count(), 1u);
}

// A GC pause histogram with its exponential buckets, as the GC collector's
// PauseHistogram fills it (one explicit bucket here: the test is about the
// exponential ones).
MetricFamilies pauses(const std::vector<double>& seconds) {
  HistogramValue h{{}, {0}, 0, 0, std::nullopt};
  ExponentialHistogram e;
  for (double s : seconds) {
    e.record(s);
    ++h.bucket_counts[0];
    ++h.count;
    h.sum += s;
  }
  h.exponential = e.value();
  MetricFamilies f;
  add_histogram(add_uncatalogued_family(f, "jvmsight_gc_pause_seconds", MetricType::histogram, "GC pauses"), h,
                {{"gc", "G1 Young Generation"}, {"action", "end of minor GC"}});
  add_summary(add_uncatalogued_family(f, "jvm_gc_collection_seconds", MetricType::summary, "GC time"), 5, 0.25,
              {{"gc", "x"}});
  return f;
}

TEST(MetricConversion, ExponentialAggregationSendsExponentialHistograms) {
  const std::vector<double> seen{0.00002, 0.0004, 0.003, 0.0031, 0.25};
  MetricConverter explicit_only(TemporalityPreference::cumulative, start_ns, "0.1.0");
  EXPECT_TRUE(find(convert(explicit_only, pauses(seen), 2), "jvm.gc.duration")->has_histogram());

  MetricConverter c(TemporalityPreference::cumulative, start_ns, "0.1.0", HistogramAggregation::base2_exponential);
  Request r = convert(c, pauses(seen), 2'000'000'000);
  const pb::Metric* m = find(r, "jvm.gc.duration");
  ASSERT_TRUE(m->has_exponential_histogram());
  EXPECT_EQ(m->unit(), "s");
  EXPECT_EQ(m->exponential_histogram().aggregation_temporality(), pb::AGGREGATION_TEMPORALITY_CUMULATIVE);
  const auto& p = m->exponential_histogram().data_points(0);
  EXPECT_EQ(p.count(), seen.size());
  EXPECT_DOUBLE_EQ(p.sum(), 0.00002 + 0.0004 + 0.003 + 0.0031 + 0.25);
  EXPECT_EQ(p.start_time_unix_nano(), static_cast<uint64_t>(start_ns));
  EXPECT_EQ(attr(p.attributes(), "jvm.gc.name"), "G1 Young Generation");
  uint64_t in_buckets = p.zero_count();
  for (uint64_t n : p.positive().bucket_counts()) in_buckets += n;
  EXPECT_EQ(in_buckets, p.count());
  // Each value in the bucket of the definition: (2^(i/2^s), 2^((i+1)/2^s)].
  for (double v : seen) {
    const double i = std::ceil(std::log2(v) * std::ldexp(1.0, p.scale())) - 1 - p.positive().offset();
    ASSERT_GE(i, 0);
    ASSERT_LT(i, p.positive().bucket_counts_size());
    EXPECT_GT(p.positive().bucket_counts(static_cast<int>(i)), 0u) << v;
  }
  // A model summary has no buckets to spread: still an explicit histogram.
  EXPECT_TRUE(find(r, "jvmsight.gc.collection")->has_histogram());
}

TEST(MetricConversion, ExponentialDeltaIsWhatArrivedSinceAtTheNewScale) {
  MetricConverter c(TemporalityPreference::delta, start_ns, "0.1.0", HistogramAggregation::base2_exponential);
  convert(c, pauses({0.001, 0.0012}), 2'000'000'000);
  Request r = convert(c, pauses({0.001, 0.0012, 0.00001, 3.0}), 3'000'000'000);
  const auto& h = find(r, "jvm.gc.duration")->exponential_histogram();
  EXPECT_EQ(h.aggregation_temporality(), pb::AGGREGATION_TEMPORALITY_DELTA);
  const auto& p = h.data_points(0);
  EXPECT_EQ(p.start_time_unix_nano(), 2'000'000'000u);
  EXPECT_EQ(p.count(), 2u);
  EXPECT_DOUBLE_EQ(p.sum(), 3.00001);
  // Only the two new values' buckets, at the scale the range 10 µs .. 3 s needs.
  ExponentialHistogram only_new;
  only_new.record(0.00001);
  only_new.record(3.0);
  EXPECT_EQ(p.scale(), only_new.scale());
  uint64_t total = 0;
  for (uint64_t n : p.positive().bucket_counts()) total += n;
  EXPECT_EQ(total, 2u);
  EXPECT_EQ(p.positive().offset(), exponential_index(0.00001, p.scale()));
  EXPECT_EQ(p.positive().offset() + p.positive().bucket_counts_size() - 1, exponential_index(3.0, p.scale()));
  // lowmemory: histograms delta, exponential ones too.
  MetricConverter low(TemporalityPreference::lowmemory, start_ns, "0.1.0", HistogramAggregation::base2_exponential);
  convert(low, pauses({0.001}), 2'000'000'000);
  const Request later = convert(low, pauses({0.001, 0.002}), 3'000'000'000);
  const auto& l = find(later, "jvm.gc.duration")->exponential_histogram();
  EXPECT_EQ(l.aggregation_temporality(), pb::AGGREGATION_TEMPORALITY_DELTA);
  EXPECT_EQ(l.data_points(0).count(), 1u);
}

TEST(MetricConversion, NothingToSendLeavesTheRequestEmpty) {
  MetricConverter c(TemporalityPreference::cumulative, start_ns, "0.1.0");
  MetricFamilies empty;
  add_uncatalogued_family(empty, "jvmsight_nothing", MetricType::gauge, "");
  Request r;
  EXPECT_EQ(c.convert(empty, 1, {}, r), 0u);
  EXPECT_EQ(r.resource_metrics_size(), 0);
}

TEST(MetricConversion, RuntimeFamiliesUnderTheJvmConventionsEachOnce) {
  MetricFamilies f;
  // What /metrics serves with both client_java generations.
  for (const char* name : {"jvm_memory_pool_used_bytes", "jvm_memory_pool_bytes_used"}) {
    auto& used = add_uncatalogued_family(f, name, MetricType::gauge, "Used bytes of a given JVM memory pool.");
    add_sample(used, 40, {{"pool", "Metaspace"}});
    used.samples.back().otlp_attributes = {{"jvm.memory.type", "non_heap"}};
  }
  for (const char* name : {"jvm_memory_pool_max_bytes", "jvm_memory_pool_bytes_max"}) {
    auto& max = add_uncatalogued_family(f, name, MetricType::gauge, "Max bytes of a given JVM memory pool.");
    add_sample(max, -1, {{"pool", "Metaspace"}});  // undefined
    add_sample(max, 512, {{"pool", "G1 Old Gen"}});
  }
  for (const char* name : {"jvm_memory_used_bytes", "jvm_memory_bytes_used"}) {
    auto& used = add_uncatalogued_family(f, name, MetricType::gauge, "Used bytes of a given JVM memory area.");
    add_sample(used, 100, {{"area", "heap"}});
    add_sample(used, 50, {{"area", "nonheap"}});
  }
  add_sample(add_uncatalogued_family(f, "jvm_info", MetricType::gauge, "VM version info"), 1, {{"version", "17"}});
  add_sample(add_uncatalogued_family(f, "jvm_classes_loaded", MetricType::gauge, "loaded"), 900);
  add_sample(add_uncatalogued_family(f, "jvm_classes_loaded_total", MetricType::counter, "loaded"), 950);
  add_sample(add_uncatalogued_family(f, "jvm_buffer_pool_used_buffers", MetricType::gauge, "buffers"), 3,
             {{"pool", "direct"}});
  add_sample(add_uncatalogued_family(f, "process_cpu_seconds_total", MetricType::counter, "cpu"), 1.5);
  auto& states = add_uncatalogued_family(f, "jvm_threads_state", MetricType::gauge, "states");
  add_sample(states, 4, {{"state", "RUNNABLE"}});
  add_sample(states, 0, {{"state", "UNKNOWN"}});
  MetricConverter c(TemporalityPreference::cumulative, start_ns, "0.1.0");
  Request r = convert(c, f, 2'000'000'000);

  std::set<std::string> names;
  for (const auto& m : r.resource_metrics(0).scope_metrics(0).metrics())
    EXPECT_TRUE(names.insert(m.name()).second) << "sent twice: " << m.name();
  EXPECT_EQ(names, (std::set<std::string>{"jvm.memory.used", "jvm.memory.limit", "jvmsight.memory.area.used",
                                          "jvm.class.loaded", "jvm.buffer.count", "jvm.cpu.time", "jvm.thread.count"}));
  const pb::Metric* used = find(r, "jvm.memory.used");
  EXPECT_EQ(used->unit(), "By");
  EXPECT_FALSE(used->sum().is_monotonic());
  EXPECT_EQ(attr(used->sum().data_points(0).attributes(), "jvm.memory.pool.name"), "Metaspace");
  EXPECT_EQ(attr(used->sum().data_points(0).attributes(), "jvm.memory.type"), "non_heap");
  EXPECT_EQ(used->sum().data_points(0).as_int(), 40);
  const pb::Metric* limit = find(r, "jvm.memory.limit");
  ASSERT_EQ(limit->sum().data_points_size(), 1) << "an undefined limit is not a limit of -1";
  EXPECT_EQ(attr(limit->sum().data_points(0).attributes(), "jvm.memory.pool.name"), "G1 Old Gen");
  const pb::Metric* area = find(r, "jvmsight.memory.area.used");
  EXPECT_EQ(attr(area->gauge().data_points(1).attributes(), "jvm.memory.type"), "non_heap");
  EXPECT_TRUE(find(r, "jvm.class.loaded")->sum().is_monotonic());
  EXPECT_EQ(attr(find(r, "jvm.buffer.count")->sum().data_points(0).attributes(), "jvm.buffer.pool.name"), "direct");
  EXPECT_EQ(find(r, "jvm.cpu.time")->unit(), "s");
  const pb::Metric* threads = find(r, "jvm.thread.count");
  ASSERT_EQ(threads->sum().data_points_size(), 1) << "UNKNOWN is no jvm.thread.state value";
  EXPECT_EQ(attr(threads->sum().data_points(0).attributes(), "jvm.thread.state"), "runnable");
}

// jvm.thread.daemon x jvm.thread.state: from the daemon split when the
// collector has one (listed first), as a boolean attribute; the plain
// state family then sends nothing under the same name.
// Which family carries a shared OTLP name does not depend on the order the
// collectors emit them: the daemon split wins either way.
TEST(MetricConversion, SharedNameDoesNotDependOnEmissionOrder) {
  MetricFamilies f;
  add_sample(add_uncatalogued_family(f, "jvm_threads_state", MetricType::gauge, "by state"), 5, {{"state", "WAITING"}});
  add_sample(add_uncatalogued_family(f, "jvmsight_threads_state_by_daemon", MetricType::gauge, "by daemon"), 4,
             {{"state", "WAITING"}, {"daemon", "true"}});
  MetricConverter c(TemporalityPreference::cumulative, start_ns, "v");
  Request r = convert(c, f, 2'000'000'000);
  const pb::Metric* m = find(r, "jvm.thread.count");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->sum().data_points_size(), 1);
  EXPECT_EQ(m->sum().data_points(0).as_int(), 4);
  EXPECT_EQ(m->description(), "by daemon");
}

TEST(MetricConversion, ThreadCountByDaemonAndState) {
  MetricFamilies f;
  auto& by_daemon = add_uncatalogued_family(f, "jvmsight_threads_state_by_daemon", MetricType::gauge, "by daemon");
  add_sample(by_daemon, 4, {{"state", "WAITING"}, {"daemon", "true"}});
  add_sample(by_daemon, 1, {{"state", "WAITING"}, {"daemon", "false"}});
  add_sample(add_uncatalogued_family(f, "jvm_threads_state", MetricType::gauge, "by state"), 5, {{"state", "WAITING"}});
  MetricConverter c(TemporalityPreference::cumulative, start_ns, "v");
  Request r = convert(c, f, 2'000'000'000);
  int count_metrics = 0;
  for (const auto& m : r.resource_metrics(0).scope_metrics(0).metrics())
    count_metrics += m.name() == "jvm.thread.count";
  EXPECT_EQ(count_metrics, 1);
  const pb::Metric* m = find(r, "jvm.thread.count");
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(m->sum().is_monotonic());
  ASSERT_EQ(m->sum().data_points_size(), 2);
  const auto& daemon_point = m->sum().data_points(0);
  EXPECT_EQ(attr(daemon_point.attributes(), "jvm.thread.state"), "waiting");
  EXPECT_EQ(daemon_point.as_int(), 4);
  bool found = false;
  for (const auto& kv : daemon_point.attributes())
    if (kv.key() == "jvm.thread.daemon") {
      found = true;
      EXPECT_TRUE(kv.value().has_bool_value());
      EXPECT_TRUE(kv.value().bool_value());
    }
  EXPECT_TRUE(found);
  for (const auto& kv : m->sum().data_points(1).attributes())
    if (kv.key() == "jvm.thread.daemon") {
      EXPECT_FALSE(kv.value().bool_value());
    }
}

}  // namespace
}  // namespace jvmsight::otlp
