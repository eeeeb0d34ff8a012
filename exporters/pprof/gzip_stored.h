#pragma once
// gzip (RFC 1952) with stored, uncompressed deflate blocks (RFC 1951,
// BTYPE 00): what Go's pprof readers ask for (a gzipped profile) without
// linking or loading zlib. Every gzip reader accepts stored blocks; the
// price is size (docs/PROFILES.md: measured, and why it is paid).
#include <cstdint>
#include <string>
#include <string_view>

namespace jvmsight {

// CRC-32 (IEEE 802.3, reflected, as gzip and zlib compute it).
uint32_t crc32(std::string_view bytes);

// A gzip member holding `bytes` in stored blocks of at most 65,535 bytes.
std::string gzip_stored(std::string_view bytes);

}  // namespace jvmsight
