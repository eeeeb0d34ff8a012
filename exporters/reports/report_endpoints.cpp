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

// What the source gave, as text, or as JSON when asked.
template <class Report>
HttpResponse text_or_json(bool as_json, const std::optional<Report>& report, std::string (*text)(const Report&),
                          std::string (*json)(const Report&)) {
  if (!report) return busy_response();
  return as_json ? HttpResponse{200, json_content_type, json(*report)} : plain_response(200, text(*report));
}

HttpResponse unknown_format() { return plain_response(400, "unknown format; use ?format=text or ?format=json\n"); }

}  // namespace

HttpResponse ThreadsEndpoint::answer(const HttpRequest& req) {
  auto as_json = wants_json(req);  // checked first: a bad format costs no dump
  if (!as_json) return unknown_format();
  return text_or_json(*as_json, source_.thread_dump(), threads_text, threads_json);
}

HttpResponse DeadlocksEndpoint::answer(const HttpRequest& req) {
  auto as_json = wants_json(req);
  if (!as_json) return unknown_format();
  return text_or_json(*as_json, source_.deadlocks(), deadlocks_page_text, deadlocks_page_json);
}

HttpResponse GcEndpoint::answer(const HttpRequest& req) {
  std::string format = query_param(req.query, "format");
  if (!format.empty() && format != "json")
    return plain_response(400, "/gc is served as JSON only; use ?format=json or no format\n");
  std::optional<GcReport> report = source_.gc_report();
  if (!report) return busy_response();
  return {200, json_content_type, gc_report_json(*report)};
}

HttpRoute threads_endpoint(ReportSource& source) {
  return {"/threads", std::make_shared<ThreadsEndpoint>(source),
          "every platform thread: state, stack, locks (?format=json)"};
}

HttpRoute deadlocks_endpoint(ReportSource& source) {
  return {"/deadlocks", std::make_shared<DeadlocksEndpoint>(source),
          "current deadlock cycles with threads, locks and stacks, and lock-order inversions (?format=json)"};
}

HttpRoute gc_endpoint(ReportSource& source) {
  return {"/gc", std::make_shared<GcEndpoint>(source), "recent GC pauses and queued pause spans (JSON)"};
}

}  // namespace jvmsight
