// The server's access rules as pure units: which addresses are local, the
// shared dump rate limit, credentials read from files and checked, base64.
#include "exporters/http/access.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>
#include <vector>

#include "tests/harness/jvm_process.h"
#include "tests/unit/exporters/http/credentials_files.h"

namespace jvmsight {
namespace {

using namespace std::chrono_literals;

using test::both_schemes;

TEST(LoopbackAddress, OnlyLoopbackForms) {
  for (const char* a : {"127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"}) EXPECT_TRUE(is_loopback_address(a)) << a;
  for (const char* a : {"10.0.0.1", "192.168.1.127", "::", "::ffff:10.0.0.1", "1270.0.0.1", "", "fe80::1"})
    EXPECT_FALSE(is_loopback_address(a)) << a;
}

TEST(DumpRateLimit, OneAnswerPerIntervalWithAFakeClock) {
  int64_t now = 5'000'000'000;
  DumpRateLimit limit(1s, [&] { return now; });
  EXPECT_TRUE(limit.try_acquire());
  EXPECT_FALSE(limit.try_acquire());
  now += 999'999'999;
  EXPECT_FALSE(limit.try_acquire());
  now += 1;
  EXPECT_TRUE(limit.try_acquire());
  EXPECT_FALSE(limit.try_acquire());
}

TEST(DumpRateLimit, ConcurrentClientsGetExactlyOne) {
  DumpRateLimit limit(1s, [] { return int64_t{42}; });
  std::atomic<int> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) granted += limit.try_acquire();
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(granted.load(), 1);
}

TEST(Credentials, FileProblemsAreNamedWithoutEchoingSecrets) {
  test::TempDir dir;
  Credentials c;
  std::string warning;
  std::string missing = read_credentials(dir.path("none"), "", c, warning);
  EXPECT_NE(missing.find("cannot read basic_auth_file '" + dir.path("none") + "': No such file or directory"),
            std::string::npos)
      << missing;
  std::string bad = read_credentials(test::write_secret(dir, "bad", "opsTopSecretNoColon\n"), "", c, warning);
  EXPECT_NE(bad.find("entry 1 is not user:password"), std::string::npos) << bad;
  EXPECT_EQ(bad.find("TopSecret"), std::string::npos) << "the error echoed a password: " << bad;
  EXPECT_NE(
      read_credentials(test::write_secret(dir, "empty", "# nothing\n\n"), "", c, warning).find("holds no credentials"),
      std::string::npos);
  EXPECT_NE(read_credentials("", test::write_secret(dir, "two", "a\nb\n"), c, warning).find("exactly one token"),
            std::string::npos);
  EXPECT_NE(read_credentials("", dir.path(""), c, warning).find("not a regular file"), std::string::npos);
  warning.clear();
  EXPECT_EQ(read_credentials(test::write_secret(dir, "open", "u:p\n", 0644), "", c, warning), "");
  EXPECT_NE(warning.find("readable by other users"), std::string::npos) << warning;
}

TEST(HttpProtocol, AuthSchemeIsCaseInsensitiveTheCredentialsAreNot) {
  test::TempDir dir;
  Credentials c = both_schemes(dir);
  const std::string basic = base64("prom:pw");
  for (std::string scheme : {"Basic", "basic", "BASIC", "bAsIc"}) {
    EXPECT_TRUE(c.accepts((scheme + " " + basic).c_str())) << scheme;
    EXPECT_TRUE(c.accepts((scheme + "  " + basic).c_str())) << scheme << ", two spaces";
  }
  for (const char* ok : {"Bearer t0k", "bearer t0k", "BEARER t0k"}) EXPECT_TRUE(c.accepts(ok)) << ok;
  for (const char* wrong :
       {"Bearer T0K", "bearer t0", "Bearer t0kk", "Bearer", "Bearert0k", "Basic t0k", "Token t0k", ""})
    EXPECT_FALSE(c.accepts(wrong)) << wrong;
  EXPECT_FALSE(c.accepts(("Basic " + base64("PROM:pw")).c_str()));
}

// A credentials file is read whole into memory, so it is capped; a big one
// (or /dev/zero) is refused before reading, and no byte of it is echoed.
TEST(UntrustedInput, CredentialFilesAreBounded) {
  test::TempDir dir;
  std::string big = dir.path("big");
  std::ofstream(big) << "user:" << std::string(70 * 1024, 'p') << "\n";
  chmod(big.c_str(), 0600);
  Credentials out;
  std::string warning;
  std::string error = read_credentials(big, "", out, warning);
  EXPECT_NE(error.find("is over 64 KiB"), std::string::npos) << error;
  EXPECT_EQ(error.find("ppp"), std::string::npos);
  EXPECT_NE(read_credentials("", "/dev/zero", out, warning).find("not a regular file"), std::string::npos);
  std::string directives = dir.path("fmt");
  std::ofstream(directives) << "%s%n:%n%s\n";
  chmod(directives.c_str(), 0600);
  Credentials fmt;
  ASSERT_EQ(read_credentials(directives, "", fmt, warning), "");
  EXPECT_TRUE(fmt.accepts(("Basic " + base64("%s%n:%n%s")).c_str()));
}

TEST(Base64, KnownVectors) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("Aladdin:open sesame"), "QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
}

}  // namespace
}  // namespace jvmsight
