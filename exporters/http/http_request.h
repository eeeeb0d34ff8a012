#pragma once
// The request head of HTTP/1.0 and 1.1, as the exporter's server reads it:
// the request line, and of the header fields only Authorization and the
// body's framing (Content-Length, Transfer-Encoding). Pure, for
// the tests and the fuzzer; the bytes come from anyone who can connect.
// The target may be in origin form ("/metrics?x") or absolute form
// ("http://host:9404/metrics?x"), as RFC 9112 asks of a server.
#include <cstddef>
#include <string>
#include <string_view>

namespace jvmsight {

struct RequestHead {
  std::string method;         // as sent ("GET", "HEAD", ...)
  std::string path;           // percent-decoded, starts with '/'
  std::string query;          // after '?', raw
  std::string authorization;  // the Authorization field's value, "" if absent
  bool has_authorization = false;
  long long content_length = -1;       // -1 when absent
  bool has_transfer_encoding = false;  // chunked or other: a body of unknown length
};

// Where the head ends in what arrived so far: the offset just past the
// blank line (CRLF CRLF, or bare LF LF), or npos while it has not arrived.
// Blank lines before the request line are skipped, as RFC 9112 allows.
size_t request_head_end(std::string_view received);

// Parses a complete head (up to request_head_end). Returns 0, or the status
// to answer: 400 (malformed), 505 (an HTTP version other than 1.0 and 1.1).
int parse_request_head(std::string_view head, RequestHead& out);

}  // namespace jvmsight
