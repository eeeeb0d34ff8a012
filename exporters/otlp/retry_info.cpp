#include "exporters/otlp/retry_info.h"

#include <google/protobuf/io/coded_stream.h>

namespace jvmsight::otlp {
namespace {

using google::protobuf::io::CodedInputStream;

constexpr int wire_varint = 0;
constexpr int wire_fixed64 = 1;
constexpr int wire_length = 2;
constexpr int wire_fixed32 = 5;

// Calls on_field(number, wire type, stream) for each field; the callback
// consumes the field's value or returns false to have it skipped.
template <class F>
bool each_field(const std::string& bytes, F on_field) {
  CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<int>(bytes.size()));
  while (uint32_t tag = in.ReadTag()) {
    const int number = static_cast<int>(tag >> 3);
    const int type = static_cast<int>(tag & 7);
    if (on_field(number, type, in)) continue;
    uint64_t skip64 = 0;
    uint32_t len = 0;
    uint32_t skip32 = 0;
    switch (type) {
      case wire_varint:
        if (!in.ReadVarint64(&skip64)) return false;
        break;
      case wire_fixed64:
        if (!in.ReadLittleEndian64(&skip64)) return false;
        break;
      case wire_length:
        if (!in.ReadVarint32(&len) || !in.Skip(static_cast<int>(len))) return false;
        break;
      case wire_fixed32:
        if (!in.ReadLittleEndian32(&skip32)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

bool read_bytes(CodedInputStream& in, std::string& out) {
  uint32_t len = 0;
  return in.ReadVarint32(&len) && in.ReadString(&out, static_cast<int>(len));
}

}  // namespace

std::optional<std::chrono::milliseconds> retry_delay_from_status_details(const std::string& status_bytes) {
  std::optional<std::chrono::milliseconds> result;
  each_field(status_bytes, [&](int number, int type, CodedInputStream& in) {
    if (number != 3 || type != wire_length) return false;  // Status.details (Any)
    std::string any;
    if (!read_bytes(in, any)) return true;
    std::string type_url, value;
    each_field(any, [&](int n, int t, CodedInputStream& a) {
      if (t != wire_length || (n != 1 && n != 2)) return false;
      read_bytes(a, n == 1 ? type_url : value);
      return true;
    });
    constexpr std::string_view retry_info = "google.rpc.RetryInfo";
    if (type_url.size() < retry_info.size() ||
        type_url.compare(type_url.size() - retry_info.size(), retry_info.size(), retry_info) != 0)
      return true;
    each_field(value, [&](int n, int t, CodedInputStream& r) {  // RetryInfo.retry_delay (Duration)
      if (n != 1 || t != wire_length) return false;
      std::string duration;
      if (!read_bytes(r, duration)) return true;
      int64_t seconds = 0;
      int64_t nanos = 0;
      each_field(duration, [&](int dn, int dt, CodedInputStream& d) {
        uint64_t v = 0;
        if (dt != wire_varint || (dn != 1 && dn != 2) || !d.ReadVarint64(&v)) return false;
        (dn == 1 ? seconds : nanos) = static_cast<int64_t>(v);
        return true;
      });
      if (seconds >= 0 && nanos >= 0) result = std::chrono::milliseconds(seconds * 1000 + nanos / 1000000);
      return true;
    });
    return true;
  });
  return result;
}

}  // namespace jvmsight::otlp
