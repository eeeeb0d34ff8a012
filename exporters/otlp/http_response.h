#pragma once
// The answer to an OTLP/HTTP export, as the HTTP transport reads it: the
// status line, the three header fields it acts on (Content-Length,
// Transfer-Encoding: chunked, Retry-After) and the body, whole or chunked.
// Pure, for the tests and the fuzzer: the bytes come from whatever answers
// at the configured endpoint, so the head and the body are capped.
#include <cstddef>
#include <string>
#include <string_view>

namespace jvmsight::otlp {

struct HttpReply {
  int status = 0;     // 0: no HTTP answer (see error)
  std::string error;  // why there was no answer
  std::string body;   // at most ResponseReader::max_body_bytes are kept
  std::string retry_after;
};

// Fed the bytes of one response as they arrive, on a connection the server
// closes after it (the request said Connection: close).
class ResponseReader {
 public:
  static constexpr size_t max_head_bytes = 16 << 10;  // what any collector's head needs, many times over
  static constexpr size_t max_body_bytes = 1 << 20;   // a response body is small; never let one grow memory

  enum class State {
    partial,    // more bytes are needed
    complete,   // the response is whole (or its body reached the cap): stop reading
    malformed,  // not an HTTP/1.x response, or the head exceeds the cap: see reply().error
  };

  // Takes the next bytes; once complete or malformed, ignores the rest.
  State feed(std::string_view bytes);
  // The server closed the connection: a head with a body of no stated
  // length ends here; anything less is no answer.
  State finish();
  State state() const { return state_; }
  const HttpReply& reply() const { return reply_; }

 private:
  State read_head();
  State read_body();
  State fail(const char* why);

  State state_ = State::partial;
  HttpReply reply_;
  std::string buffer_;  // the head until it is parsed, then the body bytes not yet taken
  bool have_head_ = false;
  bool chunked_ = false;
  long long content_length_ = -1;  // -1: not stated
};

// Parses a complete response head (status line and fields, up to the blank
// line). False when the status line is not "HTTP/1.x NNN ..." or a field is
// malformed or contradicts another.
bool parse_response_head(std::string_view head, HttpReply& reply, long long& content_length, bool& chunked);

enum class ChunkedBody { partial, complete, malformed };
// Decodes a chunked body (RFC 9112 section 7.1) from `pos`, appending each
// whole chunk to `out` and moving `pos` past it, so that a caller can resume
// when more bytes arrive. complete at the last chunk (its trailers are not
// read: the server closes), or when a chunk would take `out` past `limit`
// (then `out` keeps what fits of it).
ChunkedBody decode_chunked(std::string_view in, size_t& pos, std::string& out, size_t limit);

}  // namespace jvmsight::otlp
