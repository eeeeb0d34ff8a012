#include "exporters/pprof/gzip_stored.h"

#include <algorithm>
#include <array>

namespace jvmsight {
namespace {

constexpr std::array<uint32_t, 256> crc_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  return table;
}

void little_endian(std::string& out, uint32_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

uint32_t crc32(std::string_view bytes) {
  static constexpr std::array<uint32_t, 256> table = crc_table();
  uint32_t c = 0xffffffffu;
  for (unsigned char b : bytes) c = table[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

std::string gzip_stored(std::string_view bytes) {
  constexpr size_t block = 65535;
  std::string out;
  out.reserve(bytes.size() + 18 + 5 * (bytes.size() / block + 1));
  // ID1 ID2, CM = deflate, no flags, no MTIME, no XFL, OS = unknown.
  out.append("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
  size_t at = 0;
  do {
    const size_t len = std::min(block, bytes.size() - at);
    const bool last = at + len == bytes.size();
    // BFINAL, BTYPE 00, then the rest of the byte is padding.
    out.push_back(static_cast<char>(last ? 1 : 0));
    little_endian(out, static_cast<uint32_t>(len), 2);
    little_endian(out, static_cast<uint32_t>(~len & 0xffff), 2);
    out.append(bytes.data() + at, len);
    at += len;
  } while (at < bytes.size());
  little_endian(out, crc32(bytes), 4);
  little_endian(out, static_cast<uint32_t>(bytes.size()), 4);  // ISIZE: the size mod 2^32
  return out;
}

}  // namespace jvmsight
