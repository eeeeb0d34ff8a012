// OTLP/HTTP with binary protobuf: POST to /v1/<signal> (http_post.h).
// Retryable per the OTLP specification: 429, 502, 503, 504 and connection
// errors, honouring Retry-After.
#include "exporters/otlp/export_client.h"
#include "exporters/otlp/gzip.h"
#include "exporters/otlp/http_post.h"
#include "exporters/otlp/retry_info.h"

namespace jvmsight::otlp {
namespace {

class HttpClient : public ExportClient {
 public:
  HttpClient(SignalConfig config, HttpUrl url)
      : config_(std::move(config)),
        url_(std::move(url)),
        poster_({config_.certificate, config_.client_certificate, config_.client_key}) {
    headers_.push_back("Content-Type: application/x-protobuf");
    headers_.push_back("User-Agent: jvmsight-otlp");
    if (config_.compression == Compression::gzip) headers_.push_back("Content-Encoding: gzip");
    for (const auto& [key, value] : config_.headers) headers_.push_back(key + ": " + value);
  }

  ExportResult export_request(const std::string& request_bytes, std::chrono::milliseconds timeout) override {
    ExportResult result;
    const std::string* body = &request_bytes;
    std::string packed;
    if (config_.compression == Compression::gzip) {
      if (!gzip(request_bytes, packed)) {
        result.message = "gzip failed";
        return result;
      }
      body = &packed;
    }
    HttpReply reply = poster_.post(url_, headers_, *body, std::max(timeout, std::chrono::milliseconds(1)));
    if (reply.status == 0) {
      // Connection refused, timeouts, resets: the collector may come back.
      result.kind = ExportResult::Kind::retryable;
      result.message = "HTTP " + reply.error;
      return result;
    }
    if (reply.status >= 200 && reply.status < 300) {
      result.kind = ExportResult::Kind::ok;
      result.response = std::move(reply.body);
      return result;
    }
    result.message = "HTTP status " + std::to_string(reply.status);
    if (auto delay = parse_retry_after(reply.retry_after)) result.retry_after = *delay;
    const bool retryable = reply.status == 429 || reply.status == 502 || reply.status == 503 || reply.status == 504;
    result.kind = retryable ? ExportResult::Kind::retryable : ExportResult::Kind::failed;
    return result;
  }

 private:
  SignalConfig config_;
  HttpUrl url_;
  HttpPoster poster_;
  std::vector<std::string> headers_;
};

}  // namespace

std::unique_ptr<ExportClient> make_http_client(const SignalConfig& config, std::string& error) {
  HttpUrl url;
  if (!parse_http_url(config.endpoint, url)) {
    error = "the OTLP endpoint " + config.endpoint + " is not an http:// or https:// URL";
    return nullptr;
  }
  return std::make_unique<HttpClient>(config, std::move(url));
}

}  // namespace jvmsight::otlp
