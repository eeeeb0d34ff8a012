// The PerfData parser against regions laid out as HotSpot's perfMemory.hpp
// describes them (what a real JVM's region holds is compared with jcmd in
// tests/integration/safepoints_test.cpp), and against regions that lie.
#include "collectors/runtime/perf_data.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "collectors/runtime/safepoint_collector.h"

namespace jvmsight {
namespace {

// Writes a region: the 32-byte prologue, then one entry per add().
class RegionWriter {
 public:
  RegionWriter() : bytes_(32, 0) {
    const uint8_t magic[] = {0xca, 0xfe, 0xc0, 0xc0};
    std::memcpy(bytes_.data(), magic, 4);
    bytes_[4] = 1;  // little endian
    bytes_[5] = 2;  // version 2.0
    bytes_[7] = 1;  // accessible
    put32(24, 32);  // entry_offset
  }

  // An entry: header, name, padding to 8, then `data` (8 bytes for a long).
  size_t add(const std::string& name, char type, std::vector<uint8_t> data, uint32_t vector_length = 0) {
    const size_t at = bytes_.size();
    size_t name_at = 20, data_at = (name_at + name.size() + 1 + 7) / 8 * 8;
    size_t length = (data_at + data.size() + 7) / 8 * 8;
    bytes_.resize(at + length, 0);
    put32(at, static_cast<uint32_t>(length));
    put32(at + 4, static_cast<uint32_t>(name_at));
    put32(at + 8, vector_length);
    bytes_[at + 12] = static_cast<uint8_t>(type);
    put32(at + 16, static_cast<uint32_t>(data_at));
    std::memcpy(&bytes_[at + name_at], name.c_str(), name.size() + 1);
    std::memcpy(&bytes_[at + data_at], data.data(), data.size());
    put32(28, get32(28) + 1);  // num_entries
    return at;
  }
  size_t add_long(const std::string& name, int64_t value) {
    std::vector<uint8_t> data(8);
    std::memcpy(data.data(), &value, 8);
    return add(name, 'J', data);
  }

  void put32(size_t at, uint32_t v) { std::memcpy(&bytes_[at], &v, 4); }
  uint32_t get32(size_t at) const {
    uint32_t v;
    std::memcpy(&v, &bytes_[at], 4);
    return v;
  }
  // Aligned like the JVM's memory: the parser refuses misaligned longs.
  PerfDataRegion region() {
    aligned_.assign((bytes_.size() + 7) / 8, 0);
    std::memcpy(aligned_.data(), bytes_.data(), bytes_.size());
    return {reinterpret_cast<const uint8_t*>(aligned_.data()), bytes_.size()};
  }
  std::vector<uint8_t> bytes_;

 private:
  std::vector<int64_t> aligned_;
};

TEST(PerfData, FindsNamedLongsAndReadsThemLive) {
  RegionWriter w;
  w.add("java.property.java.version", 'B', {'1', '7', 0, 0}, 4);
  w.add_long("sun.rt.safepoints", 42);
  w.add_long("sun.rt.safepointTime", 1'500'000);
  w.add_long("sun.os.hrt.frequency", 1'000'000'000);
  PerfDataRegion r = w.region();
  const int64_t* count = find_perf_long(r, "sun.rt.safepoints");
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(read_perf_long(count), 42);
  EXPECT_EQ(read_perf_long(find_perf_long(r, "sun.rt.safepointTime")), 1'500'000);
  EXPECT_EQ(read_perf_long(find_perf_long(r, "sun.os.hrt.frequency")), 1'000'000'000);
  // The JVM updates the value in place: the same address reads the new one.
  *const_cast<int64_t*>(count) = 43;
  EXPECT_EQ(read_perf_long(count), 43);
  // A prefix of a name is not the name; a string is not a long.
  EXPECT_EQ(find_perf_long(r, "sun.rt.safepoint"), nullptr);
  EXPECT_EQ(find_perf_long(r, "java.property.java.version"), nullptr);
  EXPECT_EQ(find_perf_long(r, "sun.rt.safepointSyncTime"), nullptr);
}

TEST(PerfData, RefusesRegionsThatAreNotPerfDataOrLie) {
  auto found = [](RegionWriter& w) { return find_perf_long(w.region(), "sun.rt.safepoints") != nullptr; };
  {
    RegionWriter w;
    w.add_long("sun.rt.safepoints", 1);
    ASSERT_TRUE(found(w));
    w.bytes_[0] = 0;  // magic
    EXPECT_FALSE(found(w));
  }
  {
    RegionWriter w;
    w.add_long("sun.rt.safepoints", 1);
    w.bytes_[4] = 0;  // big endian: not this machine's
    EXPECT_FALSE(found(w));
  }
  {
    RegionWriter w;
    const size_t at = w.add_long("sun.rt.safepoints", 1);
    w.put32(at, 1'000'000);  // entry longer than the region
    EXPECT_FALSE(found(w));
    w.put32(at, 4);  // shorter than its own header
    EXPECT_FALSE(found(w));
  }
  {
    RegionWriter w;
    const size_t at = w.add_long("sun.rt.safepoints", 1);
    w.put32(at + 16, w.get32(at) - 4);  // data running past the entry
    EXPECT_FALSE(found(w));
    w.put32(at + 16, w.get32(at) - 12);  // misaligned
    EXPECT_FALSE(found(w));
  }
  {
    RegionWriter w;
    const size_t at = w.add_long("sun.rt.safepoints", 1);
    w.put32(at + 4, w.get32(at) + 8);  // name outside the entry
    EXPECT_FALSE(found(w));
  }
  {
    RegionWriter w;
    const size_t at = w.add_long("sun.rt.safepoints", 1);
    w.put32(at + 8, 3);  // a vector of longs
    EXPECT_FALSE(found(w));
  }
  {
    RegionWriter w;
    w.add_long("sun.rt.safepoints", 1);
    w.put32(28, 1'000);  // more entries than the region holds: stops at its end
    EXPECT_TRUE(found(w));
    w.put32(24, 1'000'000);  // entries beyond the region
    EXPECT_FALSE(found(w));
  }
  EXPECT_EQ(find_perf_long({nullptr, 0}, "sun.rt.safepoints"), nullptr);
  RegionWriter w;
  EXPECT_EQ(find_perf_long({w.region().base, 31}, "sun.rt.safepoints"), nullptr);  // shorter than the prologue
}

// A region of random bytes never makes the parser read outside it (ASan
// checks the reads in the sanitizer run).
TEST(PerfData, RandomRegionsStayInBounds) {
  uint64_t x = 88172645463325252ull;
  for (int round = 0; round < 2000; ++round) {
    RegionWriter w;
    w.add_long("sun.rt.safepoints", 1);
    w.add_long("sun.rt.safepointTime", 2);
    for (int flips = 0; flips < 4; ++flips) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      w.bytes_[x % w.bytes_.size()] = static_cast<uint8_t>(x >> 32);
    }
    PerfDataRegion r = w.region();
    for (const char* name : {"sun.rt.safepoints", "sun.rt.safepointTime"})
      if (const int64_t* v = find_perf_long(r, name)) {
        EXPECT_GE(reinterpret_cast<const uint8_t*>(v), r.base);
        EXPECT_LE(reinterpret_cast<const uint8_t*>(v) + 8, r.base + r.size);
      }
  }
}

double value_of(const MetricFamilies& families, const std::string& name) {
  for (const auto& f : families)
    if (f.name == name) return f.samples.at(0).value;
  ADD_FAILURE() << name << " missing";
  return -1;
}

// Stopped time means the same on every JDK: from the request to the end.
TEST(SafepointFamilies, StoppedTimeIncludesReachingOnEveryJdk) {
  const SafepointTicks ticks{7, 3'000'000'000, 500'000'000, 1'000'000'000};
  MetricFamilies before_13, since_13;
  add_safepoint_families(before_13, ticks, safepoint_time_includes_sync(11));
  add_safepoint_families(since_13, ticks, safepoint_time_includes_sync(17));
  EXPECT_TRUE(safepoint_time_includes_sync(1));  // JDK 8 says JVM TI 1.2
  EXPECT_EQ(value_of(before_13, "jvmsight_safepoints_total"), 7);
  EXPECT_DOUBLE_EQ(value_of(before_13, "jvmsight_safepoint_seconds_total"), 3.0);
  EXPECT_DOUBLE_EQ(value_of(since_13, "jvmsight_safepoint_seconds_total"), 3.5);
  EXPECT_DOUBLE_EQ(value_of(before_13, "jvmsight_safepoint_sync_seconds_total"), 0.5);
  EXPECT_DOUBLE_EQ(value_of(since_13, "jvmsight_safepoint_sync_seconds_total"), 0.5);
  MetricFamilies none;
  add_safepoint_families(none, {7, 1, 1, 0}, true);  // no frequency: nothing to convert with
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace jvmsight
