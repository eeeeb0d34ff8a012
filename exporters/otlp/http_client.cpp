// OTLP/HTTP with binary protobuf: POST to /v1/<signal> with libcurl (one
// handle per signal, so the connection is kept alive between exports). Retryable
// statuses per the OTLP specification: 429, 502, 503, 504, honouring
// Retry-After.
#include <curl/curl.h>
#include <zlib.h>

#include <cctype>
#include <mutex>

#include "exporters/otlp/export_client.h"
#include "exporters/otlp/retry_info.h"
#include "exporters/otlp/transport_factory.h"

namespace jvmsight::otlp {
namespace {

bool gzip(const std::string& in, std::string& out) {
  z_stream z{};
  // 16 + MAX_WBITS: a gzip header and trailer, which Content-Encoding: gzip means.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
  out.resize(deflateBound(&z, in.size()) + 32);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END;
}

size_t collect_body(char* data, size_t size, size_t n, void* out) {
  auto* body = static_cast<std::string*>(out);
  constexpr size_t limit = 1 << 20;  // a response body is small; never let one grow memory
  if (body->size() < limit) body->append(data, std::min(size * n, limit - body->size()));
  return size * n;
}

size_t collect_header(char* data, size_t size, size_t n, void* out) {
  std::string line(data, size * n);
  constexpr std::string_view name = "retry-after:";
  if (line.size() > name.size()) {
    std::string head = line.substr(0, name.size());
    for (auto& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (head == name) *static_cast<std::string*>(out) = line.substr(name.size());
  }
  return size * n;
}

class HttpClient : public ExportClient {
 public:
  explicit HttpClient(SignalConfig config) : config_(std::move(config)), curl_(curl_easy_init()) {
    headers_ = curl_slist_append(headers_, "Content-Type: application/x-protobuf");
    if (config_.compression == Compression::gzip) headers_ = curl_slist_append(headers_, "Content-Encoding: gzip");
    for (const auto& [key, value] : config_.headers)
      headers_ = curl_slist_append(headers_, (key + ": " + value).c_str());
  }
  ~HttpClient() override {
    curl_slist_free_all(headers_);
    if (curl_) curl_easy_cleanup(curl_);
  }
  bool ok() const { return curl_ != nullptr; }

  ExportResult export_request(const std::string& request_bytes, std::chrono::milliseconds timeout) override {
    ExportResult result;
    std::string body = request_bytes;
    if (config_.compression == Compression::gzip) {
      std::string packed;
      if (!gzip(body, packed)) {
        result.message = "gzip failed";
        return result;
      }
      body.swap(packed);
    }
    std::string response, retry_after;
    CURL* c = curl_;
    curl_easy_reset(c);
    curl_easy_setopt(c, CURLOPT_URL, config_.endpoint.c_str());
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers_);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max<int64_t>(1, timeout.count())));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // curl must not touch the JVM's signal handlers
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, collect_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &retry_after);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "jvmsight-otlp");
    if (!config_.certificate.empty()) curl_easy_setopt(c, CURLOPT_CAINFO, config_.certificate.c_str());
    if (!config_.client_certificate.empty()) curl_easy_setopt(c, CURLOPT_SSLCERT, config_.client_certificate.c_str());
    if (!config_.client_key.empty()) curl_easy_setopt(c, CURLOPT_SSLKEY, config_.client_key.c_str());

    CURLcode rc = curl_easy_perform(c);
    if (rc != CURLE_OK) {
      // Connection refused, timeouts, resets: the collector may come back.
      result.kind = ExportResult::Kind::retryable;
      result.message = std::string("HTTP ") + curl_easy_strerror(rc);
      return result;
    }
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (status >= 200 && status < 300) {
      result.kind = ExportResult::Kind::ok;
      result.response = std::move(response);
      return result;
    }
    result.message = "HTTP status " + std::to_string(status);
    if (auto delay = parse_retry_after(retry_after)) result.retry_after = *delay;
    const bool retryable = status == 429 || status == 502 || status == 503 || status == 504;
    result.kind = retryable ? ExportResult::Kind::retryable : ExportResult::Kind::failed;
    return result;
  }

 private:
  SignalConfig config_;
  CURL* curl_ = nullptr;
  curl_slist* headers_ = nullptr;
};

std::unique_ptr<ExportClient> make_http_client(const SignalConfig& config, std::string& error) {
  static std::once_flag init;
  std::call_once(init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  auto client = std::make_unique<HttpClient>(config);
  if (!client->ok()) {
    error = "cannot initialise libcurl";
    return nullptr;
  }
  return client;
}

}  // namespace
}  // namespace jvmsight::otlp

JVMSIGHT_OTLP_TRANSPORT_FACTORY(jvmsight::otlp::make_http_client(*config, *error))
