// OTLP/gRPC: the unary Export method of MetricsService, TraceService or
// LogsService, spoken directly as gRPC over HTTP/2 with nghttp2 on the
// transports' own connection (connection.h), the request already
// serialized. Not grpc++: its closure (grpc, abseil, re2, c-ares, upb: 47
// shared objects and 8 threads) cost a JVM about 9 MiB more resident memory
// than this for one unary call every few seconds (docs/BENCHMARKS.md).
// The test receivers are grpc++ servers, so every behaviour is checked
// against the reference implementation.
//
// One HTTP/2 connection per signal, kept between exports and opened again
// after any failure; one call at a time on the worker's thread; every wait
// bounded by the call's deadline.
#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <vector>

#include "exporters/otlp/connection.h"
#include "exporters/otlp/export_client.h"
#include "exporters/otlp/grpc_wire.h"
#include "exporters/otlp/gzip.h"
#include "exporters/otlp/otlp_config.h"

namespace jvmsight::otlp {
namespace {

constexpr size_t response_limit = 1 << 20;  // an Export response is small; never let one grow memory

const char* export_path(Signal signal) {
  switch (signal) {
    case Signal::metrics:
      return "/opentelemetry.proto.collector.metrics.v1.MetricsService/Export";
    case Signal::traces:
      return "/opentelemetry.proto.collector.trace.v1.TraceService/Export";
    case Signal::logs:
      return "/opentelemetry.proto.collector.logs.v1.LogsService/Export";
  }
  return "";
}

// What arrived on the call's stream.
struct Call {
  const std::string* frame = nullptr;  // the request, framed
  size_t sent = 0;
  int32_t stream_id = -1;
  bool closed = false;
  uint32_t reset_code = 0;  // HTTP/2 error code the stream closed with
  bool any_header = false;
  int http_status = 0;
  std::optional<int> grpc_status;
  std::string grpc_message;
  std::string status_details;  // grpc-status-details-bin, still base64
  std::string grpc_encoding;
  std::string body;
  bool body_too_large = false;
};

class GrpcClient : public ExportClient {
 public:
  // The request headers are the same for every call but grpc-timeout: made
  // once. Metadata keys arrive lowercase (parse_headers).
  GrpcClient(Signal signal, const SignalConfig& config, HttpUrl url)
      : url_(std::move(url)),
        gzip_(config.compression == Compression::gzip),
        tls_({config.certificate, config.client_certificate, config.client_key}),
        headers_{{":method", "POST"},
                 {":scheme", url_.tls ? "https" : "http"},
                 {":path", export_path(signal)},
                 {":authority", url_.host.find(':') != std::string::npos ? "[" + url_.host + "]:" + url_.port
                                                                         : url_.host + ":" + url_.port},
                 {"content-type", "application/grpc"},
                 {"te", "trailers"},
                 {"user-agent", "jvmsight-otlp"},
                 {"grpc-accept-encoding", "identity,gzip"}} {
    if (gzip_) headers_.emplace_back("grpc-encoding", "gzip");
    for (const auto& [key, value] : config.headers)
      if (!key.empty() && key[0] != ':') headers_.emplace_back(key, value);  // pseudo-headers are the protocol's
  }
  ~GrpcClient() override { drop_connection(); }

  // Reads the certificate files now: one clear error at start, not at every export.
  bool ready(std::string& error) { return !url_.tls || tls_.get(error) != nullptr; }

  ExportResult export_request(const std::string& request_bytes, std::chrono::milliseconds timeout) override {
    const auto deadline = Clock::now() + std::max(timeout, std::chrono::milliseconds(1));
    std::string message;
    if (gzip_ && !gzip(request_bytes, message)) return export_result_of(grpc_internal, "gzip failed", "");
    const std::string frame = grpc_frame(gzip_ ? message : request_bytes, gzip_);
    // A kept connection the server has closed meanwhile (idle timeout,
    // GOAWAY) is only noticed when used: then one fresh attempt.
    for (int attempt = 0;; ++attempt) {
      const bool reused = drain_idle_connection();
      std::string error;
      if (!session_ && !open_session(deadline, error)) return export_result_of(grpc_unavailable, error, "");
      Call call;
      call.frame = &frame;
      const bool completed = run(call, timeout, deadline, error);
      const bool refused = !call.any_header && (!completed || call.reset_code == NGHTTP2_REFUSED_STREAM);
      if (refused && reused && attempt == 0 && Clock::now() < deadline) continue;
      if (!completed)
        return export_result_of(Clock::now() >= deadline ? grpc_deadline_exceeded : grpc_unavailable, error, "");
      return result_of(call);
    }
  }

 private:
  // Reads what arrived while idle (SETTINGS, PING, GOAWAY, the end of the
  // stream); drops the connection if it can no longer carry a call. True
  // when a kept connection is still there to be used.
  bool drain_idle_connection() {
    if (!session_) return false;
    connection_->set_deadline(Clock::now());
    while (connection_->readable_now()) {
      std::string in;
      if (connection_->read_some(in) <= 0 ||
          nghttp2_session_mem_recv(session_, reinterpret_cast<const uint8_t*>(in.data()), in.size()) < 0) {
        drop_connection();
        return false;
      }
    }
    if (goaway_ || !nghttp2_session_want_read(session_) || nghttp2_session_send(session_) != 0) {
      drop_connection();
      return false;
    }
    return true;
  }

  bool open_session(Clock::time_point deadline, std::string& error) {
    connection_ = Connection::open(url_, tls_, "h2", deadline, error);
    if (!connection_) return false;
    nghttp2_session_callbacks* callbacks = nullptr;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_send_callback(callbacks, on_send);
    nghttp2_session_callbacks_set_on_header_callback(callbacks, on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, on_data);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, on_stream_close);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, on_frame);
    const int rc = nghttp2_session_client_new(&session_, callbacks, this);
    nghttp2_session_callbacks_del(callbacks);
    if (rc != 0) {
      session_ = nullptr;
      connection_.reset();
      error = "cannot start an HTTP/2 session";
      return false;
    }
    goaway_ = false;
    nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings, 1);
    return true;
  }

  void drop_connection() {
    if (session_) {
      // A polite GOAWAY if it can leave at once; the connection closes either way.
      connection_->set_deadline(Clock::now());
      nghttp2_session_terminate_session(session_, NGHTTP2_NO_ERROR);
      nghttp2_session_send(session_);
      nghttp2_session_del(session_);
      session_ = nullptr;
    }
    connection_.reset();
  }

  // Sends the call and reads until its stream closes. False (error set, the
  // connection dropped) when the connection fails or the deadline passes.
  bool run(Call& call, std::chrono::milliseconds timeout, Clock::time_point deadline, std::string& error) {
    connection_->set_deadline(deadline);
    const std::pair<std::string, std::string> timeout_header{"grpc-timeout", grpc_timeout(timeout)};
    std::vector<nghttp2_nv> nv;  // the pseudo-headers (headers_ begins with them) must come first
    for (const auto& h : headers_) nv.push_back(name_value(h));
    nv.push_back(name_value(timeout_header));

    nghttp2_data_provider body{};
    body.source.ptr = &call;
    body.read_callback = on_read_body;
    call_ = &call;
    call.stream_id = nghttp2_submit_request(session_, nullptr, nv.data(), nv.size(), &body, nullptr);
    bool ok = call.stream_id > 0;
    if (!ok) error = "cannot start an HTTP/2 stream";
    while (ok && !call.closed) {
      if (nghttp2_session_send(session_) != 0) {
        ok = false;
        error = "cannot send the request (connection closed or timed out)";
        break;
      }
      if (call.closed) break;
      std::string in;
      const ssize_t n = connection_->read_some(in);
      if (n <= 0) {
        ok = false;
        error = n == 0 ? "the connection closed before the answer" : "no complete answer in time";
        break;
      }
      if (nghttp2_session_mem_recv(session_, reinterpret_cast<const uint8_t*>(in.data()), in.size()) < 0) {
        ok = false;
        error = "malformed HTTP/2 from the server";
      }
    }
    call_ = nullptr;
    if (ok) ok = nghttp2_session_send(session_) == 0;  // WINDOW_UPDATE and the like; a failure shows next time
    if (!ok || goaway_) drop_connection();
    return ok || call.closed;
  }

  static nghttp2_nv name_value(const std::pair<std::string, std::string>& h) {
    return {reinterpret_cast<uint8_t*>(const_cast<char*>(h.first.data())),
            reinterpret_cast<uint8_t*>(const_cast<char*>(h.second.data())), h.first.size(), h.second.size(),
            NGHTTP2_NV_FLAG_NONE};
  }

  static ExportResult result_of(const Call& call) {
    if (!call.grpc_status) {
      if (call.reset_code != 0) return export_result_of(grpc_code_from_reset(call.reset_code), "stream reset", "");
      if (call.http_status != 200)
        return export_result_of(grpc_code_from_http_status(call.http_status),
                                "HTTP status " + std::to_string(call.http_status), "");
      return export_result_of(grpc_internal, "no grpc-status in the answer", "");
    }
    const std::string details = base64_decode(call.status_details).value_or("");
    std::string message;  // grpc-message is percent-encoded; a malformed one is shown as it came
    if (!percent_decode(call.grpc_message, message)) message = call.grpc_message;
    ExportResult result = export_result_of(*call.grpc_status, message, details);
    if (result.kind != ExportResult::Kind::ok || call.body.empty()) return result;
    std::string answer;
    bool compressed = false;
    if (call.body_too_large || !grpc_unframe(call.body, answer, compressed))
      return export_result_of(grpc_internal, "malformed answer", "");
    if (compressed && !(call.grpc_encoding == "gzip" && gunzip(answer, result.response, response_limit)))
      return export_result_of(grpc_internal, "cannot decompress the answer (" + call.grpc_encoding + ")", "");
    if (!compressed) result.response = std::move(answer);
    return result;
  }

  // nghttp2 callbacks: they only copy into the call in flight and never throw.
  static ssize_t on_send(nghttp2_session*, const uint8_t* data, size_t size, int, void* self) {
    auto* client = static_cast<GrpcClient*>(self);
    return client->connection_->write_all(reinterpret_cast<const char*>(data), size)
               ? static_cast<ssize_t>(size)
               : static_cast<ssize_t>(NGHTTP2_ERR_CALLBACK_FAILURE);
  }
  static ssize_t on_read_body(nghttp2_session*, int32_t, uint8_t* buf, size_t size, uint32_t* flags,
                              nghttp2_data_source* source, void*) {
    auto* call = static_cast<Call*>(source->ptr);
    const size_t n = std::min(size, call->frame->size() - call->sent);
    std::copy_n(call->frame->data() + call->sent, n, buf);
    call->sent += n;
    if (call->sent == call->frame->size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }
  static int on_header(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name, size_t name_size,
                       const uint8_t* value, size_t value_size, uint8_t, void* self) {
    Call* call = static_cast<GrpcClient*>(self)->call_;
    if (call == nullptr || frame->hd.stream_id != call->stream_id) return 0;
    call->any_header = true;
    const std::string key(reinterpret_cast<const char*>(name), name_size);
    const std::string text(reinterpret_cast<const char*>(value), std::min<size_t>(value_size, 4096));
    if (key == ":status")
      call->http_status = std::atoi(text.c_str());
    else if (key == "grpc-status")
      call->grpc_status = std::atoi(text.c_str());
    else if (key == "grpc-message")
      call->grpc_message = text;
    else if (key == "grpc-status-details-bin")
      call->status_details = std::string(reinterpret_cast<const char*>(value), std::min<size_t>(value_size, 65536));
    else if (key == "grpc-encoding")
      call->grpc_encoding = text;
    return 0;
  }
  static int on_data(nghttp2_session*, uint8_t, int32_t stream_id, const uint8_t* data, size_t size, void* self) {
    Call* call = static_cast<GrpcClient*>(self)->call_;
    if (call == nullptr || stream_id != call->stream_id) return 0;
    if (call->body.size() + size > response_limit + 5)
      call->body_too_large = true;
    else
      call->body.append(reinterpret_cast<const char*>(data), size);
    return 0;
  }
  static int on_stream_close(nghttp2_session*, int32_t stream_id, uint32_t error_code, void* self) {
    Call* call = static_cast<GrpcClient*>(self)->call_;
    if (call == nullptr || stream_id != call->stream_id) return 0;
    call->closed = true;
    call->reset_code = error_code;
    return 0;
  }
  static int on_frame(nghttp2_session*, const nghttp2_frame* frame, void* self) {
    if (frame->hd.type == NGHTTP2_GOAWAY) static_cast<GrpcClient*>(self)->goaway_ = true;
    return 0;
  }

  const HttpUrl url_;
  const bool gzip_;
  TlsContext tls_;
  std::vector<std::pair<std::string, std::string>> headers_;
  std::unique_ptr<Connection> connection_;
  nghttp2_session* session_ = nullptr;
  Call* call_ = nullptr;  // the call in flight, for the callbacks
  bool goaway_ = false;   // the server is closing this connection: the next call opens another
};

}  // namespace

std::unique_ptr<ExportClient> make_grpc_client(Signal signal, const SignalConfig& config, std::string& error) {
  HttpUrl url;
  // The endpoint is a host:port target; the scheme only says whether TLS is used.
  if (!parse_http_url((config.tls ? "https://" : "http://") + config.endpoint, url) || url.path != "/") {
    error = "the OTLP gRPC endpoint " + config.endpoint + " is not host:port";
    return nullptr;
  }
  auto client = std::make_unique<GrpcClient>(signal, config, std::move(url));
  if (!client->ready(error)) return nullptr;
  return client;
}

}  // namespace jvmsight::otlp
