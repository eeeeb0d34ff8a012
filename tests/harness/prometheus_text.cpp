#include "tests/harness/prometheus_text.h"

#include <sstream>

namespace jvmsight::test {

PromScrape::PromScrape(const std::string& text) {
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) {
    if (line.empty()) continue;
    if (line.rfind("# TYPE ", 0) == 0) {
      std::stringstream t(line.substr(7));
      std::string name, type;
      t >> name >> type;
      types_[name] = type;
      continue;
    }
    if (line[0] == '#') continue;
    PromSample s;
    size_t brace = line.find('{');
    size_t space;
    if (brace != std::string::npos && brace < line.find(' ')) {
      s.name = line.substr(0, brace);
      size_t pos = brace + 1;
      while (pos < line.size() && line[pos] != '}') {
        size_t eq = line.find('=', pos);
        std::string key = line.substr(pos, eq - pos);
        std::string value;
        size_t i = eq + 2;  // past ="
        for (; i < line.size() && line[i] != '"'; ++i) {
          if (line[i] == '\\' && i + 1 < line.size()) ++i;
          value += line[i];
        }
        s.labels[key] = value;
        pos = i + 1;
        if (pos < line.size() && line[pos] == ',') ++pos;
      }
      space = line.find(' ', pos);
    } else {
      space = line.find(' ');
      s.name = line.substr(0, space);
    }
    s.value = std::stod(line.substr(space + 1));
    samples_.push_back(std::move(s));
  }
}

std::optional<double> PromScrape::value(const std::string& name,
                                        const std::map<std::string, std::string>& labels) const {
  std::optional<double> found;
  for (const auto& s : samples_) {
    if (s.name != name) continue;
    bool match = true;
    for (const auto& [k, v] : labels) {
      auto it = s.labels.find(k);
      match = match && it != s.labels.end() && it->second == v;
    }
    if (!match) continue;
    if (found) return std::nullopt;  // ambiguous
    found = s.value;
  }
  return found;
}

std::vector<PromSample> PromScrape::all(const std::string& name) const {
  std::vector<PromSample> out;
  for (const auto& s : samples_)
    if (s.name == name) out.push_back(s);
  return out;
}

std::string PromScrape::type_of(const std::string& family) const {
  auto it = types_.find(family);
  return it == types_.end() ? "" : it->second;
}

}  // namespace jvmsight::test
