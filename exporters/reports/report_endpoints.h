#pragma once
// The detail endpoints: GET /threads and GET /deadlocks (deadlocks formed
// and potential ones; text by default, JSON with ?format=json) and GET /gc
// (JSON). Each runs on the HTTP server's
// thread and takes its report from a ReportSource (the agent's is
// AgentAnswers, agent/http_front.h, which asks the agent thread and waits).
#include <optional>
#include <vector>

#include "exporters/http/http_server.h"
#include "model/deadlock.h"
#include "model/gc_report.h"
#include "model/lock_order.h"

namespace jvmsight {

class ReportSource {
 public:
  virtual ~ReportSource() = default;
  // Each nullopt when no report could be had in time (JVM busy or
  // exiting): the endpoints answer 503.
  virtual std::optional<std::vector<ThreadRecord>> thread_dump() = 0;
  virtual std::optional<DeadlocksPage> deadlocks() = 0;
  virtual std::optional<GcReport> gc_report() = 0;
};

// /threads and /deadlocks: text, or JSON when asked (400 for another format).
class ThreadsEndpoint : public HttpEndpoint {
 public:
  explicit ThreadsEndpoint(ReportSource& source) : source_(source) {}
  HttpResponse answer(const HttpRequest& request) override;

 private:
  ReportSource& source_;
};

class DeadlocksEndpoint : public HttpEndpoint {
 public:
  explicit DeadlocksEndpoint(ReportSource& source) : source_(source) {}
  HttpResponse answer(const HttpRequest& request) override;

 private:
  ReportSource& source_;
};

// JSON only: its consumers are programs. Asked for another format, it says
// so (400) instead of answering JSON to a client that expects text.
class GcEndpoint : public HttpEndpoint {
 public:
  explicit GcEndpoint(ReportSource& source) : source_(source) {}
  HttpResponse answer(const HttpRequest& request) override;

 private:
  ReportSource& source_;
};

// The routes; source must outlive the server.
HttpRoute threads_endpoint(ReportSource& source);
HttpRoute deadlocks_endpoint(ReportSource& source);
HttpRoute gc_endpoint(ReportSource& source);

}  // namespace jvmsight
