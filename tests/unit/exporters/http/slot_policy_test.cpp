// Which connection slot a newcomer takes: the address holding the most
// loses its oldest unfinished request.
#include "exporters/http/slot_policy.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

TEST(SlotPolicy, AddressGroups) {
  EXPECT_EQ(address_group("10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(address_group("::ffff:10.1.2.3"), "10.1.2.3");
  // One /64 however inet_ntop shortens the rest.
  EXPECT_EQ(address_group("2001:db8::1"), address_group("2001:db8:0:0:1::"));
  EXPECT_EQ(address_group("2001:db8:0:0:ffff:1:2:3"), "2001:db8::");
  EXPECT_NE(address_group("2001:db8:0:1::1"), address_group("2001:db8::1"));
}

TEST(SlotPolicy, TheBiggestHolderLosesItsOldestUnfinishedSlot) {
  // A scraper (one slot, oldest of all, unfinished) beside a flood.
  std::vector<SlotHolder> slots = {
      {"127.0.0.1", 0, 1}, {"127.0.0.2", 2, 2}, {"127.0.0.2", 0, 5}, {"127.0.0.2", 1, 3}, {"127.0.0.2", 0, 4}};
  EXPECT_EQ(slot_to_free(slots), 4u);  // unfinished before draining and answered ones, oldest first
  slots = {{"127.0.0.1", 0, 1}, {"127.0.0.2", 2, 2}, {"127.0.0.2", 1, 3}};
  EXPECT_EQ(slot_to_free(slots), 2u);  // then the oldest draining
  slots = {{"a", 0, 9}, {"a", 0, 3}, {"a", 0, 7}};
  EXPECT_EQ(slot_to_free(slots), 1u);  // one address: its oldest
}

}  // namespace
}  // namespace jvmsight
