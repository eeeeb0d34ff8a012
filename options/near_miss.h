#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace jvmsight {

// Levenshtein distance, cut off: keys are short, a typed key may be long
// (then it is no near miss and not worth the quadratic work). Strings over
// 64 characters count as 64 edits from anything.
size_t edit_distance(std::string_view a, std::string_view b);

struct NearMiss {
  std::string_view key;  // empty: no candidate is close enough
  size_t distance;
};

// The candidate closest to what was typed, if it is a near miss: fewer than
// `below` edits (at most 2 by default), and at most half the longer of the
// two (so "xg" does not suggest "log"). Ties go to the earlier candidate.
NearMiss closest_key(std::string_view typed, const std::vector<std::string_view>& candidates, size_t below = 3);

}  // namespace jvmsight
