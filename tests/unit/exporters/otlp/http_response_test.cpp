// The OTLP/HTTP transport's reader of a collector's answer, on the bytes a
// server sends: heads, identity and chunked bodies, split anywhere, and the
// caps that keep a hostile endpoint from growing memory.
#include "exporters/otlp/http_response.h"

#include <gtest/gtest.h>

#include <string>

namespace jvmsight::otlp {
namespace {

using State = ResponseReader::State;

// Feeds `bytes` in pieces of `step` (0: at once), then the close when
// `close` is set.
ResponseReader read(const std::string& bytes, size_t step = 0, bool close = false) {
  ResponseReader r;
  if (step == 0) step = bytes.size() + 1;
  for (size_t i = 0; i < bytes.size() && r.state() == State::partial; i += step) r.feed(bytes.substr(i, step));
  if (close) r.finish();
  return r;
}

TEST(ResponseReader, ContentLengthBodyIsCompleteWithoutTheClose) {
  const std::string response =
      "HTTP/1.1 200 OK\r\nContent-Type: application/x-protobuf\r\nContent-Length: 5\r\n\r\nhello";
  for (size_t step : {0, 1, 3, 7}) {
    ResponseReader r = read(response, step);
    ASSERT_EQ(r.state(), State::complete) << step;
    EXPECT_EQ(r.reply().status, 200);
    EXPECT_EQ(r.reply().body, "hello");
    EXPECT_TRUE(r.reply().error.empty());
  }
  // One byte short: still waiting, and the close then ends it with what came.
  ResponseReader short_body = read(response.substr(0, response.size() - 1));
  EXPECT_EQ(short_body.state(), State::partial);
  EXPECT_EQ(short_body.finish(), State::complete);
  EXPECT_EQ(short_body.reply().body, "hell");
}

TEST(ResponseReader, BytesPastContentLengthAreNotBody) {
  ResponseReader r = read("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA");
  EXPECT_EQ(r.reply().body, "ok");
}

TEST(ResponseReader, BodyWithoutLengthEndsAtTheClose) {
  ResponseReader r = read("HTTP/1.0 503 Service Unavailable\nRetry-After: 7\n\nbusy", 2);
  EXPECT_EQ(r.state(), State::partial);
  EXPECT_EQ(r.finish(), State::complete);
  EXPECT_EQ(r.reply().status, 503);
  EXPECT_EQ(r.reply().retry_after, "7");
  EXPECT_EQ(r.reply().body, "busy");
}

TEST(ResponseReader, ChunkedBodyOfTheRfcExampleShape) {
  // RFC 9112 section 7.1: hex sizes, extensions ignored, the last chunk, trailers.
  const std::string response =
      "HTTP/1.1 429 Too Many Requests\r\nTransfer-Encoding: gzip, Chunked\r\nretry-after:  30 \r\n\r\n"
      "4\r\nWiki\r\n5;ext=1\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nTrailer: x\r\n\r\n";
  for (size_t step : {0, 1, 5}) {
    ResponseReader r = read(response, step);
    ASSERT_EQ(r.state(), State::complete) << step;
    EXPECT_EQ(r.reply().status, 429);
    EXPECT_EQ(r.reply().retry_after, "30");
    EXPECT_EQ(r.reply().body, "Wikipedia in\r\n\r\nchunks.");
  }
}

TEST(ResponseReader, ChunkedBeatsContentLength) {
  ResponseReader r =
      read("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n");
  EXPECT_EQ(r.state(), State::complete);
  EXPECT_EQ(r.reply().body, "abc");
}

TEST(ResponseReader, InterimAnswersAreSkipped) {
  ResponseReader r = read("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n", 4);
  EXPECT_EQ(r.state(), State::complete);
  EXPECT_EQ(r.reply().status, 204);
}

TEST(ResponseReader, MalformedAnswersAreNoAnswer) {
  for (const char* response :
       {"HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1  200 OK\r\n\r\n",
        "ICY 200 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "HTTP/1.1 200 OK\r\n: empty name\r\n\r\n",
        "HTTP/1.1 200 OK\r\nBad Name: v\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n"}) {
    ResponseReader r = read(response);
    EXPECT_EQ(r.state(), State::malformed) << response;
    EXPECT_EQ(r.reply().status, 0) << response;
    EXPECT_FALSE(r.reply().error.empty()) << response;
  }
}

TEST(ResponseReader, CloseBeforeAHeadIsNoAnswer) {
  ResponseReader r = read("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n", 0, true);
  EXPECT_EQ(r.state(), State::malformed);
  EXPECT_EQ(r.reply().status, 0);
  EXPECT_EQ(r.reply().error, "the connection closed without an answer");
}

TEST(ResponseReader, HeadIsCapped) {
  std::string head = "HTTP/1.1 200 OK\r\n";
  while (head.size() <= ResponseReader::max_head_bytes) head += "X-Padding: 0123456789abcdef0123456789abcdef\r\n";
  ResponseReader endless = read(head, 1000);  // no blank line yet, already too long
  EXPECT_EQ(endless.state(), State::malformed);
  EXPECT_EQ(endless.reply().error, "the response head exceeds 16 KiB");
  EXPECT_EQ(read(head + "\r\n").state(), State::malformed);
  // Just under the cap is fine.
  std::string fits = "HTTP/1.1 200 OK\r\nX: " + std::string(ResponseReader::max_head_bytes - 25, 'a') + "\r\n\r\n";
  ASSERT_LE(fits.size(), ResponseReader::max_head_bytes);
  EXPECT_EQ(read(fits, 0, true).reply().status, 200);
}

TEST(ResponseReader, BodyIsCappedWhateverTheFraming) {
  const size_t cap = ResponseReader::max_body_bytes;
  const std::string big(cap + 10, 'b');
  ResponseReader unframed = read("HTTP/1.1 400 Bad Request\r\n\r\n" + big, 4096);
  EXPECT_EQ(unframed.state(), State::complete);  // done reading before any close
  EXPECT_EQ(unframed.reply().body.size(), cap);
  ResponseReader stated = read("HTTP/1.1 400 Bad Request\r\nContent-Length: 999999999999\r\n\r\n" + big, 4096);
  EXPECT_EQ(stated.state(), State::complete);
  EXPECT_EQ(stated.reply().body.size(), cap);
  std::string chunks;
  for (int i = 0; i < 20; ++i) chunks += "10000\r\n" + std::string(0x10000, 'c') + "\r\n";
  ResponseReader chunked = read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks, 8192);
  EXPECT_EQ(chunked.state(), State::complete);
  EXPECT_EQ(chunked.reply().body.size(), cap);
}

TEST(DecodeChunked, ResumesWhereItStopped) {
  std::string in = "3\r\nabc\r\n2\r\nde";
  size_t pos = 0;
  std::string out;
  EXPECT_EQ(decode_chunked(in, pos, out, 100), ChunkedBody::partial);
  EXPECT_EQ(out, "abc");
  EXPECT_EQ(pos, 8u);  // the second chunk is not whole yet: not taken
  in += "\r\n0\r\n\r\n";
  EXPECT_EQ(decode_chunked(in, pos, out, 100), ChunkedBody::complete);
  EXPECT_EQ(out, "abcde");
}

}  // namespace
}  // namespace jvmsight::otlp
