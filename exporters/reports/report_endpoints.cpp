#include "exporters/reports/report_endpoints.h"

#include "exporters/reports/thread_report.h"

namespace jvmsight {
namespace {

constexpr const char* text_type = "text/plain; charset=utf-8";
constexpr const char* json_type = "application/json";

// nullopt: the format is not one we serve.
std::optional<bool> wants_json(const HttpRequest& req) {
  std::string format = query_param(req.query, "format");
  if (format.empty() || format == "text") return false;
  if (format == "json") return true;
  return std::nullopt;
}

HttpResponse bad_format() { return {400, text_type, "unknown format; use ?format=text or ?format=json\n"}; }
HttpResponse busy() { return {503, text_type, "JVM busy or exiting; try again\n"}; }

}  // namespace

HttpRoute threads_endpoint(ThreadsSource source) {
  return {"/threads", [source = std::move(source)](const HttpRequest& req) {
            auto json = wants_json(req);
            if (!json) return bad_format();
            auto threads = source();
            if (!threads) return busy();
            return *json ? HttpResponse{200, json_type, threads_json(*threads)}
                         : HttpResponse{200, text_type, threads_text(*threads)};
          }};
}

HttpRoute deadlocks_endpoint(DeadlocksSource source) {
  return {"/deadlocks", [source = std::move(source)](const HttpRequest& req) {
            auto json = wants_json(req);
            if (!json) return bad_format();
            auto deadlocks = source();
            if (!deadlocks) return busy();
            return *json ? HttpResponse{200, json_type, deadlocks_json(*deadlocks)}
                         : HttpResponse{200, text_type, deadlocks_text(*deadlocks)};
          }};
}

}  // namespace jvmsight
