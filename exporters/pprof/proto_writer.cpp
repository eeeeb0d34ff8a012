#include "exporters/pprof/proto_writer.h"

namespace jvmsight {

void ProtoWriter::varint(uint64_t value) {
  while (value >= 0x80) {
    out_.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out_.push_back(static_cast<char>(value));
}

void ProtoWriter::uint_field(uint32_t field, uint64_t value) {
  if (value == 0) return;
  key(field, varint_type);
  varint(value);
}

void ProtoWriter::bytes_field(uint32_t field, std::string_view bytes) {
  key(field, length_type);
  varint(bytes.size());
  out_.append(bytes.data(), bytes.size());
}

}  // namespace jvmsight
