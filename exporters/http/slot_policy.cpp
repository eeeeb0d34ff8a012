#include "exporters/http/slot_policy.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <tuple>

namespace jvmsight {

std::string address_group(const std::string& a) {
  if (a.rfind("::ffff:", 0) == 0 && a.find('.') != std::string::npos) return a.substr(7);
  in6_addr v6{};
  if (inet_pton(AF_INET6, a.c_str(), &v6) != 1) return a;
  std::fill(v6.s6_addr + 8, v6.s6_addr + 16, 0);
  char text[INET6_ADDRSTRLEN] = {0};
  return inet_ntop(AF_INET6, &v6, text, sizeof(text)) ? text : a;
}

size_t slot_to_free(const std::vector<SlotHolder>& slots) {
  // At most a few dozen slots: counting by pairs needs no allocation, so
  // it works when memory does not.
  size_t best = 0;
  std::tuple<size_t, int, uint64_t> best_key{0, 0, 0};
  for (size_t i = 0; i < slots.size(); ++i) {
    size_t held = 0;
    for (const auto& other : slots) held += other.group == slots[i].group;
    // More slots first, then the earlier stage, then the older.
    std::tuple<size_t, int, uint64_t> key{held, -slots[i].stage, ~slots[i].number};
    if (i == 0 || key > best_key) {
      best = i;
      best_key = key;
    }
  }
  return best;
}

}  // namespace jvmsight
