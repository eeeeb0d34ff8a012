#pragma once
// Which connection gives up its slot when every slot is taken and another
// client connects. The rule (docs/SECURITY.md): the client address holding
// the most slots loses one, its oldest connection that has not yet sent a
// whole request (then the oldest being drained, then the oldest being
// answered). A flood from one address only ever evicts itself; a scraper
// from another address keeps its one slot.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jvmsight {

// The part of a client address that counts as one client: an IPv4 address
// (also written as ::ffff:a.b.c.d) whole, an IPv6 address by its /64, which
// one host usually holds whole ("2001:db8:1:2::").
std::string address_group(const std::string& remote_addr);

struct SlotHolder {
  std::string_view group;  // address_group of the client
  int stage = 0;           // 0 unfinished request, 1 draining, 2 being answered
  uint64_t number = 0;     // order of arrival: lower is older
};

// The index of the slot to free; slots must not be empty.
size_t slot_to_free(const std::vector<SlotHolder>& slots);

}  // namespace jvmsight
