#include "exporters/otlp/http_post.h"

namespace jvmsight::otlp {

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
  ResponseReader reader;
  std::string received;
  while (reader.state() == ResponseReader::State::partial) {
    received.clear();
    const ssize_t n = connection->read_some(received);
    if (n < 0) {
      reply.error = "no complete answer in time";
      return reply;
    }
    if (n == 0) {
      reader.finish();  // closed: the body ends here (Connection: close)
    } else {
      reader.feed(received);
    }
  }
  return reader.reply();
}

}  // namespace jvmsight::otlp
