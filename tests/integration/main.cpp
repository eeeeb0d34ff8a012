#include <gtest/gtest.h>

#include <cstring>

#include "tests/harness/jdks.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  bool listing = false;
  for (int i = 1; i < argc; ++i) listing = listing || std::strstr(argv[i], "list_tests");
  if (!listing) jvmsight::test::print_jdk_summary();
  return RUN_ALL_TESTS();
}
