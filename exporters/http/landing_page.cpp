#include "exporters/http/landing_page.h"

namespace jvmsight {
namespace {

std::string html_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The page, written once when the routes are known.
class LandingPage : public HttpEndpoint {
 public:
  explicit LandingPage(std::string html) : html_(std::move(html)) {}
  HttpResponse answer(const HttpRequest&) override { return {200, "text/html; charset=utf-8", html_}; }

 private:
  const std::string html_;
};

}  // namespace

HttpRoute landing_page(const std::vector<HttpRoute>& routes) {
  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>jvmsight</title></head>\n"
      "<body><h1>jvmsight</h1>\n<ul>\n";
  for (const auto& r : routes) {
    std::string path = html_escaped(r.path);
    html += "<li><a href=\"" + path + "\">" + path + "</a>";
    if (!r.summary.empty()) html += ": " + html_escaped(r.summary);
    html += "</li>\n";
  }
  html += "</ul>\n</body></html>\n";
  return {"/", std::make_shared<LandingPage>(std::move(html)), "this page"};
}

}  // namespace jvmsight
