// 1,000 attacker sockets, the server's and a scraper's need more than the
// usual soft limit of 1,024 descriptors.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/hostile/attacker.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  long limit = jvmsight::test::raise_fd_limit(4096);
  if (limit < 2200) std::fprintf(stderr, "hostile_tests: only %ld descriptors; the 1,000-client tests skip\n", limit);
  return RUN_ALL_TESTS();
}
