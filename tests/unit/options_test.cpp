#include "agent/options.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

TEST(LockOptions, DefaultsServeDetailsAndCheckTwiceASecond) {
  auto p = parse_options("");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_TRUE(p.options.details);
  EXPECT_EQ(p.options.deadlock_check_ms, 500);
  EXPECT_EQ(p.options.lock_classes, 20);
}

TEST(LockOptions, ParsesEachLockOption) {
  auto p = parse_options("details=off,deadlock_check_ms=250,lock_classes=5");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_FALSE(p.options.details);
  EXPECT_EQ(p.options.deadlock_check_ms, 250);
  EXPECT_EQ(p.options.lock_classes, 5);
  EXPECT_TRUE(parse_options("details=on").options.details);
  EXPECT_EQ(parse_options("deadlock_check_ms=0").options.deadlock_check_ms, 0);
}

void expect_error(const std::string& text, const std::string& fragment) {
  auto p = parse_options(text);
  EXPECT_FALSE(p.ok()) << text;
  EXPECT_NE(p.error.find(fragment), std::string::npos) << text << " -> " << p.error;
}

TEST(LockOptions, BadDetailsNamesTheAcceptedValues) {
  expect_error("details=yes", "bad details 'yes' (expected on or off");
  expect_error("details=", "bad details ''");
}

TEST(LockOptions, BadDeadlockCheckIntervalIsRejected) {
  expect_error("deadlock_check_ms=abc", "bad deadlock_check_ms 'abc'");
  expect_error("deadlock_check_ms=10", "from 50 to 60000");
  expect_error("deadlock_check_ms=60001", "bad deadlock_check_ms");
  expect_error("deadlock_check_ms=-1", "bad deadlock_check_ms");
  expect_error("deadlock_check_ms=5x", "bad deadlock_check_ms");
  expect_error("deadlock_check_ms=", "bad deadlock_check_ms ''");
}

TEST(LockOptions, BadLockClassesIsRejected) {
  expect_error("lock_classes=0", "bad lock_classes '0'");
  expect_error("lock_classes=1001", "from 1 to 1000");
  expect_error("lock_classes=many", "bad lock_classes");
}

TEST(LockOptions, ContentionEventsCanBeTurnedOff) {
  EXPECT_TRUE(parse_options("").options.contention);
  EXPECT_FALSE(parse_options("contention=off").options.contention);
  expect_error("contention=no", "bad contention 'no' (expected on or off");
}

TEST(LockOptions, UnknownKeyListsTheLockOptions) {
  expect_error("deadlocks=on", "details, deadlock_check_ms, lock_classes, contention");
  expect_error("details=on,details=off", "given twice");
}

}  // namespace
}  // namespace jvmsight
