#include "options/near_miss.h"

#include <algorithm>

namespace jvmsight {

size_t edit_distance(std::string_view a, std::string_view b) {
  constexpr size_t max_len = 64;
  if (a.size() > max_len || b.size() > max_len) return max_len;
  size_t row[max_len + 1];
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

NearMiss closest_key(std::string_view typed, const std::vector<std::string_view>& candidates, size_t below) {
  NearMiss best{{}, below};
  for (std::string_view candidate : candidates) {
    size_t d = edit_distance(typed, candidate);
    if (d < best.distance && d * 2 <= std::max(typed.size(), candidate.size())) best = {candidate, d};
  }
  return best;
}

}  // namespace jvmsight
