#include "exporters/pprof/profile_query.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

TEST(ProfileQuery, NoQueryIsTheTotalsAsProto) {
  ProfileQuery q = parse_profile_query("");
  EXPECT_TRUE(q.ok());
  EXPECT_EQ(q.seconds, 0);
  EXPECT_FALSE(q.text);
}

TEST(ProfileQuery, SecondsAndDebugAsGoSendsThem) {
  ProfileQuery q = parse_profile_query("seconds=14&debug=1");
  EXPECT_TRUE(q.ok()) << q.error;
  EXPECT_EQ(q.seconds, 14);
  EXPECT_TRUE(q.text);
  EXPECT_EQ(parse_profile_query("seconds=300").seconds, 300);
  EXPECT_EQ(parse_profile_query("debug=0&seconds=1").seconds, 1);
  // Keys the endpoint does not know are ignored, as Go's net/http/pprof does.
  EXPECT_TRUE(parse_profile_query("gc=1&seconds=5&x").ok());
}

TEST(ProfileQuery, BadSecondsAreOneLineAndNeverHeldOpen) {
  for (const char* bad :
       {"seconds=0", "seconds=301", "seconds=-5", "seconds=+5", "seconds=", "seconds", "seconds=1e3", "seconds=5s",
        "seconds=%35", "seconds= 5", "seconds=99999999999999999999", "seconds=2147483648", "seconds=0x10"}) {
    ProfileQuery q = parse_profile_query(bad);
    EXPECT_FALSE(q.ok()) << bad;
    EXPECT_EQ(q.error, "seconds must be a whole number from 1 to 300\n") << bad;
    EXPECT_EQ(q.seconds, 0) << bad;
  }
}

TEST(ProfileQuery, BadDebugIsOneLine) {
  for (const char* bad : {"debug=2", "debug=yes", "debug=", "debug", "debug=-1", "debug=01x"}) {
    ProfileQuery q = parse_profile_query(bad);
    EXPECT_FALSE(q.ok()) << bad;
    EXPECT_EQ(q.error, "debug must be 0 or 1\n") << bad;
  }
  // A key that only starts like one is another key.
  EXPECT_TRUE(parse_profile_query("debugger=7&secondsx=9").ok());
}

}  // namespace
}  // namespace jvmsight
