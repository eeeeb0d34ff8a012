#include "exporters/pprof/profile_encoder.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "exporters/pprof/proto_writer.h"

namespace jvmsight {
namespace {

// profile.proto's field numbers.
namespace field {
constexpr uint32_t sample_type = 1, sample = 2, location = 4, function = 5, string_table = 6, time_nanos = 9,
                   duration_nanos = 10, period_type = 11, period = 12;
constexpr uint32_t value_type_type = 1, value_type_unit = 2;
constexpr uint32_t sample_location_id = 1, sample_value = 2;
constexpr uint32_t location_id = 1, location_line = 4;
constexpr uint32_t line_function_id = 1, line_line = 2;
constexpr uint32_t function_id = 1, function_name = 2, function_system_name = 3, function_filename = 4;
}  // namespace field

// The string table: index 0 is "", each string once.
class Strings {
 public:
  Strings() { index(""); }
  int64_t index(const std::string& s) {
    auto [it, added] = indexes_.emplace(s, static_cast<int64_t>(order_.size()));
    if (added) order_.push_back(&it->first);
    return it->second;
  }
  void write(ProtoWriter& out) const {
    for (const std::string* s : order_) out.bytes_field(field::string_table, *s);
  }

 private:
  std::unordered_map<std::string, int64_t> indexes_;
  std::vector<const std::string*> order_;  // node keys stay put
};

void value_type(ProtoWriter& out, uint32_t which, Strings& strings, const char* type, const char* unit) {
  ProtoWriter vt;
  vt.int_field(field::value_type_type, strings.index(type));
  vt.int_field(field::value_type_unit, strings.index(unit));
  out.message_field(which, vt);
}

// Functions and locations, each written once as the samples first use them:
// a location per (function, line), with ids from 1.
class Places {
 public:
  Places(const ContentionProfile& profile, ProtoWriter& out, Strings& strings)
      : profile_(profile), out_(out), strings_(strings) {}

  uint64_t location(const ProfileFrame& frame) {
    auto [it, added] = locations_.emplace(std::make_pair(frame.function, frame.line), locations_.size() + 1);
    if (!added) return it->second;
    ProtoWriter line, location;
    line.uint_field(field::line_function_id, function(frame.function));
    line.int_field(field::line_line, frame.line);
    location.uint_field(field::location_id, it->second);
    location.message_field(field::location_line, line);
    out_.message_field(field::location, location);
    return it->second;
  }

 private:
  uint64_t function(uint32_t index) {
    auto [it, added] = functions_.emplace(index, functions_.size() + 1);
    if (!added) return it->second;
    const ProfileFunction& f = profile_.functions.at(index);
    ProtoWriter function;
    function.uint_field(field::function_id, it->second);
    function.int_field(field::function_name, strings_.index(f.name));
    function.int_field(field::function_system_name, strings_.index(f.name));
    function.int_field(field::function_filename, strings_.index(f.file));
    out_.message_field(field::function, function);
    return it->second;
  }

  const ContentionProfile& profile_;
  ProtoWriter& out_;
  Strings& strings_;
  std::map<std::pair<uint32_t, int32_t>, uint64_t> locations_;
  std::unordered_map<uint32_t, uint64_t> functions_;
};

}  // namespace

std::string encode_pprof(const ContentionProfile& profile) {
  ProtoWriter out, places_out, sample;
  Strings strings;
  value_type(out, field::sample_type, strings, "contentions", "count");
  value_type(out, field::sample_type, strings, "delay", "nanoseconds");
  Places places(profile, places_out, strings);
  std::vector<uint64_t> location_ids;
  for (const ProfileStack& stack : profile.stacks) {
    location_ids.clear();
    for (const ProfileFrame& frame : stack.frames) location_ids.push_back(places.location(frame));
    sample.clear();
    sample.packed_field(field::sample_location_id, location_ids);
    sample.packed_field(field::sample_value, std::vector<int64_t>{stack.contentions, stack.delay_ns});
    out.message_field(field::sample, sample);
  }
  std::string bytes = out.take();
  bytes += places_out.bytes();
  ProtoWriter tail;
  value_type(tail, field::period_type, strings, "contentions", "count");
  strings.write(tail);
  tail.int_field(field::time_nanos, profile.time_ns);
  tail.int_field(field::duration_nanos, profile.duration_ns);
  tail.int_field(field::period, 1);
  return bytes + tail.bytes();
}

std::string profile_text(const ContentionProfile& profile, std::string_view title) {
  std::vector<const ProfileStack*> order;
  int64_t waits = 0, delay = 0;
  for (const auto& s : profile.stacks) {
    order.push_back(&s);
    waits += s.contentions;
    delay += s.delay_ns;
  }
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->delay_ns > b->delay_ns; });
  char summary[200];
  std::snprintf(summary, sizeof(summary), ": %zu stacks, %lld waits, %.3f s waited over %.1f s (estimates)\n",
                order.size(), static_cast<long long>(waits), delay / 1e9, profile.duration_ns / 1e9);
  std::string out = "--- " + std::string(title) + summary;
  for (const ProfileStack* s : order) {
    out += std::to_string(s->delay_ns) + " " + std::to_string(s->contentions) + " @\n";
    for (const ProfileFrame& f : s->frames) {
      const ProfileFunction& fn = profile.functions.at(f.function);
      out += "#\t" + fn.name;
      if (!fn.file.empty()) out += " (" + fn.file + (f.line > 0 ? ":" + std::to_string(f.line) : "") + ")";
      out += "\n";
    }
  }
  return out;
}

}  // namespace jvmsight
