#include "exporters/otlp/http_response.h"

#include <algorithm>

namespace jvmsight::otlp {
namespace {

constexpr size_t npos = std::string_view::npos;
constexpr size_t max_chunk_line = 1024;  // a size in hex and any extensions

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_digit(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// RFC 9110 token characters: field names.
bool is_token(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_digit(c) && !(lower(c) >= 'a' && lower(c) <= 'z') && std::string_view("!#$%&'*+-.^_`|~").find(c) == npos)
      return false;
  return true;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Just past the blank line ending a head (CRLF CRLF, or bare LF LF); npos while it has not arrived.
size_t head_end(std::string_view s) {
  for (size_t lf = s.find('\n'); lf != npos; lf = s.find('\n', lf + 1)) {
    size_t next = lf + 1;
    if (next < s.size() && s[next] == '\r') ++next;
    if (next < s.size() && s[next] == '\n') return next + 1;
  }
  return npos;
}

// "HTTP/1.x NNN[ reason]": the status, or 0.
int parse_status_line(std::string_view line) {
  if (line.size() < 12 || line.substr(0, 7) != "HTTP/1." || !is_digit(line[7]) || line[8] != ' ') return 0;
  if (!is_digit(line[9]) || !is_digit(line[10]) || !is_digit(line[11])) return 0;
  if (line.size() > 12 && line[12] != ' ') return 0;
  return (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
}

// Decimal digits only, at most 18 of them (no overflow); -1 otherwise.
long long parse_length(std::string_view s) {
  if (s.empty() || s.size() > 18) return -1;
  long long n = 0;
  for (char c : s) {
    if (!is_digit(c)) return -1;
    n = n * 10 + (c - '0');
  }
  return n;
}

// One field line into the reply; false when malformed.
bool parse_field(std::string_view line, HttpReply& reply, long long& content_length, bool& chunked) {
  size_t colon = line.find(':');
  if (colon == npos || !is_token(line.substr(0, colon))) return false;
  std::string_view name = line.substr(0, colon), value = trim(line.substr(colon + 1));
  if (iequals(name, "content-length")) {
    long long n = parse_length(value);
    if (n < 0 || (content_length >= 0 && n != content_length)) return false;
    content_length = n;
  } else if (iequals(name, "transfer-encoding")) {
    std::string v(value);
    std::transform(v.begin(), v.end(), v.begin(), lower);
    if (v.find("chunked") != std::string::npos) chunked = true;
  } else if (iequals(name, "retry-after")) {
    reply.retry_after = std::string(value);
  }
  return true;
}

// A chunk's size line at `pos`: the size, and `data` where its bytes start.
// npos data: the line has not arrived; false: malformed.
bool parse_chunk_line(std::string_view in, size_t pos, size_t& size, size_t& data) {
  data = npos;
  size_t lf = in.find('\n', pos);
  if (lf == npos) return in.size() - pos <= max_chunk_line;
  if (lf - pos > max_chunk_line) return false;
  size = 0;
  size_t i = pos;
  for (; i < lf && hex_digit(in[i]) >= 0; ++i) {
    if (i - pos >= 15) return false;  // no size anywhere near this fits the cap
    size = size * 16 + static_cast<size_t>(hex_digit(in[i]));
  }
  // Extensions (";name=value") and whitespace before them are allowed and ignored.
  if (i == pos || (i < lf && in[i] != ';' && in[i] != ' ' && in[i] != '\t' && in[i] != '\r')) return false;
  data = lf + 1;
  return true;
}

}  // namespace

bool parse_response_head(std::string_view head, HttpReply& reply, long long& content_length, bool& chunked) {
  size_t lf = head.find('\n');
  std::string_view status_line = head.substr(0, lf);
  if (!status_line.empty() && status_line.back() == '\r') status_line.remove_suffix(1);
  reply.status = parse_status_line(status_line);
  if (reply.status == 0) return false;
  for (size_t pos = lf == npos ? head.size() : lf + 1; pos < head.size();) {
    size_t end = std::min(head.find('\n', pos), head.size());
    std::string_view line = head.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;  // the blank line ending the head
    if (!parse_field(line, reply, content_length, chunked)) return false;
  }
  return true;
}

ChunkedBody decode_chunked(std::string_view in, size_t& pos, std::string& out, size_t limit) {
  for (;;) {
    size_t size = 0, data = 0;
    if (!parse_chunk_line(in, pos, size, data)) return ChunkedBody::malformed;
    if (data == npos) return ChunkedBody::partial;
    if (size == 0) return ChunkedBody::complete;
    const size_t room = limit - std::min(limit, out.size());
    if (size > room) {  // the cap: what fits of this chunk, then no more
      if (in.size() < data + room) return ChunkedBody::partial;
      out.append(in.substr(data, room));
      return ChunkedBody::complete;
    }
    // The data, then CRLF (or a bare LF).
    if (in.size() < data + size + 1) return ChunkedBody::partial;
    size_t after = data + size;
    if (in[after] == '\r') {
      if (in.size() < after + 2) return ChunkedBody::partial;
      ++after;
    }
    if (in[after] != '\n') return ChunkedBody::malformed;
    out.append(in.substr(data, size));
    pos = after + 1;
  }
}

ResponseReader::State ResponseReader::feed(std::string_view bytes) {
  if (state_ != State::partial) return state_;
  buffer_.append(bytes);
  state_ = have_head_ ? read_body() : read_head();
  return state_;
}

ResponseReader::State ResponseReader::finish() {
  if (state_ != State::partial) return state_;
  // A body cut short still came with a status: the answer stands.
  state_ = have_head_ ? State::complete : fail("the connection closed without an answer");
  return state_;
}

ResponseReader::State ResponseReader::fail(const char* why) {
  reply_.status = 0;
  reply_.error = why;
  reply_.body.clear();
  return State::malformed;
}

ResponseReader::State ResponseReader::read_head() {
  for (;;) {
    size_t end = head_end(buffer_);
    if (end == npos && buffer_.size() <= max_head_bytes) return State::partial;
    if (end == npos || end > max_head_bytes) return fail("the response head exceeds 16 KiB");
    if (!parse_response_head(std::string_view(buffer_).substr(0, end), reply_, content_length_, chunked_))
      return fail("the response is not HTTP/1.x");
    buffer_.erase(0, end);
    // Interim answers (1xx) come before the real one.
    if (reply_.status >= 200) break;
    reply_ = HttpReply();
    content_length_ = -1;
    chunked_ = false;
  }
  have_head_ = true;
  return read_body();
}

ResponseReader::State ResponseReader::read_body() {
  if (chunked_) {
    size_t pos = 0;
    ChunkedBody got = decode_chunked(buffer_, pos, reply_.body, max_body_bytes);
    buffer_.erase(0, pos);
    if (got == ChunkedBody::malformed) return fail("malformed chunked body");
    return got == ChunkedBody::complete ? State::complete : State::partial;
  }
  const size_t room = max_body_bytes - reply_.body.size();
  reply_.body.append(buffer_, 0, std::min(room, buffer_.size()));
  buffer_.clear();
  if (reply_.body.size() >= max_body_bytes) return State::complete;
  if (content_length_ >= 0 && reply_.body.size() >= static_cast<size_t>(content_length_)) {
    reply_.body.resize(static_cast<size_t>(content_length_));
    return State::complete;
  }
  return State::partial;
}

}  // namespace jvmsight::otlp
