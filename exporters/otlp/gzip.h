#pragma once
// gzip (RFC 1952) for both transports: OTLP/HTTP's Content-Encoding: gzip
// and gRPC's grpc-encoding: gzip mean the same format.
#include <cstddef>
#include <string>

namespace jvmsight::otlp {

bool gzip(const std::string& in, std::string& out);
// False when `in` is not gzip or would inflate beyond `limit` bytes.
bool gunzip(const std::string& in, std::string& out, size_t limit);

}  // namespace jvmsight::otlp
