// The OTLP/HTTP transport's reader of whatever answers at the configured
// endpoint (exporters/otlp/http_response.h). Any bytes must be read without
// a crash, within the caps, and the same whether they arrive at once, in
// two pieces or byte by byte (the first input byte picks the split).
#include <cstdlib>
#include <string>
#include <string_view>

#include "exporters/otlp/http_response.h"

using namespace jvmsight::otlp;

namespace {

using State = ResponseReader::State;

void check(const ResponseReader& r) {
  const HttpReply& reply = r.reply();
  if (reply.body.size() > ResponseReader::max_body_bytes) std::abort();
  if (r.state() == State::malformed && (reply.status != 0 || reply.error.empty() || !reply.body.empty())) std::abort();
  if (r.state() == State::complete && (reply.status < 200 || reply.status > 999 || !reply.error.empty())) std::abort();
}

ResponseReader read_in_steps(std::string_view bytes, size_t step) {
  ResponseReader r;
  for (size_t i = 0; i < bytes.size(); i += step) r.feed(bytes.substr(i, step));
  r.finish();
  check(r);
  return r;
}

bool same(const ResponseReader& a, const ResponseReader& b) {
  return a.state() == b.state() && a.reply().status == b.reply().status && a.reply().body == b.reply().body &&
         a.reply().retry_after == b.reply().retry_after && a.reply().error == b.reply().error;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const ResponseReader whole = read_in_steps(bytes, bytes.size() + 1);
  const size_t split = 1 + data[0] % 64;
  if (!same(whole, read_in_steps(bytes, split)) || !same(whole, read_in_steps(bytes, 1))) std::abort();

  // The chunk decoder alone, with a small cap.
  std::string out;
  size_t pos = 0;
  const size_t limit = data[0];
  decode_chunked(bytes, pos, out, limit);
  if (out.size() > limit || pos > bytes.size()) std::abort();
  return 0;
}
