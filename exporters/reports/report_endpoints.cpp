#include "exporters/reports/report_endpoints.h"

#include "exporters/reports/gc_report.h"
#include "exporters/reports/lock_order_report.h"
#include "exporters/reports/thread_report.h"

namespace jvmsight {
namespace {

// nullopt: the format is not one we serve.
std::optional<bool> wants_json(const HttpRequest& req) {
  std::string format = query_param(req.query, "format");
  if (format.empty() || format == "text") return false;
  if (format == "json") return true;
  return std::nullopt;
}

// A route that renders what source gives as text, or as JSON when asked.
template <class Report>
HttpRoute text_or_json(std::string path, std::string summary, std::function<std::optional<Report>()> source,
                       std::string (*text)(const Report&), std::string (*json)(const Report&)) {
  return {std::move(path),
          [source = std::move(source), text, json](const HttpRequest& req) {
            auto as_json = wants_json(req);
            if (!as_json) return plain_response(400, "unknown format; use ?format=text or ?format=json\n");
            auto report = source();
            if (!report) return busy_response();
            return *as_json ? HttpResponse{200, json_content_type, json(*report)} : plain_response(200, text(*report));
          },
          std::move(summary)};
}

}  // namespace

HttpRoute threads_endpoint(ThreadsSource source) {
  return text_or_json<std::vector<ThreadRecord>>("/threads",
                                                 "every platform thread: state, stack, locks (?format=json)",
                                                 std::move(source), threads_text, threads_json);
}

HttpRoute deadlocks_endpoint(DeadlocksSource source) {
  return text_or_json<DeadlocksPage>(
      "/deadlocks", "current deadlock cycles with threads, locks and stacks, and lock-order inversions (?format=json)",
      std::move(source), deadlocks_page_text, deadlocks_page_json);
}

// JSON only: its consumers are programs. Asked for another format, it says
// so (400) instead of answering JSON to a client that expects text.
HttpRoute gc_endpoint(GcReportSource source) {
  HttpRoute route = snapshot_route<GcReport>("/gc", "recent GC pauses and queued pause spans (JSON)", std::move(source),
                                             [](const GcReport& report) {
                                               return HttpResponse{200, json_content_type, gc_report_json(report)};
                                             });
  route.handler = [serve = std::move(route.handler)](const HttpRequest& req) {
    std::string format = query_param(req.query, "format");
    if (!format.empty() && format != "json")
      return plain_response(400, "/gc is served as JSON only; use ?format=json or no format\n");
    return serve(req);
  };
  return route;
}

}  // namespace jvmsight
