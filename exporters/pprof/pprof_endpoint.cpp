#include "exporters/pprof/pprof_endpoint.h"

#include <utility>

#include "exporters/pprof/gzip_stored.h"
#include "exporters/pprof/profile_encoder.h"
#include "exporters/pprof/profile_query.h"

namespace jvmsight {
namespace {

// ?seconds=N: the snapshot taken at the request, subtracted from the one
// taken when the time is up.
class DeltaResponse : public DeferredResponse {
 public:
  DeltaResponse(std::shared_ptr<ProfileSource> source, ContentionProfile start, bool text, std::string title)
      : source_(std::move(source)), start_(std::move(start)), text_(text), title_(std::move(title)) {}

  HttpResponse respond() override {
    std::optional<ContentionProfile> end = source_->snapshot();
    if (!end) return busy_response();
    return profile_response(profile_delta(std::move(*end), start_), text_, title_);
  }

 private:
  std::shared_ptr<ProfileSource> source_;
  ContentionProfile start_;
  bool text_;
  std::string title_;
};

// A profile route: the totals, or the delta answered later.
class ProfileEndpoint : public HttpEndpoint {
 public:
  ProfileEndpoint(std::shared_ptr<ProfileSource> source, std::string title)
      : source_(std::move(source)), title_(std::move(title)) {}

  HttpResponse answer(const HttpRequest& req) override {
    const ProfileQuery query = parse_profile_query(req.query);
    if (!query.ok()) return plain_response(400, query.error);
    std::optional<ContentionProfile> now = source_->snapshot();
    if (!now) return busy_response();
    if (query.seconds == 0) return profile_response(*now, query.text, title_);
    HttpResponse later;
    later.later = std::make_shared<DeltaResponse>(source_, std::move(*now), query.text, title_);
    later.after = std::chrono::seconds(query.seconds);
    return later;
  }

 private:
  std::shared_ptr<ProfileSource> source_;
  std::string title_;
};

}  // namespace

HttpResponse profile_response(const ContentionProfile& profile, bool text, const std::string& title) {
  if (text) return plain_response(200, profile_text(profile, title));
  HttpResponse r{200, "application/octet-stream", gzip_stored(encode_pprof(profile))};
  r.headers.emplace_back("Content-Disposition", "attachment; filename=\"profile\"");
  return r;
}

HttpRoute profile_route(std::string path, std::string summary, std::string title,
                        std::shared_ptr<ProfileSource> source) {
  return {std::move(path), std::make_shared<ProfileEndpoint>(std::move(source), std::move(title)), std::move(summary)};
}

}  // namespace jvmsight
