#include "exporters/otlp/http_post.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace jvmsight::otlp {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Status line and headers of a response in `data`; false while incomplete.
bool parse_head(const std::string& data, size_t& head_end, HttpReply& reply, long long& content_length, bool& chunked) {
  head_end = data.find("\r\n\r\n");
  if (head_end == std::string::npos) return false;
  size_t line_end = data.find("\r\n");
  std::string status_line = data.substr(0, line_end);
  size_t sp = status_line.find(' ');
  reply.status = sp == std::string::npos ? 0 : std::atoi(status_line.c_str() + sp + 1);
  for (size_t pos = line_end + 2; pos < head_end;) {
    size_t next = data.find("\r\n", pos);
    std::string line = data.substr(pos, next - pos);
    pos = next + 2;
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = lower(line.substr(0, colon));
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    if (name == "content-length") content_length = std::atoll(value.c_str());
    if (name == "transfer-encoding" && lower(value).find("chunked") != std::string::npos) chunked = true;
    if (name == "retry-after") reply.retry_after = value;
  }
  return true;
}

// Decodes a complete chunked body; false while incomplete.
bool dechunk(const std::string& in, std::string& out) {
  out.clear();
  size_t pos = 0;
  for (;;) {
    size_t line_end = in.find("\r\n", pos);
    if (line_end == std::string::npos) return false;
    size_t size = std::strtoul(in.c_str() + pos, nullptr, 16);
    if (size == 0) return true;
    if (in.size() < line_end + 2 + size + 2) return false;
    out.append(in, line_end + 2, size);
    pos = line_end + 2 + size + 2;
  }
}

}  // namespace

HttpReply HttpPoster::post(const HttpUrl& url, const std::vector<std::string>& headers, const std::string& body,
                           std::chrono::milliseconds timeout) {
  HttpReply reply;
  auto connection = Connection::open(url, tls_, "", Clock::now() + timeout, reply.error);
  if (!connection) return reply;
  std::string request = "POST " + url.path + " HTTP/1.1\r\nHost: " + url.host + ":" + url.port + "\r\n";
  for (const auto& h : headers) request += h + "\r\n";
  request += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
  if (!connection->write_all(request.data(), request.size()) || !connection->write_all(body.data(), body.size())) {
    reply.error = "cannot send the request (connection closed or timed out)";
    return reply;
  }
  constexpr size_t body_limit = 1 << 20;  // a response body is small; never let one grow memory
  std::string data;
  size_t head_end = 0;
  long long content_length = -1;
  bool chunked = false, have_head = false;
  for (;;) {
    if (!have_head) have_head = parse_head(data, head_end, reply, content_length, chunked);
    if (have_head) {
      const size_t got = data.size() - head_end - 4;
      if (!chunked && content_length >= 0 && got >= static_cast<size_t>(content_length)) break;
      if (chunked && dechunk(data.substr(head_end + 4), reply.body)) break;
      if (got > body_limit) break;
    }
    ssize_t n = connection->read_some(data);
    if (n == 0) break;  // closed: the body ends here (Connection: close)
    if (n < 0) {
      reply.error = "no complete answer in time";
      reply.status = 0;
      break;
    }
  }
  if (have_head && !chunked) reply.body = data.substr(head_end + 4, body_limit);
  if (!have_head) {
    reply.status = 0;
    if (reply.error.empty()) reply.error = "the connection closed without an answer";
  }
  return reply;
}

}  // namespace jvmsight::otlp
