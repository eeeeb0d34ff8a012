// metric_docs: prints docs/METRICS.md's catalogue section (no argument),
// checks a document against the catalogue (--check FILE: exit 1 and say
// what differs), or rewrites its section (--write FILE).
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "model/metric_docs.h"

namespace {

bool read(const std::string& path, std::string& out) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  out = text.str();
  return static_cast<bool>(in);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode.empty()) {
    std::cout << jvmsight::render_metric_tables();
    return 0;
  }
  std::string document;
  if (argc != 3 || (mode != "--check" && mode != "--write") || !read(argv[2], document)) {
    std::cerr << "usage: metric_docs [--check FILE | --write FILE]\n";
    return 2;
  }
  const std::string updated = jvmsight::with_metric_tables(document);
  if (updated.empty()) {
    std::cerr << argv[2] << ": no metric catalogue markers\n";
    return 1;
  }
  if (mode == "--write") {
    std::ofstream(argv[2]) << updated;
    return 0;
  }
  int status = 0;
  if (updated != document) {
    std::cerr << argv[2] << ": the metric catalogue section differs from the catalogue; regenerate it with\n"
              << "  build/model/metric_docs --write " << argv[2] << "\n";
    status = 1;
  }
  const std::string unsectioned = jvmsight::unsectioned_rows();
  if (!unsectioned.empty()) {
    std::cerr << "catalogue rows whose collector has no table in model/metric_docs.cpp:\n" << unsectioned;
    status = 1;
  }
  const std::string missing = jvmsight::uncatalogued_names(document);
  if (!missing.empty()) {
    std::cerr << argv[2] << ": names the catalogue does not serve:\n" << missing;
    status = 1;
  }
  return status;
}
