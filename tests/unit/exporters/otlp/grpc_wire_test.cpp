// gRPC over HTTP/2 as data: framing, grpc-timeout, binary metadata, the HTTP-status and stream-reset mappings, what is
// retried; and HTTP's Retry-After in both its forms.
#include "exporters/otlp/grpc_wire.h"

#include <gtest/gtest.h>

#include "exporters/otlp/retry_info.h"

namespace jvmsight::otlp {
namespace {

using std::chrono::milliseconds;

TEST(GrpcWire, FramesCarryFlagAndBigEndianLength) {
  const std::string message(300, 'x');
  const std::string frame = grpc_frame(message, true);
  ASSERT_EQ(frame.size(), 305u);
  EXPECT_EQ(frame.substr(0, 5), std::string("\x01\x00\x00\x01\x2c", 5));  // 300 = 0x12c
  std::string back;
  bool compressed = false;
  ASSERT_TRUE(grpc_unframe(frame, back, compressed));
  EXPECT_TRUE(compressed);
  EXPECT_EQ(back, message);
  EXPECT_FALSE(grpc_unframe(frame.substr(0, 200), back, compressed)) << "a truncated frame is refused";
  EXPECT_FALSE(grpc_unframe("\x00\x00", back, compressed));
  ASSERT_TRUE(grpc_unframe(grpc_frame("", false), back, compressed));
  EXPECT_TRUE(back.empty());
}

TEST(GrpcWire, TimeoutHasAtMostEightDigits) {
  EXPECT_EQ(grpc_timeout(milliseconds(1500)), "1500m");
  EXPECT_EQ(grpc_timeout(milliseconds(0)), "1m");
  EXPECT_EQ(grpc_timeout(milliseconds(99999999)), "99999999m");
  EXPECT_EQ(grpc_timeout(milliseconds(100000000)), "100000S");
}

TEST(GrpcWire, BinaryMetadataIsBase64PaddedOrNot) {
  EXPECT_EQ(base64_decode("TWFu").value(), "Man");
  EXPECT_EQ(base64_decode("TWE=").value(), "Ma");
  EXPECT_EQ(base64_decode("TWE").value(), "Ma");
  EXPECT_EQ(base64_decode("TQ").value(), "M");
  EXPECT_EQ(base64_decode("").value(), "");
  EXPECT_FALSE(base64_decode("T").has_value());
  EXPECT_FALSE(base64_decode("TW!u").has_value());
  EXPECT_FALSE(base64_decode("TQ===").has_value());
}

TEST(GrpcWire, HttpStatusAndResetMappings) {
  EXPECT_EQ(grpc_code_from_http_status(503), grpc_unavailable);
  EXPECT_EQ(grpc_code_from_http_status(429), grpc_unavailable);
  EXPECT_EQ(grpc_code_from_http_status(401), grpc_unauthenticated);
  EXPECT_EQ(grpc_code_from_http_status(404), grpc_unimplemented);
  EXPECT_EQ(grpc_code_from_http_status(500), grpc_unknown);
  EXPECT_EQ(grpc_code_from_reset(0x7), grpc_unavailable);
  EXPECT_EQ(grpc_code_from_reset(0x8), grpc_cancelled);
  EXPECT_EQ(grpc_code_from_reset(0x2), grpc_internal);
}

// google.rpc.Status{code 8, details [Any{type_url RetryInfo, value RetryInfo{retry_delay {seconds 2, nanos 5e8}}}]}
std::string status_with_retry_info() {
  const std::string duration = std::string("\x08\x02\x10\x80\xca\xb5\xee\x01", 8);  // seconds 2, nanos 500000000
  const std::string retry_info = std::string("\x0a", 1) + static_cast<char>(duration.size()) + duration;
  const std::string type_url = "type.googleapis.com/google.rpc.RetryInfo";
  const std::string any = std::string("\x0a", 1) + static_cast<char>(type_url.size()) + type_url +
                          std::string("\x12", 1) + static_cast<char>(retry_info.size()) + retry_info;
  return std::string("\x08\x08\x1a", 3) + static_cast<char>(any.size()) + any;
}

TEST(GrpcWire, WhatIsRetried) {
  EXPECT_EQ(export_result_of(grpc_ok, "", "").kind, ExportResult::Kind::ok);
  EXPECT_EQ(export_result_of(grpc_unavailable, "down", "").kind, ExportResult::Kind::retryable);
  EXPECT_EQ(export_result_of(grpc_deadline_exceeded, "", "").kind, ExportResult::Kind::retryable);
  EXPECT_EQ(export_result_of(grpc_internal, "", "").kind, ExportResult::Kind::failed);
  EXPECT_EQ(export_result_of(grpc_unauthenticated, "", "").kind, ExportResult::Kind::failed);
  EXPECT_EQ(export_result_of(grpc_resource_exhausted, "full", "").kind, ExportResult::Kind::failed)
      << "RESOURCE_EXHAUSTED without RetryInfo: the server cannot say it will recover";
  const ExportResult r = export_result_of(grpc_resource_exhausted, "full", status_with_retry_info());
  EXPECT_EQ(r.kind, ExportResult::Kind::retryable);
  EXPECT_EQ(r.retry_after, milliseconds(2500));
  EXPECT_NE(r.message.find("full"), std::string::npos);
}

TEST(RetryAfter, SecondsOrHttpDate) {
  const time_t now = 784111777;  // Sun, 06 Nov 1994 08:49:37 GMT
  EXPECT_EQ(parse_retry_after("3", now), milliseconds(3000));
  EXPECT_EQ(parse_retry_after(" 0 \r\n", now), milliseconds(0));
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:49:52 GMT", now), milliseconds(15000));
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:49:00 GMT", now), milliseconds(0)) << "a date passed: now";
  EXPECT_FALSE(parse_retry_after("Sun, 06 Foo 1994 08:49:52 GMT", now).has_value());
  EXPECT_FALSE(parse_retry_after("Sun, 06 Nov 1994 08:49:52 GMT trailing", now).has_value());
  EXPECT_FALSE(parse_retry_after("-1", now).has_value());
  EXPECT_FALSE(parse_retry_after("999999", now).has_value()) << "more than a day away";
  EXPECT_FALSE(parse_retry_after("", now).has_value());
}

}  // namespace
}  // namespace jvmsight::otlp
