#pragma once
// The protobuf wire format, as far as profile.proto needs it: varints,
// length-delimited fields (strings, nested messages) and packed repeated
// varints. Hand-written so the agent links no protobuf library
// (docs/PROFILES.md); proto3 fields left at zero are simply not written.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jvmsight {

class ProtoWriter {
 public:
  // A varint field (uint64, int64 as two's complement); nothing when zero.
  void uint_field(uint32_t field, uint64_t value);
  void int_field(uint32_t field, int64_t value) { uint_field(field, static_cast<uint64_t>(value)); }
  // A string, bytes or nested message; written even when empty (a repeated
  // string_table entry of "" must be there).
  void bytes_field(uint32_t field, std::string_view bytes);
  void message_field(uint32_t field, const ProtoWriter& message) { bytes_field(field, message.out_); }
  // A packed repeated varint field; nothing when empty.
  template <class Int>
  void packed_field(uint32_t field, const std::vector<Int>& values);

  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }
  void clear() { out_.clear(); }

 private:
  static constexpr uint32_t varint_type = 0;
  static constexpr uint32_t length_type = 2;
  void varint(uint64_t value);
  void key(uint32_t field, uint32_t wire_type) { varint((uint64_t{field} << 3) | wire_type); }

  std::string out_;
};

template <class Int>
void ProtoWriter::packed_field(uint32_t field, const std::vector<Int>& values) {
  if (values.empty()) return;
  std::string payload;
  payload.swap(out_);
  for (Int v : values) varint(static_cast<uint64_t>(v));
  payload.swap(out_);
  bytes_field(field, payload);
}

}  // namespace jvmsight
