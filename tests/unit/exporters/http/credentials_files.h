// Credentials files for the access and server tests: a user and a token,
// written with the modes read_credentials accepts.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>

#include "exporters/http/access.h"
#include "tests/harness/jvm_process.h"

namespace jvmsight::test {

// "prom:pw" for Basic and "t0k" for Bearer, read back as the server would.
inline Credentials both_schemes(const TempDir& dir) {
  std::ofstream(dir.path("users")) << "prom:pw\n";
  std::ofstream(dir.path("token")) << "t0k\n";
  chmod(dir.path("users").c_str(), 0600);
  chmod(dir.path("token").c_str(), 0600);
  Credentials c;
  std::string warning;
  EXPECT_EQ(read_credentials(dir.path("users"), dir.path("token"), c, warning), "");
  return c;
}

}  // namespace jvmsight::test
