#pragma once
// Reads the Prometheus text format back into samples, for assertions.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jvmsight::test {

struct PromSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

class PromScrape {
 public:
  explicit PromScrape(const std::string& text);
  // The value of the sample with this name whose labels include `labels`
  // (exactly one must match); nullopt if none.
  std::optional<double> value(const std::string& name, const std::map<std::string, std::string>& labels = {}) const;
  std::vector<PromSample> all(const std::string& name) const;
  std::string type_of(const std::string& family) const;  // from # TYPE

 private:
  std::vector<PromSample> samples_;
  std::map<std::string, std::string> types_;
};

}  // namespace jvmsight::test
